//! The timings of a saved result, and which of its statistics `compare` judges.

use crate::stats::{
    median_relative_standard_error, quantile, quantile_relative_standard_error, Summary,
};

/// The timings of one direction of one result, read from its document: a cell's
/// [`Summary`], or the latencies of an HTTP encoding or a probe row (in ms there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Timing<'a> {
    /// Median seconds per iteration.
    pub median_s: f64,
    /// Every timed sample, in units of `unit_s` seconds; empty when the run was read
    /// from CSV.
    samples: &'a [f64],
    /// Seconds per unit of `samples`: 1 for a cell's, 10^-3 for latencies in ms.
    unit_s: f64,
    /// How many processes the samples came from (`run --processes`); `None` where the
    /// file does not say (CSV, and the HTTP results, which have no such choice).
    pub processes: Option<u32>,
}

impl<'a> Timing<'a> {
    /// A cell's timing, its samples from `processes` processes where known.
    pub(crate) fn of_summary(summary: &'a Summary, processes: Option<u32>) -> Self {
        Timing {
            median_s: summary.median_s,
            samples: &summary.samples_s,
            unit_s: 1.0,
            processes,
        }
    }

    /// A latency: its median and its samples, in ms.
    pub(crate) fn of_ms(median_ms: f64, samples_ms: &'a [f64]) -> Self {
        Timing {
            median_s: median_ms / 1e3,
            samples: samples_ms,
            unit_s: 1e-3,
            processes: None,
        }
    }

    /// How many samples the document holds: none from CSV.
    pub(crate) fn sample_count(&self) -> usize {
        self.samples.len()
    }

    /// The samples in seconds, sorted.
    fn sorted_s(&self) -> Vec<f64> {
        let mut sorted: Vec<f64> = self.samples.iter().map(|s| s * self.unit_s).collect();
        sorted.sort_by(f64::total_cmp);
        sorted
    }

    /// Median throughput for a body of `input_bytes`, in MB/s (MB = 10^6 bytes).
    pub(crate) fn mb_s(&self, input_bytes: u64) -> f64 {
        crate::stats::mb_per_s(input_bytes, self.median_s)
    }

    /// This speed as a multiple of `reference`'s on the same input: the inverse ratio
    /// of their median times.
    pub(crate) fn relative_to(&self, reference: &Timing<'_>) -> f64 {
        reference.median_s / self.median_s
    }

    /// Relative standard error of the median; `None` with fewer than 3 samples. See
    /// [`median_relative_standard_error`].
    pub(crate) fn relative_standard_error(&self) -> Option<f64> {
        // Relative, so the samples' unit cancels out.
        median_relative_standard_error(self.samples, self.median_s / self.unit_s)
    }

    /// The time `compare` judges by `statistic`, with its relative standard error.
    ///
    /// On a shared machine noise only ever adds time (preemption, a busy neighbour), so
    /// the slow tail moves between runs and a low quantile does not: over 10 runs of
    /// the CI settings here, the between-run change of a cell's 10th percentile had a
    /// standard deviation of 2 to 3%, its median's 7 to 10%. The minimum, which lzbench
    /// and `zstd -b` report, is as stable but rests on one sample and has no standard
    /// error; a quantile has both.
    pub(crate) fn judged(&self, statistic: Statistic) -> (f64, Option<f64>) {
        if statistic == Statistic::Median || self.sample_count() < MIN_SAMPLES_FOR_QUANTILE {
            return (self.median_s, self.relative_standard_error());
        }
        let sorted = self.sorted_s();
        (
            quantile(&sorted, JUDGED_QUANTILE),
            quantile_relative_standard_error(&sorted, JUDGED_QUANTILE, JUDGED_QUANTILE),
        )
    }
}

/// Which time of a cell `compare` judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Statistic {
    /// The [`JUDGED_QUANTILE`]: see [`Timing::judged`].
    LowQuantile,
    /// The median.
    Median,
}

impl Statistic {
    /// The low quantile when every one of `timings` has at least
    /// [`MIN_SAMPLES_FOR_QUANTILE`] samples, else the median: the two sides of a change
    /// (and their references) are always judged by the same statistic, so a JSON run and
    /// the CSV of the same run (medians only) compare clean.
    pub(crate) fn common(timings: &[Timing<'_>]) -> Self {
        if timings
            .iter()
            .all(|t| t.sample_count() >= MIN_SAMPLES_FOR_QUANTILE)
        {
            Statistic::LowQuantile
        } else {
            Statistic::Median
        }
    }
}

/// The quantile of a cell's times that `compare` judges: see [`Timing::judged`].
pub(crate) const JUDGED_QUANTILE: f64 = 0.1;

/// Fewest samples for judging [`JUDGED_QUANTILE`]; below it, the median.
pub(crate) const MIN_SAMPLES_FOR_QUANTILE: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latency_in_ms_is_judged_as_the_same_times_in_seconds() {
        let seconds: Vec<f64> = (1..=20).map(|i| 0.01 + i as f64 * 1e-4).collect();
        let ms: Vec<f64> = seconds.iter().map(|s| s * 1e3).collect();
        let summary = Summary::for_test(seconds[9], seconds.clone());
        let (a, b) = (
            Timing::of_summary(&summary, None),
            Timing::of_ms(ms[9], &ms),
        );
        assert_eq!(Statistic::common(&[a, b]), Statistic::LowQuantile);
        for statistic in [Statistic::LowQuantile, Statistic::Median] {
            let ((ta, ea), (tb, eb)) = (a.judged(statistic), b.judged(statistic));
            assert!((ta - tb).abs() < 1e-12, "{ta} against {tb}");
            assert!((ea.unwrap() - eb.unwrap()).abs() < 1e-9);
        }
        assert!((a.mb_s(1_000_000) - b.mb_s(1_000_000)).abs() < 1e-6);
    }
}
