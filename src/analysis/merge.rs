//! Merging saved runs into one cross-machine view: a row per setting, columns per run.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use serde::Serialize;

use crate::results::probe::ProbeCell;
use crate::results::{HttpCell, LoadedRun, RunCell, Timing};
use crate::vocab::CellId;
use crate::vocab::CodecKind;
use crate::vocab::Encoding;

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

/// One setting across runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MergedRow {
    /// Payload name.
    pub payload: String,
    /// Codec, library, variant and level.
    pub id: CellId,
    /// Input ÷ compressed size, from the first run that has the setting.
    pub ratio: f64,
    /// False when the runs disagree on the compressed size.
    pub sizes_agree: bool,
    /// One entry per run, in the order given; `None` where a run lacks the setting.
    pub runs: Vec<Option<RunSpeeds>>,
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

/// One `http` encoding across runs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MergedHttpRow {
    /// Payload name.
    pub payload: String,
    /// `zstd:1`, …, `identity`.
    pub encoding: Encoding,
    /// The load, e.g. `1 connection, 10 Mbit/s`.
    pub load: String,
    /// Input ÷ body size, from the first run that has the encoding.
    pub ratio: f64,
    /// False when the runs disagree on the body size.
    pub sizes_agree: bool,
    /// One entry per run, in the order given; `None` where a run lacks the encoding.
    pub runs: Vec<Option<HttpFigures>>,
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
    /// Settings in first-seen order.
    pub rows: Vec<MergedRow>,
    /// `http` encodings in first-seen order.
    pub http_rows: Vec<MergedHttpRow>,
    /// `probe` rows in first-seen order.
    pub probe_rows: Vec<MergedProbeRow>,
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

/// One URL and `Accept-Encoding` across probes.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MergedProbeRow {
    /// The URL.
    pub url: String,
    /// The `Accept-Encoding` sent.
    pub accept_encoding: String,
    /// Identity ÷ body size, from the first probe that has the row.
    pub ratio: f64,
    /// False when the probes disagree on the body's size or encoding.
    pub sizes_agree: bool,
    /// One entry per probe, in the order given; `None` where a probe lacks the row or
    /// the row failed.
    pub runs: Vec<Option<ProbeFigures>>,
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

/// Merges `runs`, normalising speeds to `reference_codec` at `reference_level`.
pub(crate) fn merge(
    runs: &[LoadedRun],
    reference_codec: CodecKind,
    reference_level: i32,
) -> Merged {
    let reference_id = CellId::reference(reference_codec, reference_level);
    let by_key: Vec<_> = runs
        .iter()
        .map(|r| first_by(r.codec_cells(), |c| Some(&c.key)))
        .collect();
    let references: Vec<_> = runs
        .iter()
        .map(|r| {
            first_by(r.codec_cells(), |c| {
                (c.key.id == reference_id).then_some(c.key.payload.as_str())
            })
        })
        .collect();
    let mut rows: Vec<MergedRow> = Vec::new();
    let mut seen = HashSet::new();
    for run in runs {
        for cell in run.codec_cells() {
            let k = &cell.key;
            if !seen.insert(k) {
                continue;
            }
            let cells: Vec<Option<&RunCell>> = by_key.iter().map(|i| i.get(k).copied()).collect();
            let sizes_agree = cells
                .iter()
                .flatten()
                .all(|c| c.compressed_bytes == cell.compressed_bytes);
            let speeds = references
                .iter()
                .zip(&cells)
                .map(|(references, found)| {
                    found.map(|c| speeds(c, references.get(k.payload.as_str()).copied()))
                })
                .collect();
            rows.push(MergedRow {
                payload: k.payload.clone(),
                id: k.id,
                ratio: cell.ratio(),
                sizes_agree,
                runs: speeds,
            });
        }
    }
    Merged {
        labels: runs.iter().map(|r| r.label.clone()).collect(),
        machines: runs.iter().map(|r| r.machine.clone()).collect(),
        reference: format!("{reference_codec}:{reference_level}"),
        rows,
        http_rows: merge_http(runs, reference_codec, reference_level),
        probe_rows: merge_probe(runs),
    }
}

/// Every probe row across `runs`, each timed against its own probe's identity request.
fn merge_probe(runs: &[LoadedRun]) -> Vec<MergedProbeRow> {
    let ok = |c: &ProbeCell| c.failure.is_none();
    let by_key: Vec<_> = runs
        .iter()
        .map(|r| first_by(r.probe_cells(), |c| ok(c).then_some(&c.key)))
        .collect();
    let identities: Vec<_> = runs
        .iter()
        .map(|r| {
            first_by(r.probe_cells(), |c| {
                (ok(c) && c.key.is_identity()).then_some(c.key.url.as_str())
            })
        })
        .collect();
    let mut rows: Vec<MergedProbeRow> = Vec::new();
    let mut seen = HashSet::new();
    for run in runs {
        for cell in run.probe_cells().iter().filter(|c| ok(c)) {
            let k = &cell.key;
            if !seen.insert(k) {
                continue;
            }
            let figures: Vec<Option<ProbeFigures>> = by_key
                .iter()
                .zip(&identities)
                .map(|(by_key, identities)| {
                    let found = by_key.get(k)?;
                    let identity = identities.get(k.url.as_str());
                    Some(ProbeFigures {
                        encoding: found.encoding.clone(),
                        body_bytes: found.body_bytes,
                        wire_bytes: found.wire_bytes,
                        p50_ms: found.latency.median_s * 1e3,
                        speed_normalized: identity.map(|i| found.latency.relative_to(&i.latency)),
                    })
                })
                .collect();
            rows.push(MergedProbeRow {
                url: k.url.clone(),
                accept_encoding: k.accept_encoding.clone(),
                ratio: cell.input_bytes as f64 / cell.body_bytes.max(1) as f64,
                sizes_agree: figures
                    .iter()
                    .flatten()
                    .all(|f| f.body_bytes == cell.body_bytes && f.encoding == cell.encoding),
                runs: figures,
            });
        }
    }
    rows
}

fn merge_http(
    runs: &[LoadedRun],
    reference_codec: CodecKind,
    reference_level: i32,
) -> Vec<MergedHttpRow> {
    let reference_encoding = Encoding::of(reference_codec, reference_level);
    let by_key: Vec<_> = runs
        .iter()
        .map(|r| first_by(r.http_cells(), |c| Some(&c.key)))
        .collect();
    let references: Vec<_> = runs
        .iter()
        .map(|r| {
            first_by(r.http_cells(), |c| {
                (c.key.encoding == reference_encoding)
                    .then_some((c.key.payload.as_str(), c.key.load.as_str()))
            })
        })
        .collect();
    let mut rows: Vec<MergedHttpRow> = Vec::new();
    let mut seen = HashSet::new();
    for run in runs {
        for cell in run.http_cells() {
            let k = &cell.key;
            if !seen.insert(k) {
                continue;
            }
            let cells: Vec<Option<&HttpCell>> = by_key.iter().map(|i| i.get(k).copied()).collect();
            let figures = references
                .iter()
                .zip(&cells)
                .map(|(references, found)| {
                    found.map(|c| {
                        let reference = references.get(&(k.payload.as_str(), k.load.as_str()));
                        HttpFigures {
                            p50_ms: c.latency.median_s * 1e3,
                            requests_per_s: c.requests_per_s,
                            wire_bytes: c.wire_bytes,
                            speed_normalized: reference.map(|r| c.latency.relative_to(&r.latency)),
                        }
                    })
                })
                .collect();
            rows.push(MergedHttpRow {
                payload: k.payload.clone(),
                encoding: k.encoding,
                load: k.load.clone(),
                ratio: cell.input_bytes as f64 / cell.body_bytes.max(1) as f64,
                sizes_agree: cells
                    .iter()
                    .flatten()
                    .all(|c| c.body_bytes == cell.body_bytes),
                runs: figures,
            });
        }
    }
    rows
}

fn speeds(cell: &RunCell, reference: Option<&RunCell>) -> RunSpeeds {
    let mb_s = |t: Option<&Timing>| t.map(|t| t.mb_s(cell.input_bytes));
    let normalized = |t: Option<&Timing>, r: Option<&Timing>| Some(t?.relative_to(r?));
    RunSpeeds {
        compress_mb_s: mb_s(cell.compress.as_ref()),
        decompress_mb_s: mb_s(cell.decompress.as_ref()),
        compress_normalized: normalized(
            cell.compress.as_ref(),
            reference.and_then(|r| r.compress.as_ref()),
        ),
        decompress_normalized: normalized(
            cell.decompress.as_ref(),
            reference.and_then(|r| r.decompress.as_ref()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::CellKey;

    fn cell(codec: &str, level: i32, bytes: u64, seconds: f64) -> RunCell {
        let timing = Timing::of(seconds, vec![]);
        let key = CellKey::new("small", codec, level);
        RunCell::for_test(key, 1_000_000, bytes, timing.clone(), timing)
    }

    #[test]
    fn rows_per_setting_columns_per_run() {
        let a = LoadedRun {
            label: "a".into(),
            machine: Some("A".into()),
            measured_on: None,
            results: crate::results::Results::Codec(vec![
                cell("zstd", 1, 100, 0.001),
                cell("gzip", 1, 200, 0.002),
            ]),
        };
        let b = LoadedRun {
            label: "b".into(),
            machine: None,
            measured_on: None,
            results: crate::results::Results::Codec(vec![
                cell("zstd", 1, 100, 0.0005),
                cell("brotli", 11, 50, 1.0),
            ]),
        };
        let merged = merge(&[a, b], crate::vocab::CodecKind::Zstd, 1);
        assert_eq!(merged.labels, ["a", "b"]);
        assert_eq!(merged.rows.len(), 3);
        let zstd = &merged.rows[0];
        assert_eq!(zstd.ratio, 10_000.0);
        assert!(zstd.sizes_agree);
        let speeds_b = zstd.runs[1].as_ref().unwrap();
        assert_eq!(speeds_b.compress_mb_s, Some(2000.0));
        assert_eq!(speeds_b.compress_normalized, Some(1.0));
        let gzip = &merged.rows[1];
        assert_eq!(
            gzip.runs[0].as_ref().unwrap().compress_normalized,
            Some(0.5)
        );
        assert!(gzip.runs[1].is_none());
        let brotli = &merged.rows[2];
        assert!(brotli.runs[0].is_none());
        assert_eq!(
            brotli.runs[1].as_ref().unwrap().compress_normalized,
            Some(0.0005)
        );
    }
}
