//! The clocks the runner reads: the system's monotonic one and the thread's CPU clock,
//! or a test's fakes.
//!
//! The CPU clock counts only the time the thread ran, so a call the scheduler
//! interrupts takes longer on the wall clock than on it. On Linux it is the scheduler's
//! own count, to the nanosecond, read through a system call: here 228-277 ns a read,
//! against 35-47 ns for the wall clock (`scripts/clock-cost.sh`). The runner reads it
//! outside the wall clock's readings, and takes off what the readings alone cost.

use std::time::{Duration, Instant};

/// A monotonic clock; the runner reads it around each timed iteration.
pub(crate) trait Clock {
    /// Time elapsed since some fixed origin.
    fn now(&self) -> Duration;

    /// The CPU time the calling thread has run; `None` where there is no such clock.
    fn cpu_now(&self) -> Option<Duration> {
        None
    }

    /// The CPU time that reading both clocks around an empty call adds, which the
    /// runner takes off each CPU sample.
    fn cpu_overhead(&self) -> Duration {
        Duration::ZERO
    }
}

/// The real clocks: `Instant`, which is monotonic, and the thread's CPU clock.
pub(crate) struct SystemClock {
    origin: Instant,
    cpu_overhead: Duration,
}

/// Empty calls timed to find what the clock readings cost: their fastest.
const OVERHEAD_PROBES: usize = 64;

impl SystemClock {
    /// A clock whose origin is now, its readings' CPU cost measured.
    pub(crate) fn new() -> Self {
        let mut clock = SystemClock {
            origin: Instant::now(),
            cpu_overhead: Duration::ZERO,
        };
        clock.cpu_overhead = (0..OVERHEAD_PROBES)
            .filter_map(|_| {
                let before = clock.cpu_now()?;
                let (start, end) = (clock.now(), clock.now());
                std::hint::black_box((start, end));
                Some(clock.cpu_now()?.saturating_sub(before))
            })
            .min()
            .unwrap_or_default();
        clock
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn cpu_now(&self) -> Option<Duration> {
        crate::process::cpu::thread_cpu_time()
    }

    fn cpu_overhead(&self) -> Duration {
        self.cpu_overhead
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_clock_counts_work_and_never_outruns_the_wall_clock() {
        let clock = SystemClock::new();
        assert!(clock.cpu_overhead() < Duration::from_micros(50));
        let (cpu_start, wall_start) = (clock.cpu_now().expect("Linux has one"), clock.now());
        let spent = || clock.cpu_now().unwrap() - cpu_start;
        while spent() < Duration::from_millis(2)
            && clock.now() - wall_start < Duration::from_secs(10)
        {
            std::hint::spin_loop();
        }
        let (cpu, wall) = (spent(), clock.now() - wall_start);
        assert!(cpu >= Duration::from_millis(2), "{cpu:?}");
        assert!(
            cpu <= wall + Duration::from_micros(10),
            "{cpu:?} > {wall:?}"
        );
    }
}
