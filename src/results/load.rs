//! Reading saved runs back, from JSON (every sample) or CSV (medians only), for
//! `compare` and `merge`.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::codec::library_name;
use crate::http::{load_label, HttpReport, HTTP_KIND};
use crate::results::codec::{RunReport, SCHEMA_VERSION};
use crate::stats::{median, Summary};

/// Identifies a cell across runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct CellKey {
    /// Payload name.
    pub payload: String,
    /// `zstd`, `brotli` or `gzip`.
    pub codec: String,
    /// The library without its version, e.g. `libzstd`, so that runs before and after
    /// an upgrade match cell by cell.
    pub library: String,
    /// Codec level.
    pub level: i32,
}

impl std::fmt::Display for CellKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {} ({})",
            self.payload, self.codec, self.level, self.library
        )
    }
}

/// The timings of one direction of one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Median seconds per iteration.
    pub median_s: f64,
    /// Every timed sample in seconds; empty when the run was read from CSV.
    pub samples_s: Vec<f64>,
}

impl Timing {
    /// Median throughput for a body of `input_bytes`, in MB/s (MB = 10^6 bytes).
    pub fn mb_s(&self, input_bytes: u64) -> f64 {
        crate::stats::mb_per_s(input_bytes, self.median_s)
    }

    /// This speed as a multiple of `reference`'s on the same input: the inverse ratio
    /// of their median times.
    pub fn relative_to(&self, reference: &Timing) -> f64 {
        reference.median_s / self.median_s
    }

    /// Relative standard error of the median, estimated from the samples; `None` with
    /// fewer than 3 samples.
    ///
    /// The spread is the median absolute deviation scaled by 1.4826, which estimates the
    /// standard deviation robustly (a preempted iteration does not inflate it). The
    /// median's standard error is then about 1.2533 σ / √n (its asymptotic efficiency
    /// against the mean, √(π/2)). Both are textbook: Rousseeuw & Croux (1993) for the MAD,
    /// Kendall & Stuart for the median's variance.
    pub fn relative_standard_error(&self) -> Option<f64> {
        let n = self.samples_s.len();
        if n < 3 || self.median_s <= 0.0 {
            return None;
        }
        let mut deviations: Vec<f64> = self
            .samples_s
            .iter()
            .map(|s| (s - self.median_s).abs())
            .collect();
        let mad = median(&mut deviations);
        Some(1.2533 * 1.4826 * mad / self.median_s / (n as f64).sqrt())
    }
}

#[cfg(test)]
impl CellKey {
    /// A key for tests.
    pub(crate) fn new(payload: &str, codec: &str, library: &str, level: i32) -> Self {
        CellKey {
            payload: payload.into(),
            codec: codec.into(),
            library: library.into(),
            level,
        }
    }
}

#[cfg(test)]
impl Timing {
    /// A timing for tests with this median and these samples.
    pub(crate) fn of(median_s: f64, samples_s: Vec<f64>) -> Self {
        Timing {
            median_s,
            samples_s,
        }
    }
}

#[cfg(test)]
impl RunCell {
    /// A cell for tests; its implementation is the library at version 1.0.
    pub(crate) fn for_test(
        key: CellKey,
        input_bytes: u64,
        compressed_bytes: u64,
        compress: Timing,
        decompress: Timing,
    ) -> Self {
        RunCell {
            implementation: format!("{} 1.0", key.library),
            key,
            input_bytes,
            compressed_bytes,
            compress: Some(compress),
            decompress: Some(decompress),
        }
    }
}

/// One cell of a saved run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunCell {
    /// Which cell.
    pub key: CellKey,
    /// Library and version, e.g. `libzstd 1.5.7`.
    pub implementation: String,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// Compressed size.
    pub compressed_bytes: u64,
    /// Compression timings; `None` for a failed cell.
    pub compress: Option<Timing>,
    /// Decompression timings; `None` for a failed cell.
    pub decompress: Option<Timing>,
}

impl RunCell {
    /// Uncompressed ÷ compressed size.
    pub fn ratio(&self) -> f64 {
        self.input_bytes as f64 / self.compressed_bytes.max(1) as f64
    }
}

/// Identifies one encoding of an `http` run across runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct HttpKey {
    /// Payload name.
    pub payload: String,
    /// `zstd:1`, `br:4`, `gzip:1`, `identity` or `auto`.
    pub encoding: String,
    /// The load, e.g. `1 connection, 10 Mbit/s`: results under different loads do not
    /// match.
    pub load: String,
}

impl HttpKey {
    /// Whether this encoding is the reference `codec:level`; the codec may be named as
    /// `run` names it (`brotli`) or as HTTP does (`br`).
    pub fn is_reference(&self, codec: &str, level: i32) -> bool {
        let token = if codec == "brotli" { "br" } else { codec };
        self.encoding == format!("{token}:{level}")
    }
}

impl std::fmt::Display for HttpKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} over HTTP ({})",
            self.payload, self.encoding, self.load
        )
    }
}

/// One encoding of a saved `http` run.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpCell {
    /// Which encoding.
    pub key: HttpKey,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// The encoded body's size.
    pub body_bytes: u64,
    /// Bytes on the wire per response, headers included (mean).
    pub wire_bytes: f64,
    /// Requests per second over the whole load.
    pub requests_per_s: f64,
    /// Latency: the median is the p50; the samples are every response's (JSON only).
    pub latency: Timing,
}

impl HttpCell {
    /// Uncompressed size delivered per second of p50 latency, in MB/s: the speed that
    /// `compare` judges, higher being better like its codec speeds.
    pub fn delivered_mb_s(&self) -> f64 {
        self.latency.mb_s(self.input_bytes)
    }
}

/// A saved run: the cells of `run`, or the encodings of `http`.
#[derive(Clone, Debug)]
pub struct LoadedRun {
    /// A short name: the file name.
    pub label: String,
    /// The machine line from the JSON environment; `None` for CSV.
    pub machine: Option<String>,
    /// Cells in file order; empty for an `http` run.
    pub cells: Vec<RunCell>,
    /// Encodings in file order; empty for a `run` run.
    pub http: Vec<HttpCell>,
}

impl LoadedRun {
    /// A run just measured, under `label`.
    pub fn from_report(report: &RunReport, label: &str) -> Self {
        LoadedRun {
            label: label.to_string(),
            machine: Some(report.environment.machine()),
            cells: cells_of(report),
            http: Vec::new(),
        }
    }

    /// The cell with this key, if the run has it.
    pub fn cell(&self, key: &CellKey) -> Option<&RunCell> {
        self.cells.iter().find(|c| &c.key == key)
    }

    /// The HTTP encoding with this key, if the run has it.
    pub fn http_cell(&self, key: &HttpKey) -> Option<&HttpCell> {
        self.http.iter().find(|c| &c.key == key)
    }

    /// The encoding `codec:level` measured on `key`'s payload under `key`'s load: what
    /// `key`'s speed is normalised to.
    pub fn http_reference(&self, key: &HttpKey, codec: &str, level: i32) -> Option<&HttpCell> {
        self.http.iter().find(|r| {
            r.key.payload == key.payload
                && r.key.load == key.load
                && r.key.is_reference(codec, level)
        })
    }

    /// Fails unless the run holds codec cells: for the commands that analyse `run`'s
    /// results only.
    pub fn require_cells(&self) -> Result<()> {
        if self.cells.is_empty() {
            bail!(
                "{} holds HTTP results from `codecbench http`; this command reads runs from `codecbench run`",
                self.label
            );
        }
        Ok(())
    }

    /// The first cell of `payload` with this codec and level, whatever its implementation.
    pub fn find(&self, payload: &str, codec: &str, level: i32) -> Option<&RunCell> {
        self.cells
            .iter()
            .find(|c| c.key.payload == payload && c.key.codec == codec && c.key.level == level)
    }
}

/// Reads a run saved by `run --json` or `run --csv`; the format is told by the content.
pub fn load(path: &Path) -> Result<LoadedRun> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let label = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse(&bytes, &label, &path.display().to_string())
}

/// Parses a saved run from `bytes`, calling it `label`; errors name it `source`. Any
/// bytes give a run or an error, never a panic (a property test feeds it garbage).
pub fn parse(bytes: &[u8], label: &str, source: &str) -> Result<LoadedRun> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    let (machine, cells, http) = match first {
        None => bail!("{source} is empty"),
        Some(b'{') => from_json(bytes)
            .with_context(|| format!("{source} is not a valid codecbench JSON run"))?,
        Some(_) => {
            let (cells, http) = from_csv(bytes)
                .with_context(|| format!("{source} is not a valid codecbench CSV run"))?;
            (None, cells, http)
        }
    };
    if cells.is_empty() && http.is_empty() {
        bail!("{source} holds no cells");
    }
    Ok(LoadedRun {
        label: label.to_string(),
        machine,
        cells,
        http,
    })
}

type Parsed = (Option<String>, Vec<RunCell>, Vec<HttpCell>);

fn from_json(bytes: &[u8]) -> Result<Parsed> {
    let value: serde_json::Value = serde_json::from_slice(bytes)?;
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(version) if version == u64::from(SCHEMA_VERSION) => {}
        Some(version) => bail!(
            "schema_version {version} is not supported (this codecbench reads {SCHEMA_VERSION})"
        ),
        None => bail!("no schema_version"),
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some(HTTP_KIND) {
        let report: HttpReport = serde_json::from_value(value)?;
        return Ok((
            Some(report.environment.machine()),
            Vec::new(),
            http_cells_of(&report),
        ));
    }
    let report: RunReport = serde_json::from_value(value)?;
    Ok((
        Some(report.environment.machine()),
        cells_of(&report),
        Vec::new(),
    ))
}

/// Every encoding of an `http` report.
fn http_cells_of(report: &HttpReport) -> Vec<HttpCell> {
    let load = load_label(report.load.concurrency, report.load.bandwidth_mbit);
    let mut cells = Vec::new();
    for payload in &report.payloads {
        for result in &payload.encodings {
            cells.push(HttpCell {
                key: HttpKey {
                    payload: payload.payload.clone(),
                    encoding: result.encoding.clone(),
                    load: load.clone(),
                },
                input_bytes: payload.input_bytes,
                body_bytes: result.body_bytes.round() as u64,
                wire_bytes: result.wire_bytes,
                requests_per_s: result.requests_per_s,
                latency: Timing {
                    median_s: result.p50_ms / 1e3,
                    samples_s: result.latencies_ms.iter().map(|ms| ms / 1e3).collect(),
                },
            });
        }
    }
    cells
}

/// Every cell of `report`, as runs read from files have them.
fn cells_of(report: &RunReport) -> Vec<RunCell> {
    let timing = |summary: &Option<Summary>| {
        summary.as_ref().map(|s| Timing {
            median_s: s.median_s,
            samples_s: s.samples_s.clone(),
        })
    };
    let mut cells = Vec::new();
    for payload in &report.payloads {
        for cell in &payload.cells {
            cells.push(RunCell {
                key: CellKey {
                    payload: payload.payload.clone(),
                    codec: cell.codec.clone(),
                    library: library_name(&cell.implementation).to_string(),
                    level: cell.level,
                },
                implementation: cell.implementation.clone(),
                input_bytes: payload.input_bytes,
                compressed_bytes: cell.compressed_bytes,
                compress: timing(&cell.compress),
                decompress: timing(&cell.decompress),
            });
        }
    }
    cells
}

fn from_csv(bytes: &[u8]) -> Result<(Vec<RunCell>, Vec<HttpCell>)> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = reader.headers()?.clone();
    if headers.iter().any(|h| h.starts_with("http_")) {
        return Ok((Vec::new(), http_from_csv(reader, &headers)?));
    }
    let column = |name: &str| column(&headers, name);
    let payload = column("payload")?;
    let input = column("input_bytes")?;
    let codec = column("codec")?;
    let implementation = column("implementation")?;
    let level = column("level")?;
    let compressed = column("compressed_bytes")?;
    let compress_ms = column("compress_median_ms")?;
    let decompress_ms = column("decompress_median_ms")?;

    let mut cells = Vec::new();
    for (index, record) in reader.records().enumerate() {
        // Line 1 is the header.
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        let field = |i: usize| record.get(i).unwrap_or("");
        let number = |i: usize| number(&record, &headers, line, i);
        let timing = |i: usize| -> Result<Option<Timing>> {
            if field(i).is_empty() {
                return Ok(None);
            }
            Ok(Some(Timing {
                median_s: number(i)? / 1e3,
                samples_s: Vec::new(),
            }))
        };
        cells.push(RunCell {
            key: CellKey {
                payload: field(payload).to_string(),
                codec: field(codec).to_string(),
                library: library_name(field(implementation)).to_string(),
                level: field(level).parse().with_context(|| {
                    format!("line {line}: level '{}' is not an integer", field(level))
                })?,
            },
            implementation: field(implementation).to_string(),
            input_bytes: number(input)? as u64,
            compressed_bytes: number(compressed)? as u64,
            compress: timing(compress_ms)?,
            decompress: timing(decompress_ms)?,
        });
    }
    Ok((cells, Vec::new()))
}

/// The index of the column called `name`.
fn column(headers: &csv::StringRecord, name: &str) -> Result<usize> {
    headers
        .iter()
        .position(|h| h == name)
        .with_context(|| format!("no column named {name}"))
}

/// Field `i` of `record` (on `line`) as a number.
fn number(
    record: &csv::StringRecord,
    headers: &csv::StringRecord,
    line: usize,
    i: usize,
) -> Result<f64> {
    let field = record.get(i).unwrap_or("");
    let value: f64 = field.parse().with_context(|| {
        format!(
            "line {line}: '{field}' in column {} is not a number",
            &headers[i]
        )
    })?;
    if !value.is_finite() {
        bail!(
            "line {line}: '{field}' in column {} is not finite",
            &headers[i]
        );
    }
    Ok(value)
}

/// The encodings of a CSV written by `http --csv`: medians only, no samples.
fn http_from_csv(
    mut reader: csv::Reader<&[u8]>,
    headers: &csv::StringRecord,
) -> Result<Vec<HttpCell>> {
    let payload = column(headers, "payload")?;
    let input = column(headers, "input_bytes")?;
    let encoding = column(headers, "http_encoding")?;
    let concurrency = column(headers, "http_concurrency")?;
    let bandwidth = column(headers, "http_bandwidth_mbit")?;
    let requests_per_s = column(headers, "http_requests_per_s")?;
    let p50 = column(headers, "http_p50_ms")?;
    let wire = column(headers, "http_wire_bytes")?;
    let body = column(headers, "http_body_bytes")?;
    let mut cells = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        let field = |i: usize| record.get(i).unwrap_or("");
        let number = |i: usize| number(&record, headers, line, i);
        let bandwidth_mbit = match field(bandwidth) {
            "" => None,
            _ => Some(number(bandwidth)?),
        };
        cells.push(HttpCell {
            key: HttpKey {
                payload: field(payload).to_string(),
                encoding: field(encoding).to_string(),
                load: load_label(number(concurrency)? as usize, bandwidth_mbit),
            },
            input_bytes: number(input)? as u64,
            body_bytes: number(body)?.round() as u64,
            wire_bytes: number(wire)?,
            requests_per_s: number(requests_per_s)?,
            latency: Timing {
                median_s: number(p50)? / 1e3,
                samples_s: Vec::new(),
            },
        });
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_error_of_the_median_from_the_mad() {
        let timing = Timing {
            median_s: 10.0,
            samples_s: vec![9.0, 10.0, 11.0, 10.0, 10.0, 9.0, 11.0, 10.0, 10.0],
        };
        // Deviations 1,0,1,0,0,1,1,0,0: MAD 0.
        assert_eq!(timing.relative_standard_error(), Some(0.0));
        let timing = Timing {
            median_s: 10.0,
            samples_s: vec![8.0, 12.0, 10.0, 9.0, 11.0],
        };
        // Deviations 2,2,0,1,1: MAD 1.
        let se = timing.relative_standard_error().unwrap();
        assert!((se - 1.2533 * 1.4826 * 0.1 / 5f64.sqrt()).abs() < 1e-12);
        let few = Timing {
            median_s: 1.0,
            samples_s: vec![1.0, 2.0],
        };
        assert_eq!(few.relative_standard_error(), None);
    }

    #[test]
    fn csv_and_json_of_one_report_load_to_the_same_sizes_and_medians() {
        let report = crate::export::fixtures::report();
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("a.json");
        let csv = dir.path().join("a.csv");
        std::fs::write(&json, crate::export::json::render(&report)).unwrap();
        std::fs::write(&csv, crate::export::csv::render(&report)).unwrap();
        let from_json = load(&json).unwrap();
        let from_csv = load(&csv).unwrap();
        assert_eq!(from_json.label, "a.json");
        assert_eq!(from_json.cells.len(), 4);
        assert_eq!(from_csv.machine, None);
        for (j, c) in from_json.cells.iter().zip(&from_csv.cells) {
            assert_eq!(j.key, c.key);
            assert_eq!(j.compressed_bytes, c.compressed_bytes);
            if let (Some(jt), Some(ct)) = (&j.compress, &c.compress) {
                assert!((jt.median_s - ct.median_s).abs() < 1e-9);
                assert_eq!(jt.samples_s.len(), 3);
                assert!(ct.samples_s.is_empty());
            }
        }
    }

    #[test]
    fn http_runs_load_from_json_and_csv() {
        let report = crate::export::http::fixtures::report();
        let json = parse(
            &crate::export::http::render_json(&report, None),
            "h.json",
            "h.json",
        )
        .unwrap();
        let csv = parse(
            &crate::export::http::render_csv(&report, None),
            "h.csv",
            "h.csv",
        )
        .unwrap();
        assert!(json.cells.is_empty() && csv.cells.is_empty());
        assert!(json.require_cells().is_err());
        assert_eq!(json.http.len(), 3);
        for (j, c) in json.http.iter().zip(&csv.http) {
            assert_eq!(j.key, c.key);
            assert_eq!(j.body_bytes, c.body_bytes);
            assert!((j.latency.median_s - c.latency.median_s).abs() < 1e-12);
        }
        let zstd = &json.http[0];
        assert_eq!(
            zstd.key.to_string(),
            "small zstd:1 over HTTP (1 connection, 10 Mbit/s)"
        );
        assert_eq!(zstd.body_bytes, 41_132);
        assert_eq!(zstd.latency.samples_s.len(), 5);
        assert!((zstd.latency.median_s - 0.0328).abs() < 1e-12);
        assert!(csv.http[0].latency.samples_s.is_empty());

        let mut bad = String::from_utf8(crate::export::http::render_csv(&report, None)).unwrap();
        bad = bad.replacen(",32.8,", ",fast,", 1);
        let message = format!("{:#}", parse(bad.as_bytes(), "b", "b.csv").unwrap_err());
        assert!(
            message.contains("'fast' in column http_p50_ms is not a number"),
            "{message}"
        );
    }

    mod garbage {
        use super::super::parse;
        use proptest::prelude::*;

        const JSON: &[u8] = include_bytes!("../../tests/fixtures/base.json");
        const CSV: &[u8] = include_bytes!("../../tests/fixtures/base.csv");
        const HTTP_JSON: &[u8] = include_bytes!("../../tests/fixtures/http.json");
        const HTTP_CSV: &[u8] = include_bytes!("../../tests/fixtures/http.csv");

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn arbitrary_bytes_give_a_run_or_an_error(
                bytes in proptest::collection::vec(any::<u8>(), 0..4096)
            ) {
                let _ = parse(&bytes, "garbage", "garbage");
            }

            #[test]
            fn damaged_runs_give_a_run_or_an_error(
                which in 0usize..4,
                cut in 0.0f64..=1.0,
                flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..16),
            ) {
                let original = [JSON, CSV, HTTP_JSON, HTTP_CSV][which];
                let mut bytes = original[..(original.len() as f64 * cut) as usize].to_vec();
                for (at, byte) in flips {
                    if !bytes.is_empty() {
                        let index = (at * bytes.len() as f64) as usize % bytes.len();
                        bytes[index] = byte;
                    }
                }
                // A run of either kind holds at least one result of that kind.
                if let Ok(run) = parse(&bytes, "damaged", "damaged") {
                    prop_assert!(!run.cells.is_empty() || !run.http.is_empty());
                }
            }
        }
    }

    #[test]
    fn malformed_runs_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let cases = [
            (write("empty.json", "  "), "empty"),
            (
                write("cut.json", "{\"schema_version\": 1, \"environ"),
                "not a valid",
            ),
            (
                write("future.json", "{\"schema_version\": 9}"),
                "schema_version 9",
            ),
            (
                write("bad.csv", "payload,codec\nsmall,zstd\n"),
                "no column named",
            ),
            (
                write(
                    "nan.csv",
                    &format!(
                        "{}\nsmall,x,zstd,l,1,{}\n",
                        crate::export::csv::COLUMNS.join(","),
                        // The remaining columns, all plausible.
                        vec!["1"; crate::export::csv::COLUMNS.len() - 5].join(",")
                    ),
                ),
                "not a number",
            ),
        ];
        for (path, expected) in cases {
            let message = format!("{:#}", load(&path).unwrap_err());
            assert!(message.contains(expected), "{}: {message}", path.display());
        }
        assert!(
            format!("{:#}", load(&dir.path().join("missing.json")).unwrap_err())
                .contains("cannot read")
        );
    }
}
