//! Matching two runs' results of one kind, and each direction's change judged against
//! its run's reference.

use std::collections::HashMap;

use anyhow::{bail, Result};

use super::comparison::Comparison;
use super::direction::Direction;
use super::entry::Entry;
use super::judge::{measure_change, speed_against, AbsoluteChange, Against};
use super::options::{CompareOptions, SpeedBasis};
use super::row::{Failed, Row, SpeedChange};
use crate::results::{Statistic, Timing};

/// Matches every baseline result with the candidate's, filling `out`'s rows, failures,
/// missing and extra results; returns every direction's absolute change, for the
/// machine-level report.
pub(super) fn match_up<'a, E: Entry>(
    baseline: &'a [E],
    candidate: &'a [E],
    options: &CompareOptions,
    out: &mut Comparison,
) -> Result<Vec<AbsoluteChange>> {
    let reference = reference_of::<E>(options);
    let mut absolute = Vec::new();
    for cand in candidate {
        if let Some(reason) = cand.failure() {
            out.failed.push(Failed {
                key: cand.row_key(),
                reason: reason.to_string(),
            });
        }
    }
    // Indexes, so that matching grows with the cells, not with their square.
    let by_key = |run: &'a [E]| -> HashMap<&'a E::Key, &'a E> {
        let mut index = HashMap::with_capacity(run.len());
        for entry in run {
            index.entry(entry.key()).or_insert(entry);
        }
        index
    };
    let (baseline_keys, candidate_keys) = (by_key(baseline), by_key(candidate));
    let runs = Pair {
        baseline: (&out.baseline, references(baseline, reference)),
        candidate: (&out.candidate, references(candidate, reference)),
        reference,
    };
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    for base in baseline {
        let Some(cand) = candidate_keys.get(base.key()) else {
            missing.push(base.row_key());
            continue;
        };
        if cand.failure().is_some() {
            continue; // listed above
        }
        rows.push(runs.row(base, cand, &mut absolute)?);
    }
    out.rows.extend(rows);
    out.missing.extend(missing);
    out.extra = candidate
        .iter()
        .filter(|c| !baseline_keys.contains_key(c.key()))
        .map(Entry::row_key)
        .collect();
    Ok(absolute)
}

/// Each context's reference result in `run` (the first with the reference's identity).
fn references<E: Entry>(run: &[E], reference: Option<E::Id>) -> HashMap<(&str, &str), &E> {
    let mut index = HashMap::new();
    for entry in run.iter().filter(|e| Some(e.id()) == reference) {
        index.entry(entry.context()).or_insert(entry);
    }
    index
}

/// Both runs, by label and results, and the reference's identity.
struct Pair<'a, E: Entry> {
    baseline: (&'a str, HashMap<(&'a str, &'a str), &'a E>),
    candidate: (&'a str, HashMap<(&'a str, &'a str), &'a E>),
    reference: Option<E::Id>,
}

impl<E: Entry> Pair<'_, E> {
    /// The row of `base` and its match `cand`, each direction's speeds compared; every
    /// absolute change goes to `absolute`.
    fn row(&self, base: &E, cand: &E, absolute: &mut Vec<AbsoluteChange>) -> Result<Row> {
        let is_reference = self.reference == Some(base.id());
        let mut speeds = Vec::new();
        for ((direction, b), (_, c)) in base.timings().into_iter().zip(cand.timings()) {
            let (Some(b), Some(c)) = (b, c) else {
                speeds.push((direction, None));
                continue;
            };
            if counted_only(base, &b) && counted_only(cand, &c) {
                // `--measure instructions` alone: one iteration, kept for the record only.
                speeds.push((direction, None));
                continue;
            }
            let absolute_statistic = statistic::<E>(&[b, c]);
            absolute.push(AbsoluteChange {
                payload: base.payload().to_string(),
                direction,
                is_reference,
                change: measure_change(
                    speed_against(&b, base.input_bytes(), Against::Nothing, absolute_statistic),
                    speed_against(&c, cand.input_bytes(), Against::Nothing, absolute_statistic),
                ),
            });
            let change = self.change((base, b), (cand, c), direction)?;
            speeds.push((direction, change));
        }
        let (instructions, instructions_not_judged) = super::instructions::judge(
            base.instructions().as_ref(),
            cand.instructions().as_ref(),
            (base.input_bytes(), cand.input_bytes()),
            base.version().zip(cand.version()),
        );
        Ok(Row {
            key: base.row_key(),
            is_reference,
            instructions,
            instructions_not_judged,
            versions: base
                .version()
                .zip(cand.version())
                .map(|(b, c)| (b.to_string(), c.to_string())),
            baseline_bytes: base.size(),
            candidate_bytes: cand.size(),
            speeds,
        })
    }
}

impl<'a, E: Entry> Pair<'a, E> {
    /// `base`'s speed against `cand`'s in `direction`, each against what it is judged
    /// against (its run's reference, or nothing); `None` where either has no reference.
    fn change(
        &self,
        (base, b): (&E, Timing<'_>),
        (cand, c): (&E, Timing<'_>),
        direction: Direction,
    ) -> Result<Option<SpeedChange>> {
        let (label, run) = &self.baseline;
        let before = against(label, run, base, direction, self.reference)?;
        let (label, run) = &self.candidate;
        let after = against(label, run, cand, direction, self.reference)?;
        Ok(before.zip(after).map(|(before, after)| {
            let mut timings = vec![b, c];
            timings.extend([before, after].into_iter().filter_map(|a| match a {
                Against::Reference(t) => Some(t),
                Against::Nothing | Against::Itself => None,
            }));
            let statistic = statistic::<E>(&timings);
            let mut change = measure_change(
                speed_against(&b, base.input_bytes(), before, statistic),
                speed_against(&c, cand.input_bytes(), after, statistic),
            );
            change.samples = timings.iter().map(Timing::sample_count).min().unwrap_or(0);
            change.processes = timings.iter().map(|t| t.processes).min().flatten();
            change
        }))
    }
}

/// Whether `timing` is the single iteration of a run that counted instructions
/// (`--measure instructions` alone): no speed to judge.
fn counted_only<E: Entry>(entry: &E, timing: &Timing) -> bool {
    entry.instructions().is_some() && timing.sample_count() == 1
}

/// The statistic both sides of a change are judged by: see [`Entry::LOW_QUANTILE`] and
/// [`Statistic::common`].
fn statistic<E: Entry>(timings: &[Timing]) -> Statistic {
    if E::LOW_QUANTILE {
        Statistic::common(timings)
    } else {
        Statistic::Median
    }
}

/// What `entry`'s speed in `direction` is divided by on the comparison's basis: nothing,
/// itself (it is the reference), or the same run's reference on the same payload and
/// load. `None` when the reference lacks that timing (it failed, and is reported as
/// such).
fn against<'a, E: Entry>(
    label: &str,
    references: &HashMap<(&str, &str), &'a E>,
    entry: &E,
    direction: Direction,
    reference: Option<E::Id>,
) -> Result<Option<Against<'a>>> {
    let Some(reference_id) = reference else {
        return Ok(Some(Against::Nothing));
    };
    let Some(reference) = references.get(&entry.context()).copied() else {
        bail!(
            "{label} has no {reference_id} result beside {} to normalise to; measure it, or use --normalize-to or --absolute",
            entry.row_key()
        );
    };
    if reference.same(entry) {
        return Ok(Some(Against::Itself));
    }
    Ok(reference
        .timings()
        .into_iter()
        .find(|(d, _)| *d == direction)
        .and_then(|(_, t)| t)
        .map(Against::Reference))
}

/// The reference's key type for an entry kind: what `--normalize-to` names.
fn reference_of<E: Entry>(options: &CompareOptions) -> Option<E::Id> {
    match options.basis {
        SpeedBasis::Normalized { codec, level } => Some(E::reference_id(codec, level)),
        SpeedBasis::Absolute => None,
    }
}
