//! Summary statistics over timed iterations.
//!
//! The median is the headline figure, as in the article and in hyperfine: it is robust to
//! the occasional preempted iteration on a noisy machine, where the mean is not. The
//! minimum is kept as the best case the hardware allowed. The median of an even count is
//! the mean of the two middle samples (the usual definition, e.g. Hyndman & Fan 1996,
//! type 7 at p = 0.5). The standard deviation is the sample (n − 1) one.
//!
//! The spread is the median absolute deviation (MAD), unscaled: the median of
//! |sample − median|. Multiply by 1.4826 to estimate a normal σ (Rousseeuw & Croux 1993).
//!
//! The 95% confidence interval of the median uses order statistics and makes no
//! assumption about the distribution (Conover, *Practical Nonparametric Statistics*,
//! 3rd ed., §3.2; also Hollander & Wolfe). The number of samples below the true median
//! is Binomial(n, ½), so for the largest rank `l` with P(B ≤ l − 1) ≤ 2.5% the interval
//! from the `l`-th smallest to the `l`-th largest sample covers the median with
//! probability 1 − 2·P(B ≤ l − 1) ≥ 95%. It needs at least 6 samples (with 5, even
//! min..max covers only 93.75%); with fewer it is absent.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::cpu_time::CpuTime;
use super::inference::median_relative_standard_error;
use super::order::{median, median_ci_rank};

/// Timing summary of one direction (compress or decompress) of one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Summary {
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
    /// Median absolute deviation from the median, unscaled, in seconds.
    #[serde(default)]
    pub mad_s: f64,
    /// Lower end of the 95% confidence interval of the median, in seconds; `None` with
    /// fewer than 6 samples.
    #[serde(default)]
    pub median_ci95_low_s: Option<f64>,
    /// Upper end of the 95% confidence interval of the median, in seconds.
    #[serde(default)]
    pub median_ci95_high_s: Option<f64>,
    /// Every timed iteration, in seconds, in the order they ran.
    pub samples_s: Vec<f64>,
    /// The thread's CPU time of the same iterations; `None` where it was not measured
    /// (runs from before it was, and timings of other processes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuTime>,
}

impl Summary {
    /// Summarises `samples`; `None` when there are none.
    pub(crate) fn from_durations(samples: &[Duration]) -> Option<Summary> {
        let seconds: Vec<f64> = samples.iter().map(Duration::as_secs_f64).collect();
        Summary::from_seconds(seconds)
    }

    /// Summarises samples given in seconds; `None` when there are none.
    pub(crate) fn from_seconds(samples_s: Vec<f64>) -> Option<Summary> {
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
        let (median_ci95_low_s, median_ci95_high_s) = match median_ci_rank(n, 0.05) {
            Some(l) => (Some(sorted[l - 1]), Some(sorted[n - l])),
            None => (None, None),
        };
        let mut deviations: Vec<f64> = sorted.iter().map(|s| (s - median_s).abs()).collect();
        Some(Summary {
            median_s,
            min_s: sorted[0],
            max_s: sorted[n - 1],
            mean_s,
            stddev_s,
            mad_s: median(&mut deviations),
            median_ci95_low_s,
            median_ci95_high_s,
            samples_s,
            cpu: None,
        })
    }

    /// This summary with the CPU time of its iterations, one sample each in the same
    /// order; samples of another count (none, where the clock was not read) are not
    /// theirs, and leave it without.
    pub(crate) fn with_cpu(mut self, cpu_s: Vec<f64>) -> Summary {
        self.cpu = (cpu_s.len() == self.samples_s.len())
            .then(|| CpuTime::from_seconds(cpu_s))
            .flatten();
        self
    }

    /// A summary for tests: this median and these samples, the other statistics at the
    /// median (as a saved run's medians-only CSV reads).
    #[cfg(test)]
    pub(crate) fn for_test(median_s: f64, samples_s: Vec<f64>) -> Summary {
        Summary {
            median_s,
            min_s: median_s,
            max_s: median_s,
            mean_s: median_s,
            stddev_s: 0.0,
            mad_s: 0.0,
            median_ci95_low_s: None,
            median_ci95_high_s: None,
            samples_s,
            cpu: None,
        }
    }

    /// Throughput at the median: `bytes` ÷ median seconds, in MB/s (MB = 10^6 bytes).
    pub(crate) fn median_mb_s(&self, bytes: u64) -> f64 {
        mb_per_s(bytes, self.median_s)
    }
}

/// Half-width of a median's 95% interval, ÷ the median, above which a timing counts as
/// imprecise: `compare`'s default threshold, so a change it could judge would drown in
/// this noise. Calibrated on this project's 2-core machine: the default settings put 13
/// of 66 timings of `small` above it, `--iterations 15` 45 of 66, 0.05 s per cell 1–2.
/// The MAD alone (5% before) fired on 31 of 66 at the defaults, since many samples make
/// a median precise even when they spread.
pub(crate) const IMPRECISE_RATIO: f64 = 0.10;
/// How much slower than the rest the first iterations may be before they count as a slow
/// start. At 1.5x the default settings flagged 18 of 66 timings whose medians were
/// precise; 2x flagged none in seven runs.
pub(crate) const SLOW_START_RATIO: f64 = 2.0;

/// The least share by which the wall time's median must exceed the CPU time's to count
/// as waiting, whatever the interval: below it, the clocks' own costs and the CPU
/// clock's accounting could make the difference.
pub(crate) const WAITED_FLOOR: f64 = 0.02;

/// Why a direction's median is less trustworthy than the gate needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Noise {
    /// The 95% interval of the median is this wide on either side, ÷ the median: above
    /// [`IMPRECISE_RATIO`].
    Imprecise(f64),
    /// The first fifth of the samples (at least one) ran this many times slower, by
    /// median, than the rest: a warm-up too short, or a frequency ramp.
    SlowStart(f64),
}

impl std::fmt::Display for Noise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Noise::Imprecise(ratio) => write!(f, "±{:.0}% at 95%", ratio * 100.0),
            Noise::SlowStart(ratio) => {
                write!(f, "first iterations {ratio:.2}x slower than the rest")
            }
        }
    }
}

impl Summary {
    /// The half-width of the median's 95% interval ÷ the median: from order statistics
    /// when there are enough samples, else from the MAD (1.96 standard errors); `None`
    /// with fewer than 2 samples.
    pub(crate) fn median_uncertainty(&self) -> Option<f64> {
        if self.median_s <= 0.0 {
            return None;
        }
        match (self.median_ci95_low_s, self.median_ci95_high_s) {
            (Some(low), Some(high)) => Some((high - low) / 2.0 / self.median_s),
            _ if self.samples_s.len() >= 2 => {
                median_relative_standard_error(&self.samples_s, self.median_s).map(|rse| 1.96 * rse)
            }
            _ => None,
        }
    }

    /// How much longer the wall time's median is than the CPU time's, ÷ the CPU time's
    /// (0.5 for half as long again), when that is more than the noise: more than the
    /// wall median's 95% interval reaches below it, and more than [`WAITED_FLOOR`].
    /// The thread then waited, off the CPU, while it was timed. `None` otherwise, and
    /// without CPU time.
    pub(crate) fn waited(&self) -> Option<f64> {
        let cpu = self.cpu.as_ref().filter(|c| c.median_s > 0.0)?;
        let gap = self.median_s / cpu.median_s - 1.0;
        let noise = self.median_uncertainty().unwrap_or(0.0).max(WAITED_FLOOR);
        (gap > noise).then_some(gap)
    }

    /// Whether this median is less precise than the gate needs, and why; the interval
    /// is checked first, a slow start (at least 4 samples) second.
    pub(crate) fn noise(&self) -> Option<Noise> {
        if let Some(ratio) = self.median_uncertainty().filter(|r| *r > IMPRECISE_RATIO) {
            return Some(Noise::Imprecise(ratio));
        }
        let n = self.samples_s.len();
        if n >= 4 {
            let head = (n / 5).max(1);
            let first = median(&mut self.samples_s[..head].to_vec());
            let rest = median(&mut self.samples_s[head..].to_vec());
            if rest > 0.0 && first / rest > SLOW_START_RATIO {
                return Some(Noise::SlowStart(first / rest));
            }
        }
        None
    }
}

/// `bytes` ÷ `seconds`, in MB/s with MB = 10^6 bytes; infinite for a zero time.
pub(crate) fn mb_per_s(bytes: u64, seconds: f64) -> f64 {
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
    fn mad_is_the_median_distance_from_the_median() {
        // Deviations from 3: 2, 1, 0, 97, 1 → median 1.
        let s = Summary::from_seconds(vec![1.0, 2.0, 3.0, 100.0, 4.0]).unwrap();
        assert_eq!(s.mad_s, 1.0);
    }

    #[test]
    fn median_ci_brackets_the_median() {
        let samples: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = Summary::from_seconds(samples).unwrap();
        assert_eq!(
            (s.median_ci95_low_s, s.median_ci95_high_s),
            (Some(2.0), Some(9.0))
        );
        let few = Summary::from_seconds(vec![1.0, 2.0, 3.0]).unwrap();
        assert_eq!(few.median_ci95_low_s, None);
    }

    #[test]
    fn steady_samples_are_not_noisy() {
        let s = Summary::from_seconds(vec![1.00, 1.01, 0.99, 1.02, 1.00, 0.98]).unwrap();
        assert_eq!(s.noise(), None);
    }

    #[test]
    fn an_imprecise_median_is_noisy() {
        // Five samples, too few for an order-statistics interval: median 1.0, MAD 0.1,
        // so 1.96 × 1.2533 × 1.4826 × 0.1 / √5 = 16.3%.
        let s = Summary::from_seconds(vec![0.9, 1.1, 1.0, 1.2, 0.7]).unwrap();
        assert!(matches!(s.noise(), Some(Noise::Imprecise(r)) if (r - 0.1629).abs() < 1e-3));
        assert_eq!(s.noise().unwrap().to_string(), "±16% at 95%");
        // The same spread over 400 samples pins the median down: no warning.
        let many: Vec<f64> = (0..400).map(|i| [0.9, 1.1, 1.0, 1.2, 0.7][i % 5]).collect();
        let s = Summary::from_seconds(many).unwrap();
        assert!(s.median_uncertainty().unwrap() <= IMPRECISE_RATIO);
        assert_eq!(s.noise(), None);
        // One sample: nothing can be said.
        assert_eq!(Summary::from_seconds(vec![1.0]).unwrap().noise(), None);
    }

    #[test]
    fn a_slow_start_is_noisy_even_when_the_spread_is_small() {
        // Twenty samples: the first four (a fifth) at 2.5, the rest at 1.0.
        let mut samples = vec![2.5; 4];
        samples.extend([1.0; 16]);
        let s = Summary::from_seconds(samples).unwrap();
        assert_eq!(s.mad_s, 0.0);
        assert_eq!(s.noise(), Some(Noise::SlowStart(2.5)));
        let too_few = Summary::from_seconds(vec![2.5, 1.0, 1.0]).unwrap();
        assert_eq!(too_few.noise(), None);
    }

    #[test]
    fn waiting_counts_only_beyond_the_interval_and_the_floor() {
        let wall: Vec<f64> = (0..20).map(|i| 1.0 + f64::from(i % 5) * 0.01).collect();
        let with = |cpu: f64| {
            Summary::from_seconds(wall.clone())
                .unwrap()
                .with_cpu(vec![cpu; 20])
        };
        // Wall median 1.02, its interval 1.01..1.03: 1.5% above the CPU is within the floor.
        assert_eq!(with(1.005).waited(), None);
        let waited = with(0.5).waited().unwrap();
        assert!((waited - 1.04).abs() < 1e-9, "{waited}");
        // A wide interval hides a gap the floor alone would not.
        let spread: Vec<f64> = (0..20).map(|i| 0.5 + f64::from(i) * 0.1).collect();
        let wide = Summary::from_seconds(spread)
            .unwrap()
            .with_cpu(vec![1.2; 20]);
        assert_eq!(wide.waited(), None);
        assert_eq!(Summary::from_seconds(wall.clone()).unwrap().waited(), None);
        // CPU samples of another count are not these iterations'.
        assert_eq!(
            Summary::from_seconds(wall).unwrap().with_cpu(vec![0.5]).cpu,
            None
        );
    }

    #[test]
    fn throughput_uses_decimal_megabytes() {
        let s = Summary::from_seconds(vec![0.5, 0.25, 1.0]).unwrap();
        assert_eq!(s.median_mb_s(1_000_000), 2.0);
        assert!((mb_per_s(298_727, 0.001) - 298.727).abs() < 1e-9);
    }
}
