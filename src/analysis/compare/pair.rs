//! Two saved runs of one kind matched up and judged: the entry point of compare.

use anyhow::{bail, Result};

use super::{CompareOptions, Comparison};
use crate::results::{LoadedRun, Results};

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
        (Results::Codec { .. }, Results::Codec { .. }) => {
            let (base, cand) = (baseline.codec_cells(), candidate.codec_cells());
            super::matching::match_up(&base, &cand, options, &mut comparison)?
        }
        (Results::Http { .. }, Results::Http { .. }) => {
            comparison.kind = "http";
            let (base, cand) = (baseline.http_cells(), candidate.http_cells());
            super::matching::match_up(&base, &cand, options, &mut comparison)?
        }
        (Results::Probe { .. }, Results::Probe { .. }) => {
            comparison.kind = "probe";
            let (base, cand) = (baseline.probe_cells(), candidate.probe_cells());
            super::matching::match_up(&base, &cand, options, &mut comparison)?
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
    super::judge::judge_all(&mut comparison, &absolute, options);
    for row in &mut comparison.rows {
        super::instructions::judge_threshold(&mut row.instructions, options.instructions_threshold);
    }
    Ok(comparison)
}
