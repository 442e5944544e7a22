//! The clock the runner reads: the system's monotonic one, or a test's fake.

use std::time::{Duration, Instant};

/// A monotonic clock; the runner reads it around each timed iteration.
pub(crate) trait Clock {
    /// Time elapsed since some fixed origin.
    fn now(&self) -> Duration;
}

/// The real clock: `Instant`, which is monotonic.
pub(crate) struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose origin is now.
    pub(crate) fn new() -> Self {
        SystemClock {
            origin: Instant::now(),
        }
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
}
