//! Saved runs from CSV: `run --csv` (one row per cell), `http --csv` (one row per
//! encoding, every column but the payload's prefixed `http_`) or `probe --export-csv`
//! (one row per URL and `Accept-Encoding`). Each reads into the document its command
//! writes, with what CSV cannot hold left out: no samples, no environment.

use anyhow::{bail, Context, Result};

use super::columns::{http, legacy, probe, run, HTTP_PREFIX};
use super::csv_row::{CsvRow, Headers};
use super::http::{EncodingResult, HttpPayloadResult, LoadSettings};
use super::probe::{ProbeRow, UrlResult};
use super::run::{CellResult, PayloadResult, Status};
use super::saved::Results;
use crate::stats::{CpuTime, Summary};
use crate::vocab::{CellId, CodecKind, Encoding, Library, Variant};

/// The rows of a CSV run, of whichever kind its header says.
pub(super) fn from_csv(bytes: &[u8]) -> Result<Results> {
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = Headers(reader.headers()?.clone());
    if headers.0.iter().any(|h| h.starts_with(HTTP_PREFIX)) {
        return http_results(each_row(reader, &headers, http_row)?);
    }
    if headers.has(probe::URL) && headers.has(probe::ACCEPT_ENCODING) {
        let rows = each_row(reader, &headers, probe_row)?;
        let urls = grouped(rows, |(url, identity_bytes), rows| UrlResult {
            url,
            identity_bytes,
            rows,
            dictionary: None,
        });
        return Ok(Results::Probe { urls });
    }
    let rows = each_row(reader, &headers, cell_row)?;
    let payloads = grouped(rows, |head: PayloadHead, cells| PayloadResult {
        payload: head.payload,
        input_bytes: head.input_bytes,
        sha256: None,
        warmup: head.warmup,
        iterations: None,
        min_time_s: None,
        rounds: head.rounds,
        processes: 1,
        precision: None,
        interrupted: false,
        content_type: None,
        cut_from: None,
        cells,
    });
    Ok(Results::Codec {
        payloads,
        instructions: None,
    })
}

/// `read` of every record, each with its line number for errors.
fn each_row<T>(
    mut reader: csv::Reader<&[u8]>,
    headers: &Headers,
    read: fn(&CsvRow) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for (index, record) in reader.records().enumerate() {
        // Line 1 is the header.
        let line = index + 2;
        let record = record.with_context(|| format!("line {line}"))?;
        out.push(read(&CsvRow {
            headers,
            record: &record,
            line,
        })?);
    }
    Ok(out)
}

/// Rows next to each other with one head, made into one `T` each, in file order.
fn grouped<H: PartialEq, V, T>(rows: Vec<(H, V)>, make: impl Fn(H, Vec<V>) -> T) -> Vec<T> {
    let mut groups: Vec<(H, Vec<V>)> = Vec::new();
    for (head, value) in rows {
        match groups.last_mut() {
            Some((last, values)) if *last == head => values.push(value),
            _ => groups.push((head, vec![value])),
        }
    }
    groups.into_iter().map(|(h, v)| make(h, v)).collect()
}

/// What a `run` row says of its payload.
#[derive(PartialEq)]
struct PayloadHead {
    payload: String,
    input_bytes: u64,
    warmup: u32,
    rounds: u32,
}

/// One `run` row: its payload and its cell.
fn cell_row(row: &CsvRow) -> Result<(PayloadHead, CellResult)> {
    let (library, variant, version) = identity(row)?;
    let failure = failure(row)?;
    let failed = failure.is_some();
    let timing = |columns: &[&str; 9], cpu: &[&str; 2]| -> Result<Option<Summary>> {
        if failed {
            return Ok(None);
        }
        Ok(match summary(row, columns)? {
            Some(summary) => Some(Summary {
                cpu: cpu_time(row, cpu)?,
                ..summary
            }),
            None => None,
        })
    };
    let head = PayloadHead {
        payload: row.text(run::PAYLOAD)?.to_string(),
        input_bytes: row.count(run::INPUT_BYTES, 1)?,
        warmup: row.optional_count(run::WARMUP, 0)?.unwrap_or(0) as u32,
        rounds: row.optional_count(run::ROUNDS, 1)?.unwrap_or(1) as u32,
    };
    let instructions = |name| row.optional_count(name, 0);
    let cell = CellResult {
        id: CellId {
            codec: row.parsed::<CodecKind>(run::CODEC)?,
            library,
            variant,
            level: row.parsed(run::LEVEL)?,
        },
        version,
        dotnet_level: row.optional_text(run::DOTNET_LEVEL)?.map(str::to_string),
        compressed_bytes: row.count(run::COMPRESSED_BYTES, 1)?,
        // Older files have no encoder_bytes column.
        encoder_bytes: row.optional_count(run::ENCODER_BYTES, 0)?,
        compress: timing(&run::COMPRESS, &run::COMPRESS_CPU)?,
        decompress: timing(&run::DECOMPRESS, &run::DECOMPRESS_CPU)?,
        compress_instructions: instructions(run::COMPRESS_INSTRUCTIONS)?,
        decompress_instructions: instructions(run::DECOMPRESS_INSTRUCTIONS)?,
        precision_met: match row.optional_text(run::PRECISION_MET)? {
            None => None,
            Some("yes") => Some(true),
            Some("no") => Some(false),
            Some(other) => bail!(
                "line {}: '{other}' in column {} is not yes or no",
                row.line,
                run::PRECISION_MET
            ),
        },
        status: if failed { Status::Failed } else { Status::Ok },
        failure,
    };
    Ok((head, cell))
}

/// One direction's statistics from its nine columns (ms), or `None` when its median is
/// empty; older files have only some of them, and CSV never holds the samples.
fn summary(row: &CsvRow, columns: &[&str; 9]) -> Result<Option<Summary>> {
    let [_, median, min, max, mean, stddev, mad, low, high] = *columns;
    if row.text(median)?.is_empty() {
        return Ok(None);
    }
    let median_s = row.positive(median)? / 1e3;
    let seconds =
        |name| -> Result<Option<f64>> { Ok(row.optional_number(name, 0.0)?.map(|ms| ms / 1e3)) };
    Ok(Some(Summary {
        median_s,
        min_s: seconds(min)?.unwrap_or(median_s),
        max_s: seconds(max)?.unwrap_or(median_s),
        mean_s: seconds(mean)?.unwrap_or(median_s),
        stddev_s: seconds(stddev)?.unwrap_or(0.0),
        mad_s: seconds(mad)?.unwrap_or(0.0),
        median_ci95_low_s: seconds(low)?,
        median_ci95_high_s: seconds(high)?,
        samples_s: Vec::new(),
        cpu: None,
    }))
}

/// One direction's CPU time from its two columns (ms), or `None` when its median is
/// empty or absent (files from before it was measured).
fn cpu_time(row: &CsvRow, columns: &[&str; 2]) -> Result<Option<CpuTime>> {
    let [median, min] = *columns;
    let Some(median_ms) = row.optional_number(median, 0.0)? else {
        return Ok(None);
    };
    Ok(Some(CpuTime {
        median_s: median_ms / 1e3,
        min_s: row.optional_number(min, 0.0)?.unwrap_or(median_ms) / 1e3,
        samples_s: Vec::new(),
    }))
}

/// Why the row's cell failed, if it did: the `status` and `failure` columns, or version
/// 1's `round_trip` (`ok` or `failed: REASON`).
fn failure(row: &CsvRow) -> Result<Option<String>> {
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
fn identity(row: &CsvRow) -> Result<(Library, Variant, String)> {
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

/// One row of a CSV written by `http --csv`: its load, its payload and its encoding.
struct HttpRow {
    line: usize,
    load: LoadSettings,
    payload: (String, u64, bool),
    result: EncodingResult,
}

/// Every `http` row under one load: a file of several loads is refused, as `http`
/// writes one.
fn http_results(rows: Vec<HttpRow>) -> Result<Results> {
    let Some(load) = rows.first().map(|r| r.load.clone()) else {
        return Ok(Results::Http {
            load: LoadSettings {
                concurrency: 1,
                requests: None,
                duration_s: None,
                bandwidth_mbit: None,
            },
            payloads: Vec::new(),
        });
    };
    let mut by_payload = Vec::new();
    for row in rows {
        if row.load != load {
            bail!(
                "line {}: its load ({} and {}) differs from line 2's: `http` writes one load per file",
                row.line,
                http::HTTP_CONCURRENCY,
                http::HTTP_BANDWIDTH_MBIT
            );
        }
        by_payload.push((row.payload, row.result));
    }
    let payloads = grouped(
        by_payload,
        |(payload, input_bytes, interrupted), encodings| HttpPayloadResult {
            payload,
            input_bytes,
            sha256: None,
            interrupted,
            encodings,
        },
    );
    Ok(Results::Http { load, payloads })
}

fn http_row(row: &CsvRow) -> Result<HttpRow> {
    let bandwidth_mbit = match row.text(http::HTTP_BANDWIDTH_MBIT)? {
        "" => None,
        _ => Some(row.positive(http::HTTP_BANDWIDTH_MBIT)?),
    };
    let encoding = row.text(http::HTTP_ENCODING)?;
    Encoding::parse(encoding).with_context(|| format!("line {}", row.line))?;
    let interrupted = row.optional_text(http::HTTP_INTERRUPTED)? == Some("true");
    let ms = |name| row.optional_number(name, 0.0);
    Ok(HttpRow {
        line: row.line,
        load: LoadSettings {
            concurrency: row.count(http::HTTP_CONCURRENCY, 1)? as usize,
            requests: None,
            duration_s: None,
            bandwidth_mbit,
        },
        payload: (
            row.text(run::PAYLOAD)?.to_string(),
            row.count(run::INPUT_BYTES, 1)?,
            interrupted,
        ),
        result: EncodingResult {
            encoding: encoding.to_string(),
            requests: row.optional_count(http::HTTP_REQUESTS, 0)?.unwrap_or(0) as usize,
            requests_per_s: row.at_least(http::HTTP_REQUESTS_PER_S, 0.0)?,
            p50_ms: row.positive(http::HTTP_P50_MS)?,
            p90_ms: ms(http::HTTP_P90_MS)?.unwrap_or(0.0),
            p99_ms: ms(http::HTTP_P99_MS)?.unwrap_or(0.0),
            wire_bytes: row.at_least(http::HTTP_WIRE_BYTES, 0.0)?,
            body_bytes: row.at_least(http::HTTP_BODY_BYTES, 0.0)?,
            server_cpu_ms: ms(http::HTTP_SERVER_CPU_MS)?,
            latencies_ms: Vec::new(),
            errors: row.optional_count(http::HTTP_ERRORS, 0)?.unwrap_or(0) as usize,
            first_error: None,
        },
    })
}

/// One row of `probe --export-csv`: its URL, then what it got, p50s and p99s only.
fn probe_row(row: &CsvRow) -> Result<((String, Option<u64>), ProbeRow)> {
    let failure = row.optional_text(probe::FAILURE)?.map(str::to_string);
    // A failed row's figures are whatever it got before failing: read, not checked.
    let number = |name| -> Result<f64> {
        match failure {
            Some(_) => Ok(row.optional_number(name, f64::MIN)?.unwrap_or(0.0)),
            None => row.at_least(name, 0.0),
        }
    };
    let total_p50_ms = match failure {
        Some(_) => number(probe::TOTAL_P50_MS)?,
        None => row.positive(probe::TOTAL_P50_MS)?,
    };
    let ms = |name| row.optional_number(name, f64::MIN);
    let url = (
        row.text(probe::URL)?.to_string(),
        row.optional_count(probe::IDENTITY_BYTES, 1)?,
    );
    let result = ProbeRow {
        accept_encoding: row.text(probe::ACCEPT_ENCODING)?.to_string(),
        requests: row.optional_count(probe::REQUESTS, 0)?.unwrap_or(0) as usize,
        status: row.optional_parsed(probe::STATUS)?.unwrap_or(0),
        encoding: row.text(probe::ENCODING)?.to_string(),
        vary: row.optional_text(probe::VARY)?.map(str::to_string),
        body_bytes: number(probe::BODY_BYTES)?,
        wire_bytes: number(probe::WIRE_BYTES)?,
        predicted_level: row.optional_parsed(probe::PREDICTED_LEVEL)?,
        predicted_body_bytes: row.optional_count(probe::PREDICTED_BODY_BYTES, 0)?,
        predicted_compress_ms: ms(probe::PREDICTED_COMPRESS_MS)?,
        ttfb_p50_ms: ms(probe::TTFB_P50_MS)?.unwrap_or(0.0),
        ttfb_p99_ms: ms(probe::TTFB_P99_MS)?.unwrap_or(0.0),
        total_p50_ms,
        total_p99_ms: ms(probe::TOTAL_P99_MS)?.unwrap_or(0.0),
        server_extra_ms: ms(probe::SERVER_EXTRA_MS)?,
        total_ms: Vec::new(),
        failure,
    };
    Ok((url, result))
}
