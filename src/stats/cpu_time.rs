//! The thread's CPU time of timed iterations, beside their wall-clock time.
//!
//! A thread the scheduler sets aside keeps the wall clock running but not its CPU
//! clock, so on a busy machine the wall time of a call can exceed the work it did. Google
//! Benchmark reports CPU time beside real time for this reason; hyperfine reports user
//! and system time. Where the two differ by more than the noise, the wall time holds
//! waiting, and the CPU time is the work (docs/run.md, "CPU time").

use serde::{Deserialize, Serialize};

use super::order::median;

/// The CPU time of the iterations a [`super::Summary`] times on the wall clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CpuTime {
    /// Median CPU time of one iteration, in seconds.
    pub median_s: f64,
    /// The least CPU time of one iteration, in seconds.
    pub min_s: f64,
    /// Every iteration's CPU time, in seconds, in the order they ran; empty when read
    /// from a CSV file.
    #[serde(default)]
    pub samples_s: Vec<f64>,
}

impl CpuTime {
    /// Summarises `samples_s`; `None` when there are none.
    pub(crate) fn from_seconds(samples_s: Vec<f64>) -> Option<CpuTime> {
        if samples_s.is_empty() {
            return None;
        }
        let mut sorted = samples_s.clone();
        Some(CpuTime {
            median_s: median(&mut sorted),
            min_s: sorted.iter().copied().fold(f64::INFINITY, f64::min),
            samples_s,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_and_least_of_the_samples_in_their_order() {
        let cpu = CpuTime::from_seconds(vec![3.0, 1.0, 2.0, 4.0]).unwrap();
        assert_eq!((cpu.median_s, cpu.min_s), (2.5, 1.0));
        assert_eq!(cpu.samples_s, vec![3.0, 1.0, 2.0, 4.0]);
        assert!(CpuTime::from_seconds(Vec::new()).is_none());
    }
}
