//! What reading each clock costs and how finely it ticks, here: the wall clock the timed
//! loop reads (`Instant`, CLOCK_MONOTONIC) and the thread's CPU clock
//! (CLOCK_THREAD_CPUTIME_ID), for issue 61. Built and run by scripts/clock-cost.sh.

use std::time::Instant;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc_timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime fills the timespec it is given.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

#[repr(C)]
struct libc_timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut libc_timespec) -> i32;
}

/// Nanoseconds per read, over `reads` reads.
fn cost(reads: u32, read: impl Fn() -> u64) -> f64 {
    let start = Instant::now();
    let mut sink = 0u64;
    for _ in 0..reads {
        sink = sink.wrapping_add(read());
    }
    std::hint::black_box(sink);
    start.elapsed().as_nanos() as f64 / f64::from(reads)
}

/// The smallest step between two different readings, in nanoseconds.
fn tick(read: impl Fn() -> u64) -> u64 {
    let mut smallest = u64::MAX;
    for _ in 0..10_000 {
        let first = read();
        let mut next = read();
        while next == first {
            next = read();
        }
        smallest = smallest.min(next - first);
    }
    smallest
}

fn main() {
    let origin = Instant::now();
    let wall = || origin.elapsed().as_nanos() as u64;
    for round in 1..=3 {
        println!(
            "round {round}: wall clock {:.1} ns a read, tick {} ns; thread CPU clock {:.1} ns a read, tick {} ns",
            cost(5_000_000, wall),
            tick(wall),
            cost(5_000_000, thread_cpu_ns),
            tick(thread_cpu_ns)
        );
    }
}
