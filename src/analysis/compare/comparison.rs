//! The outcome of comparing two runs: its rows, what failed or went missing, the drifts
//! taken into account, what moved the whole machine, and why it fails the job.

use serde::Serialize;

use super::direction::Direction;
use super::options::SpeedBasis;
use super::row::{FailReason, Failed, Row, RowKey};
use super::verdict::Verdict;

/// The outcome of comparing two runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Comparison {
    /// Baseline label.
    pub baseline: String,
    /// Candidate label.
    pub candidate: String,
    /// `run`, `http` or `probe`.
    pub kind: &'static str,
    /// How speeds were compared.
    pub basis: SpeedBasis,
    /// The threshold, as a fraction.
    pub threshold: f64,
    /// Whether size drift is tolerated.
    pub allow_size_drift: bool,
    /// Whether missing results are tolerated.
    pub allow_missing: bool,
    /// Whether inconclusive speeds fail.
    pub strict: bool,
    /// The instruction threshold, as a fraction.
    pub instructions_threshold: f64,
    /// Results in both runs, in baseline order.
    pub rows: Vec<Row>,
    /// Results that failed in the candidate.
    pub failed: Vec<Failed>,
    /// Results only in the baseline.
    pub missing: Vec<RowKey>,
    /// Results only in the candidate.
    pub extra: Vec<RowKey>,
    /// Per payload and direction, the common drift and between-cell spread that the
    /// verdicts took into account.
    pub drifts: Vec<Drift>,
    /// Per payload and direction, what moved every cell or the reference itself.
    pub machine: Vec<MachineChange>,
    /// How many standard errors a change must exceed.
    pub z: f64,
    /// The fewest samples per timing for a time verdict; below it, inconclusive.
    pub samples_for_a_verdict: usize,
}

impl Comparison {
    /// Rows whose size changed.
    pub(crate) fn size_drifts(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.size_drift())
    }

    /// Rows that regressed.
    pub(crate) fn regressions(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.regressed())
    }

    /// Rows with an inconclusive speed and none regressed.
    pub(crate) fn inconclusive(&self) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(|r| !r.regressed() && r.has_verdict(Verdict::Inconclusive))
    }

    /// Machine-level changes beyond threshold and noise.
    pub(crate) fn machine_changes(&self) -> impl Iterator<Item = &MachineChange> {
        self.machine.iter().filter(|m| m.flagged())
    }

    /// Machine-level changes slower beyond threshold and noise.
    pub(crate) fn machine_slowdowns(&self) -> impl Iterator<Item = &MachineChange> {
        self.machine_changes()
            .filter(|m| m.verdict == Verdict::Regressed)
    }

    /// Each library whose version differs between the runs, as `(baseline, candidate)`
    /// with the library's name, once each.
    pub(crate) fn library_changes(&self) -> Vec<(String, String)> {
        let mut changes: Vec<(String, String)> = Vec::new();
        for row in &self.rows {
            let (RowKey::Cell(key), Some((before, after))) = (&row.key, &row.versions) else {
                continue;
            };
            let library = key.id.library;
            let change = (format!("{library} {before}"), format!("{library} {after}"));
            if before != after && !changes.contains(&change) {
                changes.push(change);
            }
        }
        changes
    }

    /// Why the comparison fails the job, each reason with the results it counts; empty
    /// when it passes.
    pub(crate) fn failures(&self) -> Vec<(FailReason, usize)> {
        let machine_fails = self.basis == SpeedBasis::Absolute;
        let slower = self.machine_slowdowns().count();
        let counts = [
            (FailReason::Failed, self.failed.len()),
            (
                FailReason::Missing,
                if self.allow_missing {
                    0
                } else {
                    self.missing.len()
                },
            ),
            (
                FailReason::SizeDrift,
                if self.allow_size_drift {
                    0
                } else {
                    self.size_drifts().count()
                },
            ),
            (FailReason::Regressed, self.regressions().count()),
            (
                FailReason::MachineSlowdown,
                if machine_fails { slower } else { 0 },
            ),
            (
                FailReason::MoreInstructions,
                self.rows
                    .iter()
                    .filter(|r| r.instructions_regressed())
                    .count(),
            ),
            (
                FailReason::Inconclusive,
                if self.strict {
                    self.inconclusive().count()
                } else {
                    0
                },
            ),
        ];
        counts.into_iter().filter(|&(_, n)| n > 0).collect()
    }

    /// True when the comparison should fail the job.
    #[cfg(test)]
    pub(crate) fn failed(&self) -> bool {
        !self.failures().is_empty()
    }
}

/// The common movement of one payload and direction, removed before judging.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Drift {
    /// Payload name.
    pub payload: String,
    /// The direction.
    pub direction: Direction,
    /// Median relative change of the other cells (0 in absolute mode, where it is kept).
    pub shift: f64,
    /// Standard deviation of the other cells' log changes.
    pub spread: f64,
    /// How many cells it was estimated from.
    pub cells: usize,
}

/// What moved on one payload and direction as a whole, in absolute speed: the
/// reference itself, or every cell together (a slower machine, a build without
/// optimisations). Normalised speeds cannot show either.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MachineChange {
    /// Payload name.
    pub payload: String,
    /// The direction.
    pub direction: Direction,
    /// `reference` or `all cells`.
    pub what: &'static str,
    /// The relative change in absolute speed: the reference's, or the median of every
    /// cell's.
    pub change: f64,
    /// The noise band in log units; `None` when nothing estimates it.
    pub noise: Option<f64>,
    /// How many cells it was measured over.
    pub cells: usize,
    /// What it amounts to.
    pub verdict: Verdict,
}

impl MachineChange {
    /// Beyond both the threshold and the noise, either way.
    pub(crate) fn flagged(&self) -> bool {
        matches!(self.verdict, Verdict::Regressed | Verdict::Improved)
    }
}
