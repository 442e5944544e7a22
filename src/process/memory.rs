//! Heap accounting, to report what one response's encoder holds.
//!
//! [`CountingAllocator`] wraps the system allocator and, while [`peak_during`] runs,
//! keeps the bytes live and the most live on the measuring thread, so that the progress
//! bar's thread (or another test) does not count. Otherwise it only forwards. The
//! codecbench binary installs it as the global allocator, so it sees every allocation of
//! the codecs written in Rust (the `brotli` port and zlib-rs). C libraries call `malloc`
//! directly and are measured otherwise (see each codec's `compress_measuring_memory`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Measurements under way on any thread; while none is, the allocator only forwards,
/// so timed iterations pay one relaxed load per allocation and nothing more.
static MEASURING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Const-initialised cells of plain integers: no allocation and no destructor, so the
    // allocator may touch them. Signed: a block allocated before a measurement and freed
    // during it takes the count below its start.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

/// The system allocator, counting live and peak bytes while [`peak_during`] runs.
pub struct CountingAllocator;

fn counting() -> bool {
    MEASURING.load(Ordering::Relaxed) > 0 && ACTIVE.try_with(Cell::get).unwrap_or(false)
}

fn grew(bytes: usize) {
    if !counting() {
        return;
    }
    let _ = LIVE.try_with(|live| {
        let now = live.get() + bytes as i64;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrank(bytes: usize) {
    if counting() {
        let _ = LIVE.try_with(|live| live.set(live.get() - bytes as i64));
    }
}

// SAFETY: every call forwards to `System` with the same arguments; the counters are only
// bookkeeping.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Count the move as the new block arriving before the old one leaves, which
            // is the worst case a copying realloc reaches.
            grew(new_size);
            shrank(layout.size());
        }
        new
    }
}

/// Runs `f` and returns its result with the most heap bytes this thread held at once
/// beyond what it held before; `None` for the bytes when [`CountingAllocator`] is not the
/// global allocator. Only this thread's allocations count, so a progress thread does not.
/// Not reentrant: no measurement runs inside another.
pub(crate) fn peak_during<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    ACTIVE.with(|active| active.set(true));
    LIVE.with(|live| live.set(0));
    PEAK.with(|peak| peak.set(0));
    MEASURING.fetch_add(1, Ordering::Relaxed);
    // A probe allocation tells whether the counting allocator is installed.
    drop(std::hint::black_box(Box::new(0u64)));
    if PEAK.with(Cell::get) > 0 {
        INSTALLED.store(true, Ordering::Relaxed);
    }
    PEAK.with(|peak| peak.set(0));
    let result = f();
    let peak = PEAK.with(Cell::get).max(0);
    MEASURING.fetch_sub(1, Ordering::Relaxed);
    ACTIVE.with(|active| active.set(false));
    let installed = INSTALLED.load(Ordering::Relaxed);
    (result, installed.then_some(peak as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_counts_what_was_held_at_once() {
        // The unit-test binary installs the allocator in lib.rs.
        let ((), peak) = peak_during(|| {
            let a = vec![0u8; 100_000];
            let b = vec![1u8; 50_000];
            drop((a, b));
            let c = vec![2u8; 120_000];
            drop(c);
        });
        let peak = peak.expect("installed for tests");
        assert_eq!(peak, 150_000);
    }
}
