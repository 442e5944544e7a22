//! What `ab` measures and decides: per cell and direction, the candidate's time ÷ the
//! baseline's in each pair of batches (each batch's fastest iteration), the shift they show with its interval
//! ([`crate::stats::paired_shift`]), and a verdict against the threshold.

use serde::Serialize;

use super::environment::Environment;
use crate::stats::{median, paired_shift};
use crate::vocab::CellId;

/// The confidence level of each interval: 95%.
pub(crate) const ALPHA: f64 = 0.05;

/// The verdict on one direction of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AbVerdict {
    /// The whole interval lies within the threshold either way.
    Same,
    /// The interval straddles the threshold, or too few pairs bound it.
    Inconclusive,
    /// The candidate is faster: the whole interval lies beyond the threshold.
    Faster,
    /// The candidate is slower: the whole interval lies beyond the threshold.
    Slower,
}

impl AbVerdict {
    /// Whether more pairs could change it.
    pub(crate) fn decided(self) -> bool {
        self != AbVerdict::Inconclusive
    }

    /// The word reports print.
    pub(crate) fn word(self) -> &'static str {
        match self {
            AbVerdict::Same => "same",
            AbVerdict::Inconclusive => "inconclusive",
            AbVerdict::Faster => "faster",
            AbVerdict::Slower => "SLOWER",
        }
    }
}

/// One direction of one cell: every pair's ratio and what they show.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct PairedTimes {
    /// The candidate's fastest time ÷ the baseline's, in one pair of batches each, in
    /// order.
    pub ratios: Vec<f64>,
    /// The Hodges–Lehmann estimate of the ratio; `None` with under 6 pairs.
    pub estimate: Option<f64>,
    /// Its 95% interval's low end.
    pub low: Option<f64>,
    /// Its high end.
    pub high: Option<f64>,
}

impl PairedTimes {
    /// `ratios` with the shift they show.
    pub(crate) fn of(ratios: Vec<f64>) -> PairedTimes {
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        let shift = paired_shift(&logs, ALPHA);
        PairedTimes {
            estimate: shift.map(|s| s.estimate.exp()),
            low: shift.map(|s| s.low.exp()),
            high: shift.map(|s| s.high.exp()),
            ratios,
        }
    }

    /// The verdict against `threshold` (0.02 for 2%): slower or faster when the whole
    /// interval lies beyond it, the same when it lies within it either way.
    pub(crate) fn verdict(&self, threshold: f64) -> AbVerdict {
        let (Some(low), Some(high)) = (self.low, self.high) else {
            return AbVerdict::Inconclusive;
        };
        let (up, down) = (1.0 + threshold, 1.0 / (1.0 + threshold));
        if low > up {
            AbVerdict::Slower
        } else if high < down {
            AbVerdict::Faster
        } else if low >= down && high <= up {
            AbVerdict::Same
        } else {
            AbVerdict::Inconclusive
        }
    }

    /// The verdict, held to account across runs of `group` pairs (one run per
    /// generation of workers; `ab` starts them anew every pair, so a run is one pair).
    /// Inconclusive under 3 runs. A slower or faster verdict must
    /// survive leaving out each run in turn: the pairs left must still put the whole
    /// interval on the same side of 1. So a worker slow for its whole life cannot
    /// decide a cell alone; a real change shows in every run.
    pub(crate) fn steady_verdict(&self, threshold: f64, group: usize) -> AbVerdict {
        let verdict = self.verdict(threshold);
        let group = group.max(1);
        let runs = self.ratios.len().div_ceil(group);
        if runs < 3 {
            return AbVerdict::Inconclusive;
        }
        let same_side = |run: usize| {
            let rest: Vec<f64> = (self.ratios.iter().enumerate())
                .filter(|(i, _)| i / group != run)
                .map(|(_, r)| *r)
                .collect();
            let rest = PairedTimes::of(rest);
            match verdict {
                AbVerdict::Slower => rest.low.is_some_and(|low| low > 1.0),
                _ => rest.high.is_some_and(|high| high < 1.0),
            }
        };
        match verdict {
            AbVerdict::Slower | AbVerdict::Faster if !(0..runs).all(same_side) => {
                AbVerdict::Inconclusive
            }
            _ => verdict,
        }
    }

    /// The smallest slowdown this interval could have shown: its width above the
    /// estimate, added to the threshold. `None` without an interval.
    pub(crate) fn could_see(&self, threshold: f64) -> Option<f64> {
        let (estimate, low, high) = (self.estimate?, self.low?, self.high?);
        let half = (high / estimate).max(estimate / low);
        Some((1.0 + threshold) * half - 1.0)
    }

    /// The median ratio, for a table.
    pub(crate) fn median_ratio(&self) -> Option<f64> {
        (!self.ratios.is_empty()).then(|| median(&mut self.ratios.clone()))
    }
}

/// One cell of an A/B run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AbCell {
    /// The payload's name.
    pub payload: String,
    /// Its size in bytes.
    pub input_bytes: u64,
    /// What the cell measures.
    #[serde(flatten)]
    pub id: CellId,
    /// The candidate's compressed size.
    pub candidate_bytes: u64,
    /// The baseline's; a size that differs is a size drift.
    pub baseline_bytes: u64,
    /// Compression, pair by pair.
    pub compress: PairedTimes,
    /// Decompression.
    pub decompress: PairedTimes,
    /// The verdicts on compression and decompression, against the run's threshold.
    pub verdicts: [AbVerdict; 2],
    /// Why the cell could not be measured, if it could not (a failed round trip).
    pub failure: Option<String>,
}

impl AbCell {
    /// Whether the two builds compressed to different sizes.
    pub(crate) fn size_drift(&self) -> bool {
        self.candidate_bytes != self.baseline_bytes
    }

    /// Whether it measured the same both ways, with equal sizes and no failure.
    pub(crate) fn same_both_ways(&self) -> bool {
        self.failure.is_none() && !self.size_drift() && self.verdicts == [AbVerdict::Same; 2]
    }

    /// Whether more pairs could change what the cell shows.
    pub(crate) fn decided(&self) -> bool {
        self.failure.is_some() || self.size_drift() || self.verdicts.iter().all(|v| v.decided())
    }
}

/// A whole A/B run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AbReport {
    /// The candidate's machine and build.
    pub environment: Environment,
    /// The baseline program, as given.
    pub baseline: String,
    /// The worker protocol version the baseline spoke.
    pub baseline_protocol: u32,
    /// Which build the baseline said it is (version, commit, compiler, libraries);
    /// `None` for a build from before builds said.
    pub baseline_build: Option<Environment>,
    /// The threshold, e.g. 0.02.
    pub threshold: f64,
    /// The calibration hook the candidate ran under, if any.
    pub calibration: Option<String>,
    /// Seconds the run took.
    pub seconds: f64,
    /// Whether a stop request cut it short.
    pub interrupted: bool,
    /// Whether `--max-time` ran out first: the cells still open are inconclusive.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub out_of_time: bool,
    /// The cells, payload by payload, in the run's order.
    pub cells: Vec<AbCell>,
}

impl AbReport {
    /// The cells slower past the threshold or with a size drift: what fails the run.
    pub(crate) fn failures(&self) -> Vec<&AbCell> {
        self.cells
            .iter()
            .filter(|c| {
                c.size_drift() || c.failure.is_some() || c.verdicts.contains(&AbVerdict::Slower)
            })
            .collect()
    }

    /// The smallest slowdown every cell could have shown, in both directions: the
    /// largest of their [`PairedTimes::could_see`]; `None` if one has no interval.
    pub(crate) fn could_see(&self) -> Option<f64> {
        self.cells
            .iter()
            .filter(|c| c.failure.is_none())
            .flat_map(|c| [&c.compress, &c.decompress])
            .map(|p| p.could_see(self.threshold))
            .try_fold(0.0_f64, |most, seen| Some(most.max(seen?)))
    }

    /// Whether a slowdown by `factor` (2.0 for 2x) could have gone unseen in some cell.
    pub(crate) fn could_miss(&self, factor: f64) -> bool {
        self.could_see().is_none_or(|seen| seen >= factor - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_read_the_whole_interval_against_the_threshold() {
        let noisy = |centre: f64| -> Vec<f64> {
            (0..12)
                .map(|i| centre * (1.0 + (i % 5) as f64 * 0.004 - 0.008))
                .collect()
        };
        assert_eq!(
            PairedTimes::of(noisy(1.06)).verdict(0.02),
            AbVerdict::Slower
        );
        assert_eq!(
            PairedTimes::of(noisy(0.94)).verdict(0.02),
            AbVerdict::Faster
        );
        assert_eq!(PairedTimes::of(noisy(1.0)).verdict(0.02), AbVerdict::Same);
        assert_eq!(
            PairedTimes::of(noisy(1.02)).verdict(0.02),
            AbVerdict::Inconclusive
        );
        assert_eq!(
            PairedTimes::of(noisy(1.5)[..5].to_vec()).verdict(0.02),
            AbVerdict::Inconclusive
        );
        let seen = PairedTimes::of(noisy(1.0)).could_see(0.02).unwrap();
        assert!(seen > 0.02 && seen < 0.04, "{seen}");
    }

    /// The one false alarm of docs/ab.md: zstd 10's compression, the candidate's first
    /// two generations of workers slow, decided slower at 7 pairs.
    const SLOW_FIRST_WORKERS: [f64; 9] = [1.34, 1.34, 1.17, 1.21, 1.13, 1.07, 0.98, 1.0, 1.01];

    #[test]
    fn a_slow_generation_of_workers_cannot_decide_alone() {
        let first_seven = PairedTimes::of(SLOW_FIRST_WORKERS[..7].to_vec());
        assert_eq!(first_seven.verdict(0.02), AbVerdict::Slower);
        assert_eq!(first_seven.steady_verdict(0.02, 3), AbVerdict::Inconclusive);
        let nine = PairedTimes::of(SLOW_FIRST_WORKERS.to_vec());
        assert_eq!(nine.steady_verdict(0.02, 3), AbVerdict::Inconclusive);
    }

    #[test]
    fn a_steady_slowdown_is_decided_across_generations() {
        let slowed: Vec<f64> = (0..12)
            .map(|i| 1.05 * (1.0 + (i % 4) as f64 * 0.004 - 0.006))
            .collect();
        let times = PairedTimes::of(slowed);
        assert_eq!(times.steady_verdict(0.02, 3), AbVerdict::Slower);
        assert_eq!(
            PairedTimes::of(times.ratios[..6].to_vec()).steady_verdict(0.02, 3),
            AbVerdict::Inconclusive,
            "two generations are too few"
        );
        let same: Vec<f64> = (0..9).map(|i| 1.0 + (i % 3) as f64 * 0.002).collect();
        assert_eq!(
            PairedTimes::of(same).steady_verdict(0.02, 3),
            AbVerdict::Same
        );
    }
}
