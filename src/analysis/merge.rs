//! Merging saved runs into one cross-machine view: a row per result, a column per run.
//!
//! Every kind of result merges the same way (see [`Mergeable`]): the first run that has a
//! result gives its row, each run's figures fill a column, and a speed is normalised to
//! the same run's reference in the same context.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use serde::Serialize;

use crate::results::probe::{ProbeCell, ProbeKey};
use crate::results::{CellKey, Cursor, HttpCell, HttpKey, LoadedRun, RunCell, Timing};
use crate::vocab::CodecKind;

/// One run's speeds for one setting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct RunSpeeds {
    /// Median compression MB/s (MB = 10^6 bytes).
    pub compress_mb_s: Option<f64>,
    /// Median decompression MB/s, in uncompressed bytes.
    pub decompress_mb_s: Option<f64>,
    /// Compression speed ÷ the same run's reference cell on the same payload.
    pub compress_normalized: Option<f64>,
    /// Decompression speed ÷ the same run's reference cell.
    pub decompress_normalized: Option<f64>,
}

/// One run's figures for one `http` encoding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct HttpFigures {
    /// Median latency in ms.
    pub p50_ms: f64,
    /// Requests per second.
    pub requests_per_s: f64,
    /// Bytes on the wire per response.
    pub wire_bytes: f64,
    /// The reference encoding's p50 ÷ this p50, in the same run, payload and load:
    /// above 1 is faster than the reference.
    pub speed_normalized: Option<f64>,
}

/// One run's figures for one `probe` row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ProbeFigures {
    /// What the server sent: its `Content-Encoding`, or `identity`.
    pub encoding: String,
    /// The body's bytes as sent.
    pub body_bytes: u64,
    /// Bytes on the wire per response.
    pub wire_bytes: f64,
    /// p50 time to the last byte, ms.
    pub p50_ms: f64,
    /// The same probe's identity request p50 for the URL ÷ this p50: above 1 is faster
    /// than sending it uncompressed.
    pub speed_normalized: Option<f64>,
}

/// One result across runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MergedRow<K, F> {
    /// Which result: a cell's payload and setting, an encoding's payload and load, a
    /// probe's URL and `Accept-Encoding`.
    #[serde(flatten)]
    pub key: K,
    /// Input ÷ compressed (or body) size, from the first run that has the result.
    pub ratio: f64,
    /// False when the runs disagree on the size (for probes, or on the encoding sent).
    pub sizes_agree: bool,
    /// One entry per run, in the order given; `None` where a run lacks the result.
    pub runs: Vec<Option<F>>,
}

/// One kind of result across runs, its rows in first-seen order.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum MergedTable {
    /// The cells of `run`.
    Codec(Vec<MergedRow<CellKey, RunSpeeds>>),
    /// The encodings of `http`.
    Http(Vec<MergedRow<HttpKey, HttpFigures>>),
    /// The rows of `probe`.
    Probe(Vec<MergedRow<ProbeKey, ProbeFigures>>),
}

/// Several runs side by side.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Merged {
    /// Each run's label.
    pub labels: Vec<String>,
    /// Each run's machine line, where known.
    pub machines: Vec<Option<String>>,
    /// The reference setting for normalised speeds, e.g. `zstd:1`.
    pub reference: String,
    /// One table per kind of result the runs hold, codec cells first, then `http`, then
    /// `probe`; an empty codec table when they hold nothing.
    pub tables: Vec<MergedTable>,
}

/// A kind of result that merges: how it is found in a run, told apart, sized, and
/// timed against its run's reference. compare's `Entry` does the same for judging.
trait Mergeable<'a>: Cursor + Sized {
    /// What one run shows for it.
    type Figures;
    /// The results of this kind in `run`, those that merge (a failed probe row does not).
    fn of(run: &'a LoadedRun) -> Vec<Self>;
    /// Whether `other` sent the same bytes.
    fn same_size(&self, other: &Self) -> bool {
        self.size() == other.size()
    }
    /// Its figures, against `reference` where its run has one.
    fn figures(&self, reference: Option<&Self>) -> Self::Figures;
}

impl<'a> Mergeable<'a> for RunCell<'a> {
    type Figures = RunSpeeds;
    fn of(run: &'a LoadedRun) -> Vec<Self> {
        run.codec_cells()
    }
    fn figures(&self, reference: Option<&Self>) -> RunSpeeds {
        let mb_s = |t: Option<Timing>| t.map(|t| t.mb_s(self.input_bytes()));
        let normalized = |t: Option<Timing>, r: Option<Timing>| Some(t?.relative_to(&r?));
        RunSpeeds {
            compress_mb_s: mb_s(self.compress()),
            decompress_mb_s: mb_s(self.decompress()),
            compress_normalized: normalized(self.compress(), reference.and_then(RunCell::compress)),
            decompress_normalized: normalized(
                self.decompress(),
                reference.and_then(RunCell::decompress),
            ),
        }
    }
}

impl<'a> Mergeable<'a> for HttpCell<'a> {
    type Figures = HttpFigures;
    fn of(run: &'a LoadedRun) -> Vec<Self> {
        run.http_cells()
    }
    fn figures(&self, reference: Option<&Self>) -> HttpFigures {
        HttpFigures {
            p50_ms: self.result.p50_ms,
            requests_per_s: self.result.requests_per_s,
            wire_bytes: self.result.wire_bytes,
            speed_normalized: reference.map(|r| self.latency().relative_to(&r.latency())),
        }
    }
}

impl<'a> Mergeable<'a> for ProbeCell<'a> {
    type Figures = ProbeFigures;
    fn of(run: &'a LoadedRun) -> Vec<Self> {
        let mut cells = run.probe_cells();
        cells.retain(|c| c.row.failure.is_none());
        cells
    }
    fn same_size(&self, other: &Self) -> bool {
        self.body_bytes() == other.body_bytes() && self.row.encoding == other.row.encoding
    }
    fn figures(&self, identity: Option<&Self>) -> ProbeFigures {
        ProbeFigures {
            encoding: self.row.encoding.clone(),
            body_bytes: self.body_bytes(),
            wire_bytes: self.row.wire_bytes,
            p50_ms: self.row.total_p50_ms,
            speed_normalized: identity.map(|i| self.latency().relative_to(&i.latency())),
        }
    }
}

/// The first of `items` for each key `key` gives (`None` leaves an item out): merging
/// looks results up here, so that it grows with the cells, not with their square.
fn first_by<'a, T, K: Hash + Eq>(
    items: &'a [T],
    key: impl Fn(&'a T) -> Option<K>,
) -> HashMap<K, &'a T> {
    let mut index = HashMap::with_capacity(items.len());
    for item in items {
        if let Some(k) = key(item) {
            index.entry(k).or_insert(item);
        }
    }
    index
}

/// Every result of kind `E` across `runs`, a row each, normalised to the reference
/// `codec` at `level` of the same run and context.
fn merge_kind<'a, E: Mergeable<'a>>(
    runs: &'a [LoadedRun],
    codec: CodecKind,
    level: i32,
) -> Vec<MergedRow<E::Key, E::Figures>> {
    let results: Vec<Vec<E>> = runs.iter().map(E::of).collect();
    let by_key: Vec<_> = results
        .iter()
        .map(|r| first_by(r, |e| Some(e.key())))
        .collect();
    let references: Vec<_> = results
        .iter()
        .map(|r| first_by(r, |e| e.is_reference(codec, level).then(|| e.context())))
        .collect();
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    for entry in results.iter().flatten() {
        let key = entry.key();
        if !seen.insert(key) {
            continue;
        }
        let found: Vec<Option<&E>> = by_key.iter().map(|i| i.get(key).copied()).collect();
        let runs = found
            .iter()
            .zip(&references)
            .map(|(found, references)| {
                let reference = |e: &E| references.get(&e.context()).copied();
                found.map(|e| e.figures(reference(e)))
            })
            .collect();
        rows.push(MergedRow {
            key: key.clone(),
            ratio: entry.ratio(),
            sizes_agree: found.iter().flatten().all(|e| e.same_size(entry)),
            runs,
        });
    }
    rows
}

/// Merges `runs`, normalising speeds to `reference_codec` at `reference_level`.
pub(crate) fn merge(
    runs: &[LoadedRun],
    reference_codec: CodecKind,
    reference_level: i32,
) -> Merged {
    let (codec, level) = (reference_codec, reference_level);
    let mut tables = Vec::new();
    let cells = merge_kind::<RunCell>(runs, codec, level);
    let http = merge_kind::<HttpCell>(runs, codec, level);
    let probe = merge_kind::<ProbeCell>(runs, codec, level);
    if !cells.is_empty() || (http.is_empty() && probe.is_empty()) {
        tables.push(MergedTable::Codec(cells));
    }
    if !http.is_empty() {
        tables.push(MergedTable::Http(http));
    }
    if !probe.is_empty() {
        tables.push(MergedTable::Probe(probe));
    }
    Merged {
        labels: runs.iter().map(|r| r.label.clone()).collect(),
        machines: runs.iter().map(LoadedRun::machine).collect(),
        reference: format!("{reference_codec}:{reference_level}"),
        tables,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{CellKey, FixtureCell};
    use crate::stats::Summary;

    fn cell(codec: &str, level: i32, bytes: u64, seconds: f64) -> FixtureCell {
        let timing = Summary::for_test(seconds, vec![]);
        let key = CellKey::new("small", codec, level);
        FixtureCell::new(key, 1_000_000, bytes, timing.clone(), timing)
    }

    #[test]
    fn rows_per_setting_columns_per_run() {
        let a = LoadedRun::of_cells(
            "a",
            vec![cell("zstd", 1, 100, 0.001), cell("gzip", 1, 200, 0.002)],
        );
        let b = LoadedRun::of_cells(
            "b",
            vec![cell("zstd", 1, 100, 0.0005), cell("brotli", 11, 50, 1.0)],
        );
        let merged = merge(&[a, b], crate::vocab::CodecKind::Zstd, 1);
        assert_eq!(merged.labels, ["a", "b"]);
        let [MergedTable::Codec(rows)] = merged.tables.as_slice() else {
            panic!("one codec table: {:?}", merged.tables);
        };
        assert_eq!(rows.len(), 3);
        let zstd = &rows[0];
        assert_eq!(zstd.ratio, 10_000.0);
        assert!(zstd.sizes_agree);
        let speeds_b = zstd.runs[1].as_ref().unwrap();
        assert_eq!(speeds_b.compress_mb_s, Some(2000.0));
        assert_eq!(speeds_b.compress_normalized, Some(1.0));
        let gzip = &rows[1];
        assert_eq!(
            gzip.runs[0].as_ref().unwrap().compress_normalized,
            Some(0.5)
        );
        assert!(gzip.runs[1].is_none());
        let brotli = &rows[2];
        assert!(brotli.runs[0].is_none());
        assert_eq!(
            brotli.runs[1].as_ref().unwrap().compress_normalized,
            Some(0.0005)
        );
    }
}
