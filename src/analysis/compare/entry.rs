//! Matching the results of two runs, written once for every kind: a codec cell, an
//! HTTP encoding and a probe row are each an [`Entry`].

use std::collections::HashMap;
use std::hash::Hash;

use anyhow::{bail, Result};

use super::comparison::Comparison;
use super::direction::Direction;
use super::judge::{measure_change, speed_against, AbsoluteChange, Against};
use super::options::{CompareOptions, SpeedBasis};
use super::row::{Failed, Row, RowKey, SpeedChange};
use crate::results::probe::ProbeCell;
use crate::results::{HttpCell, Instructions, RunCell, Statistic, Timing};
use crate::vocab::CellId;
use crate::vocab::CodecKind;
use crate::vocab::Encoding;

/// What `compare` needs of one result.
pub(super) trait Entry {
    /// What it measures apart from its payload and load: what the reference is.
    type Id: PartialEq + Copy + std::fmt::Display;

    /// Whether its times are judged by their low quantile when there are samples enough
    /// (codec cells), or always by the median (HTTP latencies, whose first response on a
    /// shaped link rides the token bucket's full burst and is no guide to the rest).
    const LOW_QUANTILE: bool;

    /// The reference's identity for `--normalize-to CODEC:LEVEL`.
    fn reference_id(codec: CodecKind, level: i32) -> Self::Id;
    /// Its identity.
    fn id(&self) -> Self::Id;
    /// Its key, for rows and messages.
    fn row_key(&self) -> RowKey;
    /// What identifies it across runs.
    type Key: Eq + Hash;
    /// Its identity across runs: two results with one key are the same result.
    fn key(&self) -> &Self::Key;
    /// The payload (and load) it was measured on: results of one context can be each
    /// other's reference.
    fn context(&self) -> (&str, &str);
    /// Whether `other` is the same result in another run.
    fn same(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
    /// The payload's name.
    fn payload(&self) -> &str;
    /// Uncompressed bytes.
    fn input_bytes(&self) -> u64;
    /// Compressed or body bytes.
    fn size(&self) -> u64;
    /// What it ran: the library's version for cells, the `Content-Encoding` sent for
    /// probe rows.
    fn version(&self) -> Option<&str>;
    /// Why it failed, if it did.
    fn failure(&self) -> Option<&str>;
    /// Its timings, by direction.
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)>;
    /// Its instructions per call, where counted (codec cells only).
    fn instructions(&self) -> Option<Instructions<'_>> {
        None
    }
}

impl Entry for RunCell<'_> {
    type Id = CellId;
    const LOW_QUANTILE: bool = true;

    fn reference_id(codec: CodecKind, level: i32) -> CellId {
        CellId::reference(codec, level)
    }
    fn id(&self) -> CellId {
        self.key.id
    }
    fn row_key(&self) -> RowKey {
        RowKey::Cell(self.key.clone())
    }
    type Key = crate::results::CellKey;
    fn key(&self) -> &Self::Key {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.payload, "")
    }
    fn payload(&self) -> &str {
        &self.key.payload
    }
    fn input_bytes(&self) -> u64 {
        RunCell::input_bytes(self)
    }
    fn size(&self) -> u64 {
        self.cell.compressed_bytes
    }
    fn version(&self) -> Option<&str> {
        Some(&self.cell.version)
    }
    fn failure(&self) -> Option<&str> {
        RunCell::failure(self)
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![
            (Direction::Compress, self.compress()),
            (Direction::Decompress, self.decompress()),
        ]
    }
    fn instructions(&self) -> Option<Instructions<'_>> {
        RunCell::instructions(self)
    }
}

impl Entry for HttpCell<'_> {
    type Id = Encoding;
    const LOW_QUANTILE: bool = false;

    fn reference_id(codec: CodecKind, level: i32) -> Encoding {
        Encoding::of(codec, level)
    }
    fn id(&self) -> Encoding {
        self.key.encoding
    }
    fn row_key(&self) -> RowKey {
        RowKey::Http(self.key.clone())
    }
    type Key = crate::results::HttpKey;
    fn key(&self) -> &Self::Key {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.payload, &self.key.load)
    }
    fn payload(&self) -> &str {
        &self.key.payload
    }
    fn input_bytes(&self) -> u64 {
        self.payload.input_bytes
    }
    fn size(&self) -> u64 {
        self.body_bytes()
    }
    fn version(&self) -> Option<&str> {
        None
    }
    fn failure(&self) -> Option<&str> {
        None
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![(Direction::HttpLatency, Some(self.latency()))]
    }
}

/// A probe row's part in normalisation: each URL's `identity` request is the reference
/// of its other rows, whatever `--normalize-to` names, as a live server need not send
/// any one coding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProbeRole {
    /// The `Accept-Encoding: identity` request.
    Identity,
    /// Any other request.
    Other,
}

impl std::fmt::Display for ProbeRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProbeRole::Identity => "identity request",
            ProbeRole::Other => "request",
        })
    }
}

impl Entry for ProbeCell<'_> {
    type Id = ProbeRole;
    const LOW_QUANTILE: bool = false;

    fn reference_id(_: CodecKind, _: i32) -> ProbeRole {
        ProbeRole::Identity
    }
    fn id(&self) -> ProbeRole {
        if self.key.is_identity() {
            ProbeRole::Identity
        } else {
            ProbeRole::Other
        }
    }
    fn row_key(&self) -> RowKey {
        RowKey::Probe(self.key.clone())
    }
    type Key = crate::results::probe::ProbeKey;
    fn key(&self) -> &Self::Key {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.url, "")
    }
    fn payload(&self) -> &str {
        &self.key.url
    }
    fn input_bytes(&self) -> u64 {
        ProbeCell::input_bytes(self)
    }
    fn size(&self) -> u64 {
        self.body_bytes()
    }
    fn version(&self) -> Option<&str> {
        Some(&self.row.encoding)
    }
    fn failure(&self) -> Option<&str> {
        self.row.failure.as_deref()
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![(Direction::HttpLatency, Some(self.latency()))]
    }
}

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
