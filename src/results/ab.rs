//! What `ab` measures and decides: per cell, both directions' pairs and verdicts
//! ([`super::paired_times`]) and what each could have seen; the run's cells together.

use serde::Serialize;

use super::environment::Environment;
use super::paired_times::{AbVerdict, PairedTimes};
use crate::vocab::CellId;

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
    /// The smallest slowdown each direction could have shown (0.03 for 3%): its
    /// [`PairedTimes::could_see`] at the run's threshold; `None` without an interval.
    pub sight: [Option<f64>; 2],
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

    /// The smallest slowdown both directions could have shown: the larger of their
    /// [`AbCell::sight`]; `None` if one has no interval.
    pub(crate) fn could_see(&self) -> Option<f64> {
        let [compress, decompress] = self.sight;
        Some(compress?.max(decompress?))
    }

    /// Whether more pairs would tell no more: it failed or drifted, or each direction is
    /// slower or faster, or the same with a sight of `sight` (0.03 for 3%) or finer.
    pub(crate) fn settled(&self, sight: f64) -> bool {
        let settled = |(verdict, seen): (&AbVerdict, &Option<f64>)| match verdict {
            AbVerdict::Slower | AbVerdict::Faster => true,
            AbVerdict::Same => seen.is_some_and(|seen| seen <= sight),
            AbVerdict::Inconclusive => false,
        };
        self.failure.is_some()
            || self.size_drift()
            || self.verdicts.iter().zip(&self.sight).all(settled)
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
    /// The sight each cell was measured towards, e.g. 0.03 (`--sight`).
    pub sight_target: f64,
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
    /// largest of their [`AbCell::could_see`]; `None` if one has no interval.
    pub(crate) fn could_see(&self) -> Option<f64> {
        self.cells
            .iter()
            .filter(|c| c.failure.is_none())
            .map(AbCell::could_see)
            .try_fold(0.0_f64, |most, seen| Some(most.max(seen?)))
    }

    /// The cell and direction whose interval sets [`AbReport::could_see`]: the least
    /// precise; `None` when some direction has no interval.
    pub(crate) fn least_sighted(&self) -> Option<(&AbCell, &'static str)> {
        let mut least: Option<(&AbCell, &'static str, f64)> = None;
        for cell in self.cells.iter().filter(|c| c.failure.is_none()) {
            for (sight, direction) in cell.sight.iter().zip(["compress", "decompress"]) {
                let sight = (*sight)?;
                if least.is_none_or(|(_, _, most)| sight > most) {
                    least = Some((cell, direction, sight));
                }
            }
        }
        least.map(|(cell, direction, _)| (cell, direction))
    }

    /// Whether a slowdown by `factor` (2.0 for 2x) could have gone unseen in some cell.
    pub(crate) fn could_miss(&self, factor: f64) -> bool {
        self.could_see().is_none_or(|seen| seen >= factor - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::CodecKind;

    fn cell(verdicts: [AbVerdict; 2], sight: [Option<f64>; 2]) -> AbCell {
        AbCell {
            payload: "small".into(),
            input_bytes: 298_727,
            id: CellId::reference(CodecKind::Zstd, 3),
            candidate_bytes: 41_132,
            baseline_bytes: 41_132,
            compress: PairedTimes::default(),
            decompress: PairedTimes::default(),
            verdicts,
            sight,
            failure: None,
        }
    }

    #[test]
    fn a_cell_the_same_stays_open_until_it_could_see_its_aim() {
        let same = [AbVerdict::Same; 2];
        assert!(!cell(same, [Some(0.031), Some(0.025)]).settled(0.03));
        assert!(!cell(same, [Some(0.025), None]).settled(0.03));
        assert!(cell(same, [Some(0.03), Some(0.025)]).settled(0.03));
        // A direction slower or faster is settled however wide; an open one never is.
        let slower = [AbVerdict::Slower, AbVerdict::Faster];
        assert!(cell(slower, [Some(0.2), Some(0.2)]).settled(0.03));
        let open = [AbVerdict::Inconclusive, AbVerdict::Same];
        assert!(!cell(open, [Some(0.02), Some(0.02)]).settled(0.03));
        // A size drift or a failure ends the cell whatever its pairs show.
        let drift = AbCell {
            candidate_bytes: 41_133,
            ..cell(open, [None, None])
        };
        assert!(drift.settled(0.03));
        let failed = AbCell {
            failure: Some("decompression failed".into()),
            ..cell(open, [None, None])
        };
        assert!(failed.settled(0.03));
    }
}
