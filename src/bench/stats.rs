//! Summary statistics over timed iterations.
//!
//! The median is the headline figure, as in the article and in hyperfine: it is robust to
//! the occasional preempted iteration on a noisy machine, where the mean is not. The
//! minimum is kept as the best case the hardware allowed. The median of an even count is
//! the mean of the two middle samples (the usual definition, e.g. Hyndman & Fan 1996,
//! type 7 at p = 0.5). The standard deviation is the sample (n − 1) one.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Timing summary of one direction (compress or decompress) of one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Median time of one iteration, in seconds.
    pub median_s: f64,
    /// Fastest iteration, in seconds.
    pub min_s: f64,
    /// Slowest iteration, in seconds.
    pub max_s: f64,
    /// Arithmetic mean, in seconds.
    pub mean_s: f64,
    /// Sample standard deviation, in seconds; 0 for a single sample.
    pub stddev_s: f64,
    /// Every timed iteration, in seconds, in the order they ran.
    pub samples_s: Vec<f64>,
}

impl Summary {
    /// Summarises `samples`; `None` when there are none.
    pub fn from_durations(samples: &[Duration]) -> Option<Summary> {
        let seconds: Vec<f64> = samples.iter().map(Duration::as_secs_f64).collect();
        Summary::from_seconds(seconds)
    }

    /// Summarises samples given in seconds; `None` when there are none.
    pub fn from_seconds(samples_s: Vec<f64>) -> Option<Summary> {
        if samples_s.is_empty() {
            return None;
        }
        let mut sorted = samples_s.clone();
        let median_s = median(&mut sorted);
        let n = sorted.len();
        let mean_s = sorted.iter().sum::<f64>() / n as f64;
        let stddev_s = if n > 1 {
            let squares: f64 = sorted.iter().map(|s| (s - mean_s).powi(2)).sum();
            (squares / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            median_s,
            min_s: sorted[0],
            max_s: sorted[n - 1],
            mean_s,
            stddev_s,
            samples_s,
        })
    }

    /// Throughput at the median: `bytes` ÷ median seconds, in MB/s (MB = 10^6 bytes).
    pub fn median_mb_s(&self, bytes: u64) -> f64 {
        mb_per_s(bytes, self.median_s)
    }

    /// Throughput of the fastest iteration, in MB/s (MB = 10^6 bytes).
    pub fn best_mb_s(&self, bytes: u64) -> f64 {
        mb_per_s(bytes, self.min_s)
    }
}

/// The median of `values`, sorting them in place; 0 for none. An even count takes the
/// mean of the two middle values.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n.is_multiple_of(2) {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    } else {
        values[n / 2]
    }
}

/// `bytes` ÷ `seconds`, in MB/s with MB = 10^6 bytes; infinite for a zero time.
pub fn mb_per_s(bytes: u64, seconds: f64) -> f64 {
    bytes as f64 / 1e6 / seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_count_takes_the_middle_sample() {
        let s = Summary::from_seconds(vec![3.0, 1.0, 2.0, 100.0, 4.0]).unwrap();
        assert_eq!(s.median_s, 3.0);
        assert_eq!(s.min_s, 1.0);
        assert_eq!(s.max_s, 100.0);
        assert_eq!(s.mean_s, 22.0);
        assert_eq!(s.samples_s, vec![3.0, 1.0, 2.0, 100.0, 4.0], "order kept");
    }

    #[test]
    fn even_count_averages_the_two_middle_samples() {
        let s = Summary::from_seconds(vec![4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median_s, 2.5);
        assert!((s.stddev_s - 1.290_994_448_735_805_6).abs() < 1e-12);
    }

    #[test]
    fn single_sample_and_empty() {
        let s = Summary::from_durations(&[Duration::from_millis(2)]).unwrap();
        assert_eq!((s.median_s, s.min_s, s.stddev_s), (0.002, 0.002, 0.0));
        assert!(Summary::from_durations(&[]).is_none());
    }

    #[test]
    fn throughput_uses_decimal_megabytes() {
        let s = Summary::from_seconds(vec![0.5, 0.25, 1.0]).unwrap();
        assert_eq!(s.median_mb_s(1_000_000), 2.0);
        assert_eq!(s.best_mb_s(1_000_000), 4.0);
        assert!((mb_per_s(298_727, 0.001) - 298.727).abs() < 1e-9);
    }
}
