//! Comparing two saved runs of the same kind: exact sizes, failures, missing results,
//! and speeds judged against a threshold and the runs' own noise.
//!
//! Sizes are deterministic for a given payload, library, variant and level, so any
//! difference is a drift in a library or in the payload generator. A cell that failed in
//! the candidate, or a baseline cell the candidate lacks, fails the comparison: a gate
//! must not pass what it could not check.
//!
//! Speeds are compared by default as *shapes*: each cell's throughput is divided by the
//! same run's reference cell on the same payload, which is exactly `--normalize-to`'s
//! codec and level with a fresh encoder from the library servers run (libzstd, fresh,
//! zstd 1 by default); a dictionary, reused-encoder or Rust-port cell is never taken for
//! it. `--absolute` compares raw MB/s instead, for runs on the same kind of machine.
//!
//! A speed change is a regression only when it is larger than the threshold *and* larger
//! than the noise. The noise has two parts, added in quadrature:
//!
//! - **within cells:** each median's standard error from its own samples (see
//!   [`crate::stats::median_relative_standard_error`]), for both runs and, with
//!   normalisation, for both reference cells. Runs read from CSV carry no samples.
//! - **between cells:** on a shared machine the speed drifts between one cell and the
//!   next, in slow and fast periods that last longer than a cell, which the samples of one
//!   cell cannot show. With at least [`MIN_CELLS_FOR_SPREAD`] other cells on the same
//!   payload and direction, the standard deviation of their log changes is a further
//!   standard error; the cell being judged is left out of it.
//!
//! The band is `z` of these combined standard errors, where `z` = Φ⁻¹(1 − α/m): a
//! Bonferroni correction over the m speeds compared, for a 5% chance
//! ([`FAMILY_ERROR_RATE`]) that noise alone flags anything.
//!
//! With normalisation, the reference's own drift moves every other cell alike, so the
//! median log change of the other cells is taken as that drift and removed before
//! judging. What normalisation hides is then reported on its own ([`MachineChange`]):
//! the reference's absolute change and the change shared by all cells, each with its
//! noise band. They warn by default and fail with `--absolute`.
//!
//! Results of `codecbench http` compare the same way: each encoding's body size must
//! match exactly, and its p50 latency is judged as a speed (uncompressed bytes delivered
//! per second of p50), normalised to the same run's reference encoding (`zstd:1`) under
//! the same payload and load.
//!
//! Results of `codecbench probe` compare as `http`'s do, row by URL and `Accept-Encoding`:
//! the body size exactly (so a change of what the server sends fails), the p50 time to
//! the last byte as a speed, normalised to the same probe's `identity` request of the
//! same URL.

mod entry;
#[cfg(test)]
mod http_tests;
mod judge;
#[cfg(test)]
mod tests;

use anyhow::{bail, Result};
use serde::Serialize;

use crate::codec::CodecKind;
use crate::results::probe::ProbeKey;
use crate::results::{CellKey, HttpKey, LoadedRun, Results};
use entry::Entry;
pub use judge::{Drift, MachineChange, SpeedChange, Verdict, MIN_CELLS_FOR_SPREAD};

/// The chance, across a whole comparison, that noise alone flags any cell.
pub const FAMILY_ERROR_RATE: f64 = 0.05;

/// What speeds are compared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SpeedBasis {
    /// Relative to the same run's reference cell: this codec at this level, fresh, from
    /// the library servers run, on the same payload.
    Normalized {
        /// Reference codec.
        codec: CodecKind,
        /// Reference level.
        level: i32,
    },
    /// Raw MB/s.
    Absolute,
}

/// Parses a reference written `CODEC:LEVEL`: `zstd:1`, `brotli:4` or `br:4`, `gzip:1`.
pub fn parse_reference(text: &str) -> Result<(CodecKind, i32)> {
    let Some((codec, level)) = text.split_once(':') else {
        bail!("--normalize-to '{text}' must look like CODEC:LEVEL, e.g. zstd:1");
    };
    let codec = match codec.trim() {
        "br" => CodecKind::Brotli,
        name => match name.parse() {
            Ok(codec) => codec,
            Err(why) => bail!("--normalize-to '{text}': {why}"),
        },
    };
    let Ok(level) = level.trim().parse() else {
        bail!("--normalize-to '{text}': '{level}' is not an integer level");
    };
    Ok((codec, level))
}

/// Settings of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Smallest relative change that counts, e.g. 0.10 for 10%.
    pub threshold: f64,
    /// Normalised or absolute speeds.
    pub basis: SpeedBasis,
    /// Report size drifts without failing.
    pub allow_size_drift: bool,
    /// Report baseline results missing from the candidate without failing.
    pub allow_missing: bool,
    /// Fail on inconclusive speeds too.
    pub strict: bool,
}

/// Which result a row is about.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RowKey {
    /// A cell of `run`.
    Cell(CellKey),
    /// An encoding of `http`.
    Http(HttpKey),
    /// A URL and `Accept-Encoding` of `probe`.
    Probe(ProbeKey),
}

impl RowKey {
    /// The payload it was measured on; a probe row's URL.
    pub fn payload(&self) -> &str {
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

/// One speed's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Compression.
    Compress,
    /// Decompression.
    Decompress,
    /// An HTTP response, request to last byte.
    HttpLatency,
}

impl Direction {
    /// For summaries.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Compress => "compress",
            Direction::Decompress => "decompress",
            Direction::HttpLatency => "http latency",
        }
    }
}

/// One result present in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
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
}

impl Row {
    /// Whether the size changed; for a probe row, also whether the server now sends
    /// another `Content-Encoding`.
    pub fn size_drift(&self) -> bool {
        let other_coding = matches!(self.key, RowKey::Probe(_))
            && self.versions.as_ref().is_some_and(|(b, c)| b != c);
        self.baseline_bytes != self.candidate_bytes || other_coding
    }

    /// Whether any direction regressed.
    pub fn regressed(&self) -> bool {
        self.has_verdict(Verdict::Regressed)
    }

    /// Whether any direction got `verdict`.
    pub fn has_verdict(&self, verdict: Verdict) -> bool {
        self.speeds
            .iter()
            .any(|(_, s)| s.as_ref().is_some_and(|s| s.verdict == verdict))
    }

    /// The change in `direction`, if measured in both runs.
    pub fn speed(&self, direction: Direction) -> Option<&SpeedChange> {
        self.speeds
            .iter()
            .find(|(d, _)| *d == direction)
            .and_then(|(_, s)| s.as_ref())
    }
}

/// A reason a comparison fails the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailReason {
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
}

/// A result that failed in the candidate, with the reason it gave.
#[derive(Clone, Debug, Serialize)]
pub struct Failed {
    /// Which cell.
    pub key: RowKey,
    /// Why, as the candidate recorded it.
    pub reason: String,
}

/// The outcome of comparing two runs.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
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
    pub fn size_drifts(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.size_drift())
    }

    /// Rows that regressed.
    pub fn regressions(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.regressed())
    }

    /// Rows with an inconclusive speed and none regressed.
    pub fn inconclusive(&self) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(|r| !r.regressed() && r.has_verdict(Verdict::Inconclusive))
    }

    /// Machine-level changes beyond threshold and noise.
    pub fn machine_changes(&self) -> impl Iterator<Item = &MachineChange> {
        self.machine.iter().filter(|m| m.flagged())
    }

    /// Each library whose version differs between the runs, as `(baseline, candidate)`
    /// with the library's name, once each.
    pub fn library_changes(&self) -> Vec<(String, String)> {
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
    pub fn failures(&self) -> Vec<(FailReason, usize)> {
        let machine_fails = self.basis == SpeedBasis::Absolute;
        let slower = self
            .machine_changes()
            .filter(|m| m.verdict == Verdict::Regressed)
            .count();
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
    pub fn failed(&self) -> bool {
        !self.failures().is_empty()
    }
}

/// Compares `candidate` against `baseline`. Runs of different kinds, or with no result
/// in common, are an error.
pub fn compare(
    baseline: &LoadedRun,
    candidate: &LoadedRun,
    options: &CompareOptions,
) -> Result<Comparison> {
    let mut comparison = Comparison {
        baseline: baseline.label.clone(),
        candidate: candidate.label.clone(),
        kind: "run",
        basis: options.basis,
        threshold: options.threshold,
        allow_size_drift: options.allow_size_drift,
        allow_missing: options.allow_missing,
        strict: options.strict,
        rows: Vec::new(),
        failed: Vec::new(),
        missing: Vec::new(),
        extra: Vec::new(),
        drifts: Vec::new(),
        machine: Vec::new(),
        z: 0.0,
        samples_for_a_verdict: 0,
    };
    let absolute = match (&baseline.results, &candidate.results) {
        (Results::Codec(base), Results::Codec(cand)) => {
            entry::match_up(base, cand, options, &mut comparison)?
        }
        (Results::Http(base), Results::Http(cand)) => {
            comparison.kind = "http";
            entry::match_up(base, cand, options, &mut comparison)?
        }
        (Results::Probe(base), Results::Probe(cand)) => {
            comparison.kind = "probe";
            entry::match_up(base, cand, options, &mut comparison)?
        }
        (base, cand) => bail!(
            "{} holds {} and {} holds {}: compare runs of the same kind",
            baseline.label,
            base.kind(),
            candidate.label,
            cand.kind()
        ),
    };
    if comparison.rows.is_empty() && comparison.failed.is_empty() {
        bail!(
            "{} and {} have no result in common ({} only in the baseline, {} only in the candidate): compare runs of the same payloads and settings",
            baseline.label,
            candidate.label,
            comparison.missing.len(),
            comparison.extra.len()
        );
    }
    judge::judge_all(&mut comparison, &absolute, options);
    Ok(comparison)
}

/// The reference's key type for an entry kind: what `--normalize-to` names.
fn reference_of<E: Entry>(options: &CompareOptions) -> Option<E::Id> {
    match options.basis {
        SpeedBasis::Normalized { codec, level } => Some(E::reference_id(codec, level)),
        SpeedBasis::Absolute => None,
    }
}
