//! What a comparison is made of: a row per result in both runs, keyed by what it
//! measures, with each direction's speed and instruction changes; and why a comparison
//! fails.

use serde::Serialize;

use super::direction::Direction;
use super::instructions::InstructionChange;
use super::verdict::Verdict;
use crate::results::probe::ProbeKey;
use crate::results::{CellKey, HttpKey};

/// Which result a row is about.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum RowKey {
    /// A cell of `run`.
    Cell(CellKey),
    /// An encoding of `http`.
    Http(HttpKey),
    /// A URL and `Accept-Encoding` of `probe`.
    Probe(ProbeKey),
}

impl RowKey {
    /// The payload it was measured on; a probe row's URL.
    pub(crate) fn payload(&self) -> &str {
        match self {
            RowKey::Cell(key) => &key.payload,
            RowKey::Http(key) => &key.payload,
            RowKey::Probe(key) => &key.url,
        }
    }
}

impl std::fmt::Display for RowKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowKey::Cell(key) => key.fmt(f),
            RowKey::Http(key) => key.fmt(f),
            RowKey::Probe(key) => key.fmt(f),
        }
    }
}

/// One direction's speed in both runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SpeedChange {
    /// Baseline speed: MB/s, or the ratio to the reference cell.
    pub baseline: f64,
    /// Candidate speed, in the same unit.
    pub candidate: f64,
    /// `candidate / baseline − 1`: −0.2 means 20% slower.
    pub change: f64,
    /// The change after removing the reference cell's drift (normalised mode); this is
    /// what the verdict judges.
    pub judged_change: f64,
    /// Standard error of the log ratio from the samples: the cell's and, when
    /// normalised, the reference's; `None` without.
    pub se_within: Option<f64>,
    /// The part of it from the cell's own samples, without the reference's: what is
    /// left once the common drift (which holds the reference's noise) is removed.
    pub se_own: Option<f64>,
    /// The band a change must leave to count: `z` × the combined standard error of
    /// within-cell and between-cell noise, in log units; `None` when neither is known.
    pub noise: Option<f64>,
    /// The fewest timed samples among the timings compared (both runs' and, when
    /// normalised, their references'); 0 when a run was read from CSV.
    pub samples: usize,
    /// The fewest processes the timings compared were measured in; `None` when a file
    /// does not say.
    pub processes: Option<u32>,
    /// What it amounts to.
    pub verdict: Verdict,
}

/// One result present in both runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Row {
    /// Which cell or encoding.
    pub key: RowKey,
    /// Whether it is the reference the other speeds are normalised to.
    pub is_reference: bool,
    /// The library's version in the baseline and the candidate, for cells; the
    /// `Content-Encoding` sent, for probe rows.
    pub versions: Option<(String, String)>,
    /// Baseline size: compressed bytes, or an HTTP body's bytes.
    pub baseline_bytes: u64,
    /// Candidate size.
    pub candidate_bytes: u64,
    /// Each direction's change; `None` where either run lacks the timing.
    pub speeds: Vec<(Direction, Option<SpeedChange>)>,
    /// Each direction's instructions per input byte, judged exactly, where both runs
    /// counted them and they compare.
    pub instructions: Vec<(Direction, InstructionChange)>,
    /// Why instructions both runs counted were not judged: another architecture, or
    /// another library version.
    pub instructions_not_judged: Option<String>,
}

impl Row {
    /// Whether the size changed; for a probe row, also whether the server now sends
    /// another `Content-Encoding`.
    pub(crate) fn size_drift(&self) -> bool {
        let other_coding = matches!(self.key, RowKey::Probe(_))
            && self.versions.as_ref().is_some_and(|(b, c)| b != c);
        self.baseline_bytes != self.candidate_bytes || other_coding
    }

    /// Whether any direction regressed.
    pub(crate) fn regressed(&self) -> bool {
        self.has_verdict(Verdict::Regressed)
    }

    /// Whether any direction's instructions grew beyond the threshold.
    pub(crate) fn instructions_regressed(&self) -> bool {
        self.instructions
            .iter()
            .any(|(_, change)| change.verdict == Verdict::Regressed)
    }

    /// Whether any direction got `verdict`.
    pub(crate) fn has_verdict(&self, verdict: Verdict) -> bool {
        self.speeds
            .iter()
            .any(|(_, s)| s.as_ref().is_some_and(|s| s.verdict == verdict))
    }

    /// The change in `direction`, if measured in both runs.
    pub(crate) fn speed(&self, direction: Direction) -> Option<&SpeedChange> {
        self.speeds
            .iter()
            .find(|(d, _)| *d == direction)
            .and_then(|(_, s)| s.as_ref())
    }
}

/// A reason a comparison fails the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FailReason {
    /// Results that failed in the candidate.
    Failed,
    /// Results the baseline has and the candidate lacks (unless allowed).
    Missing,
    /// Cells whose compressed size changed (unless allowed).
    SizeDrift,
    /// Results judged slower beyond the threshold.
    Regressed,
    /// With `--absolute`: machine-level slowdowns.
    MachineSlowdown,
    /// With `--strict`: speeds whose verdict is inconclusive.
    Inconclusive,
    /// Cells whose instructions per byte grew beyond the instruction threshold.
    MoreInstructions,
}

/// A result that failed in the candidate, with the reason it gave.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Failed {
    /// Which cell.
    pub key: RowKey,
    /// Why, as the candidate recorded it.
    pub reason: String,
}
