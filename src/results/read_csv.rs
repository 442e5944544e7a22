//! Saved runs from CSV: `run --csv` (one row per cell), `http --csv` (one row per
//! encoding, every column but the payload's prefixed `http_`) or `probe --export-csv`
//! (one row per URL and `Accept-Encoding`). Medians only, no samples.

use anyhow::{bail, Context, Result};

use super::columns::{http, legacy, probe, run, HTTP_PREFIX};
use super::http::load_label;
use super::probe::{ProbeCell, ProbeKey};
use super::saved::{CellKey, HttpCell, HttpKey, Instructions, Results, RunCell};
use super::timing::Timing;
use crate::vocab::CodecKind;
use crate::vocab::Encoding;
use crate::vocab::{CellId, Library, Variant};

/// The rows of a CSV run, of whichever kind its header says.
pub(super) fn from_csv(bytes: &[u8]) -> Result<Results> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = Headers(reader.headers()?.clone());
    if headers.0.iter().any(|h| h.starts_with(HTTP_PREFIX)) {
        return Ok(Results::Http(each_row(reader, &headers, http_cell)?));
    }
    if headers.has(probe::URL) && headers.has(probe::ACCEPT_ENCODING) {
        return Ok(Results::Probe(each_row(reader, &headers, probe_cell)?));
    }
    Ok(Results::Codec(each_row(reader, &headers, cell)?))
}

/// `read` of every record, each with its line number for errors.
fn each_row<T>(
    mut reader: csv::Reader<&[u8]>,
    headers: &Headers,
    read: fn(&Row) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for (index, record) in reader.records().enumerate() {
        // Line 1 is the header.
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        out.push(read(&Row {
            headers,
            record: &record,
            line,
        })?);
    }
    Ok(out)
}

/// One `run` row.
fn cell(row: &Row) -> Result<RunCell> {
    let timing = |name: &str| -> Result<Option<Timing>> {
        if row.text(name)?.is_empty() {
            return Ok(None);
        }
        Ok(Some(Timing::of(row.positive(name)? / 1e3, Vec::new())))
    };
    let (library, variant, version) = identity(row)?;
    let failure = failure(row)?;
    let failed = failure.is_some();
    // Older files have no encoder_bytes column.
    let encoder = if row.headers.has(run::ENCODER_BYTES) {
        row.text(run::ENCODER_BYTES)?
    } else {
        ""
    };
    Ok(RunCell {
        key: CellKey {
            payload: row.text(run::PAYLOAD)?.to_string(),
            id: CellId {
                codec: row.parsed::<CodecKind>(run::CODEC)?,
                library,
                variant,
                level: row.parsed(run::LEVEL)?,
            },
        },
        version,
        input_bytes: row.count(run::INPUT_BYTES, 1)?,
        compressed_bytes: row.count(run::COMPRESSED_BYTES, 1)?,
        encoder_bytes: (!encoder.is_empty())
            .then(|| row.count(run::ENCODER_BYTES, 0))
            .transpose()?,
        compress: timing(run::COMPRESS_MEDIAN_MS)?.filter(|_| !failed),
        decompress: timing(run::DECOMPRESS_MEDIAN_MS)?.filter(|_| !failed),
        // CSV has no content-type column: a HAR run's groups need its JSON.
        content_type: None,
        cut_from: None,
        instructions: instructions(row)?.filter(|_| !failed),
        failure,
    })
}

/// The `*_instructions` columns, where the file has them and the run counted them.
fn instructions(row: &Row) -> Result<Option<Instructions>> {
    let has =
        |name: &str| -> Result<bool> { Ok(row.headers.has(name) && !row.text(name)?.is_empty()) };
    if !(has(run::COMPRESS_INSTRUCTIONS)? && has(run::DECOMPRESS_INSTRUCTIONS)?) {
        return Ok(None);
    }
    Ok(Some(Instructions {
        compress: row.count(run::COMPRESS_INSTRUCTIONS, 0)?,
        decompress: row.count(run::DECOMPRESS_INSTRUCTIONS, 0)?,
        counter: None,
        arch: None,
    }))
}

/// Why the row's cell failed, if it did: the `status` and `failure` columns, or version
/// 1's `round_trip` (`ok` or `failed: REASON`).
fn failure(row: &Row) -> Result<Option<String>> {
    if row.headers.has(legacy::ROUND_TRIP) && !row.headers.has(run::STATUS) {
        let text = row.text(legacy::ROUND_TRIP)?;
        return Ok(text.strip_prefix("failed: ").map(str::to_string));
    }
    match row.text(run::STATUS)? {
        "ok" => Ok(None),
        "failed" => Ok(Some(row.text(run::FAILURE)?.to_string())),
        other => bail!(
            "line {}: '{other}' in column status is not ok or failed",
            row.line
        ),
    }
}

/// The row's library, variant and version: typed columns, or version 1's one
/// `implementation` column.
fn identity(row: &Row) -> Result<(Library, Variant, String)> {
    if row.headers.has(legacy::IMPLEMENTATION) {
        let text = row.text(legacy::IMPLEMENTATION)?;
        return super::legacy::parse_implementation(text)
            .with_context(|| format!("line {}", row.line));
    }
    Ok((
        row.parsed(run::LIBRARY)?,
        row.parsed(run::VARIANT)?,
        // Written `v1.5.7` (a spreadsheet takes `1.5.7` for a date); bare before that.
        row.text(run::VERSION)?.trim_start_matches('v').to_string(),
    ))
}

/// One row of a CSV written by `http --csv`.
fn http_cell(row: &Row) -> Result<HttpCell> {
    let bandwidth_mbit = match row.text(http::HTTP_BANDWIDTH_MBIT)? {
        "" => None,
        _ => Some(row.positive(http::HTTP_BANDWIDTH_MBIT)?),
    };
    let encoding = row.text(http::HTTP_ENCODING)?;
    Ok(HttpCell {
        key: HttpKey {
            payload: row.text(run::PAYLOAD)?.to_string(),
            encoding: Encoding::parse(encoding).with_context(|| format!("line {}", row.line))?,
            load: load_label(
                row.count(http::HTTP_CONCURRENCY, 1)? as usize,
                bandwidth_mbit,
            ),
        },
        input_bytes: row.count(run::INPUT_BYTES, 1)?,
        body_bytes: row.at_least(http::HTTP_BODY_BYTES, 0.0)?.round() as u64,
        wire_bytes: row.at_least(http::HTTP_WIRE_BYTES, 0.0)?,
        requests_per_s: row.at_least(http::HTTP_REQUESTS_PER_S, 0.0)?,
        latency: Timing::of(row.positive(http::HTTP_P50_MS)? / 1e3, Vec::new()),
    })
}

/// One row of `probe --export-csv`: p50s only, no samples.
fn probe_cell(row: &Row) -> Result<ProbeCell> {
    let failure = Some(row.text(probe::FAILURE)?.to_string()).filter(|f| !f.is_empty());
    let input_bytes = match row.text(probe::IDENTITY_BYTES)? {
        "" => 0,
        _ => row.count(probe::IDENTITY_BYTES, 1)?,
    };
    let (body_bytes, wire_bytes, p50_s) = if failure.is_some() {
        (0, 0.0, 0.0)
    } else {
        (
            row.at_least(probe::BODY_BYTES, 0.0)?.round() as u64,
            row.at_least(probe::WIRE_BYTES, 0.0)?,
            row.positive(probe::TOTAL_P50_MS)? / 1e3,
        )
    };
    Ok(ProbeCell {
        key: ProbeKey {
            url: row.text(probe::URL)?.to_string(),
            accept_encoding: row.text(probe::ACCEPT_ENCODING)?.to_string(),
        },
        encoding: row.text(probe::ENCODING)?.to_string(),
        input_bytes,
        body_bytes,
        wire_bytes,
        latency: Timing::of(p50_s, Vec::new()),
        failure,
    })
}

/// A CSV header, looked up by column name.
struct Headers(csv::StringRecord);

impl Headers {
    fn has(&self, name: &str) -> bool {
        self.0.iter().any(|h| h == name)
    }

    fn index(&self, name: &str) -> Result<usize> {
        self.0
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("no column named {name}"))
    }
}

/// One record with its header and line number, for errors that name both.
struct Row<'a> {
    headers: &'a Headers,
    record: &'a csv::StringRecord,
    line: usize,
}

impl Row<'_> {
    /// The field of column `name`.
    fn text(&self, name: &str) -> Result<&str> {
        Ok(self.record.get(self.headers.index(name)?).unwrap_or(""))
    }

    /// The field of column `name` as a finite number.
    fn number(&self, name: &str) -> Result<f64> {
        let field = self.text(name)?;
        let line = self.line;
        let value: f64 = field
            .parse()
            .with_context(|| format!("line {line}: '{field}' in column {name} is not a number"))?;
        if !value.is_finite() {
            bail!("line {line}: '{field}' in column {name} is not finite");
        }
        Ok(value)
    }

    /// The field of column `name` as a whole number of at least `min`.
    fn count(&self, name: &str, min: u64) -> Result<u64> {
        let value = self.number(name)?;
        // Integers above 2^53 are not exact in a double: no size gets near.
        if value.fract() != 0.0 || value < min as f64 || value > 9_007_199_254_740_992.0 {
            bail!(
                "line {}: '{}' in column {name} is not a whole number of at least {min}",
                self.line,
                self.text(name)?
            );
        }
        Ok(value as u64)
    }

    /// The field of column `name` as a number above 0.
    fn positive(&self, name: &str) -> Result<f64> {
        let value = self.number(name)?;
        if value <= 0.0 {
            bail!(
                "line {}: '{}' in column {name} must be above 0",
                self.line,
                self.text(name)?
            );
        }
        Ok(value)
    }

    /// The field of column `name` as a number of at least `min`.
    fn at_least(&self, name: &str, min: f64) -> Result<f64> {
        let value = self.number(name)?;
        if value < min {
            bail!(
                "line {}: '{}' in column {name} must be at least {min}",
                self.line,
                self.text(name)?
            );
        }
        Ok(value)
    }

    /// The field of column `name` parsed as a `T`.
    fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        let field = self.text(name)?;
        field.parse().map_err(|e| {
            anyhow::anyhow!(
                "line {}: '{field}' in column {name} is not valid: {e}",
                self.line
            )
        })
    }
}
