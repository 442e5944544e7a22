//! Saved runs from CSV: `run --csv` (one row per cell) or `http --csv` (one row per
//! encoding, every column but the payload's prefixed `http_`). Medians only, no samples.

use anyhow::{bail, Context, Result};

use super::http::load_label;
use super::identity::{CellId, Library, Variant};
use super::saved::{CellKey, HttpCell, HttpKey, Results, RunCell, Timing};
use crate::codec::CodecKind;
use crate::http::Encoding;

/// The rows of a CSV run, of whichever kind its header says.
pub fn from_csv(bytes: &[u8]) -> Result<Results> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = Headers(reader.headers()?.clone());
    if headers.0.iter().any(|h| h.starts_with("http_")) {
        return Ok(Results::Http(http_rows(reader, &headers)?));
    }
    let mut cells = Vec::new();
    for (index, record) in reader.records().enumerate() {
        // Line 1 is the header.
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        let row = Row {
            headers: &headers,
            record: &record,
            line,
        };
        cells.push(cell(&row)?);
    }
    Ok(Results::Codec(cells))
}

/// One `run` row.
fn cell(row: &Row) -> Result<RunCell> {
    let timing = |name: &str| -> Result<Option<Timing>> {
        if row.text(name)?.is_empty() {
            return Ok(None);
        }
        Ok(Some(Timing::of(row.number(name)? / 1e3, Vec::new())))
    };
    let (library, variant, version) = identity(row)?;
    let failure = failure(row)?;
    let failed = failure.is_some();
    // Older files have no encoder_bytes column.
    let encoder = if row.headers.has("encoder_bytes") {
        row.text("encoder_bytes")?
    } else {
        ""
    };
    Ok(RunCell {
        key: CellKey {
            payload: row.text("payload")?.to_string(),
            id: CellId {
                codec: row.parsed::<CodecKind>("codec")?,
                library,
                variant,
                level: row.parsed("level")?,
            },
        },
        version,
        input_bytes: row.number("input_bytes")? as u64,
        compressed_bytes: row.number("compressed_bytes")? as u64,
        encoder_bytes: (!encoder.is_empty())
            .then(|| row.number("encoder_bytes").map(|b| b as u64))
            .transpose()?,
        compress: timing("compress_median_ms")?.filter(|_| !failed),
        decompress: timing("decompress_median_ms")?.filter(|_| !failed),
        failure,
    })
}

/// Why the row's cell failed, if it did: the `status` and `failure` columns, or version
/// 1's `round_trip` (`ok` or `failed: REASON`).
fn failure(row: &Row) -> Result<Option<String>> {
    if row.headers.has("round_trip") && !row.headers.has("status") {
        let text = row.text("round_trip")?;
        return Ok(text.strip_prefix("failed: ").map(str::to_string));
    }
    match row.text("status")? {
        "ok" => Ok(None),
        "failed" => Ok(Some(row.text("failure")?.to_string())),
        other => bail!(
            "line {}: '{other}' in column status is not ok or failed",
            row.line
        ),
    }
}

/// The row's library, variant and version: typed columns, or version 1's one
/// `implementation` column.
fn identity(row: &Row) -> Result<(Library, Variant, String)> {
    if row.headers.has("implementation") {
        let text = row.text("implementation")?;
        return super::legacy::parse_implementation(text)
            .with_context(|| format!("line {}", row.line));
    }
    Ok((
        row.parsed("library")?,
        row.parsed("variant")?,
        row.text("version")?.to_string(),
    ))
}

/// The encodings of a CSV written by `http --csv`.
fn http_rows(mut reader: csv::Reader<&[u8]>, headers: &Headers) -> Result<Vec<HttpCell>> {
    let mut cells = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        let row = Row {
            headers,
            record: &record,
            line,
        };
        let bandwidth_mbit = match row.text("http_bandwidth_mbit")? {
            "" => None,
            _ => Some(row.number("http_bandwidth_mbit")?),
        };
        let encoding = row.text("http_encoding")?;
        cells.push(HttpCell {
            key: HttpKey {
                payload: row.text("payload")?.to_string(),
                encoding: Encoding::parse(encoding).with_context(|| format!("line {line}"))?,
                load: load_label(row.number("http_concurrency")? as usize, bandwidth_mbit),
            },
            input_bytes: row.number("input_bytes")? as u64,
            body_bytes: row.number("http_body_bytes")?.round() as u64,
            wire_bytes: row.number("http_wire_bytes")?,
            requests_per_s: row.number("http_requests_per_s")?,
            latency: Timing::of(row.number("http_p50_ms")? / 1e3, Vec::new()),
        });
    }
    Ok(cells)
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
