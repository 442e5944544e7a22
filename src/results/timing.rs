//! The timings of a saved result, and which of its statistics `compare` judges.

use crate::stats::{median_relative_standard_error, quantile, quantile_relative_standard_error};

/// The timings of one direction of one cell.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Timing {
    /// Median seconds per iteration.
    pub median_s: f64,
    /// Every timed sample in seconds; empty when the run was read from CSV.
    pub samples_s: Vec<f64>,
    /// How many processes the samples came from (`run --processes`); `None` where the
    /// file does not say (CSV, and the HTTP results, which have no such choice).
    pub processes: Option<u32>,
}

impl Timing {
    /// A timing with this median and these samples.
    pub(crate) fn of(median_s: f64, samples_s: Vec<f64>) -> Self {
        Timing {
            median_s,
            samples_s,
            processes: None,
        }
    }

    /// This timing, its samples from `processes` processes.
    pub(crate) fn in_processes(self, processes: u32) -> Self {
        Timing {
            processes: Some(processes),
            ..self
        }
    }

    /// Median throughput for a body of `input_bytes`, in MB/s (MB = 10^6 bytes).
    pub(crate) fn mb_s(&self, input_bytes: u64) -> f64 {
        crate::stats::mb_per_s(input_bytes, self.median_s)
    }

    /// This speed as a multiple of `reference`'s on the same input: the inverse ratio
    /// of their median times.
    pub(crate) fn relative_to(&self, reference: &Timing) -> f64 {
        reference.median_s / self.median_s
    }

    /// Relative standard error of the median; `None` with fewer than 3 samples. See
    /// [`median_relative_standard_error`].
    pub(crate) fn relative_standard_error(&self) -> Option<f64> {
        median_relative_standard_error(&self.samples_s, self.median_s)
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
        if statistic == Statistic::Median || self.samples_s.len() < MIN_SAMPLES_FOR_QUANTILE {
            return (self.median_s, self.relative_standard_error());
        }
        let mut sorted = self.samples_s.clone();
        sorted.sort_by(f64::total_cmp);
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
    pub(crate) fn common(timings: &[&Timing]) -> Self {
        if timings
            .iter()
            .all(|t| t.samples_s.len() >= MIN_SAMPLES_FOR_QUANTILE)
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
