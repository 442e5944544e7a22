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
//!   cell cannot show. With at least [`spread::MIN_CELLS_FOR_SPREAD`] other cells on the same
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

mod direction;
mod entry;
#[cfg(test)]
mod http_tests;
mod instructions;
mod judge;
mod row;
mod spread;
#[cfg(test)]
mod tests;
mod verdict;

use anyhow::{bail, Result};
use serde::Serialize;

use crate::results::{LoadedRun, Results};
use crate::vocab::CodecKind;
pub(crate) use direction::Direction;
use entry::Entry;
pub(crate) use judge::{Drift, MachineChange, SpeedChange};
pub(crate) use row::{FailReason, Failed, Row, RowKey};
pub(crate) use verdict::Verdict;

/// The chance, across a whole comparison, that noise alone flags any cell.
pub(crate) const FAMILY_ERROR_RATE: f64 = 0.05;

/// What speeds are compared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum SpeedBasis {
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
pub(crate) fn parse_reference(text: &str) -> Result<(CodecKind, i32)> {
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
pub(crate) struct CompareOptions {
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
    /// Largest relative growth of a cell's instructions per byte that passes, e.g.
    /// 0.01 for 1%.
    pub instructions_threshold: f64,
}

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

/// Compares `candidate` against `baseline`. Runs of different kinds, or with no result
/// in common, are an error.
pub(crate) fn compare(
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
        instructions_threshold: options.instructions_threshold,
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
    for row in &mut comparison.rows {
        instructions::judge_threshold(&mut row.instructions, options.instructions_threshold);
    }
    Ok(comparison)
}

/// The reference's key type for an entry kind: what `--normalize-to` names.
fn reference_of<E: Entry>(options: &CompareOptions) -> Option<E::Id> {
    match options.basis {
        SpeedBasis::Normalized { codec, level } => Some(E::reference_id(codec, level)),
        SpeedBasis::Absolute => None,
    }
}
