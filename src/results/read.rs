//! Reading saved runs and probes back, from JSON (every sample) or CSV (medians only). Version 1
//! JSON, written before cells had a typed identity, is upgraded as it is read.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::document::{first_byte, Document};
use super::http::{HttpPayloadResult, HttpReport, HTTP_KIND};
use super::probe::ProbeReport;
use super::run::{RunReport, Status};
use super::saved::{LoadedRun, Results};
use crate::results::environment::Environment;
use crate::vocab::Encoding;

/// Reads a run saved by `run`, `http` or `probe` (JSON or CSV); the format is told by
/// the content.
pub(crate) fn load(path: &Path) -> Result<LoadedRun> {
    let label = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let source = path.display().to_string();
    match json_file(path)? {
        Some(file) => {
            let document = Document::File {
                file: &file,
                limit: MAX_STREAMED_RUN_BYTES,
            };
            from_document(document, &label, &source)
        }
        None => parse(&read_saved(path)?, &label, &source),
    }
}

/// The largest saved JSON run streamed from a regular file: 1 GiB, four hundred times
/// the reference run's JSON and room for 800,000 cells of 15 samples a direction. It is
/// never held whole; a larger file is refused before it is read.
pub(crate) const MAX_STREAMED_RUN_BYTES: u64 = 1024 * 1024 * 1024;

/// The largest saved run read whole (CSV, or anything from a FIFO or a device): 256
/// MiB, room for a million CSV rows; a larger file is refused before it is read.
pub(crate) const MAX_SAVED_RUN_BYTES: u64 = 256 * 1024 * 1024;

/// `path` opened, when it is a regular file of JSON within [`MAX_STREAMED_RUN_BYTES`];
/// `None` for anything to be read whole.
fn json_file(path: &Path) -> Result<Option<std::fs::File>> {
    let Some(file) = crate::payload::open_regular(path, MAX_STREAMED_RUN_BYTES, "saved run")?
    else {
        return Ok(None);
    };
    let first =
        first_byte(&file).with_context(|| format!("cannot read saved run {}", path.display()))?;
    Ok((first == Some(b'{')).then_some(file))
}

/// A saved run's bytes, at most [`MAX_SAVED_RUN_BYTES`].
fn read_saved(path: &Path) -> Result<Vec<u8>> {
    crate::payload::read_limited(path, MAX_SAVED_RUN_BYTES, "saved run")
}

/// Parses a saved run from `bytes`, calling it `label`; errors name it `source`. Any
/// bytes give a run or an error, never a panic (a property test feeds it garbage).
pub(crate) fn parse(bytes: &[u8], label: &str, source: &str) -> Result<LoadedRun> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    let (environment, results) = match first {
        None => bail!("{source} is empty"),
        // A payload (the records a run compresses) is a JSON array; a saved run never is.
        Some(b'[') => bail!(
            "{source} is a JSON array (a payload?), not a saved run: save one with `run --export-json FILE`"
        ),
        Some(b'{') => return from_document(Document::Bytes(bytes), label, source),
        Some(_) => (
            None,
            super::read_csv::from_csv(bytes)
                .with_context(|| format!("{source} is not a valid codecbench CSV run"))?,
        ),
    };
    loaded(label, source, environment, results)
}

/// A saved JSON run read from `document`.
fn from_document(document: Document, label: &str, source: &str) -> Result<LoadedRun> {
    let (environment, results) = from_json(document)
        .with_context(|| format!("{source} is not a valid codecbench JSON run"))?;
    loaded(label, source, Some(environment), results)
}

fn loaded(
    label: &str,
    source: &str,
    environment: Option<Environment>,
    results: Results,
) -> Result<LoadedRun> {
    if results.is_empty() {
        bail!("{source} holds no results");
    }
    Ok(LoadedRun {
        label: label.to_string(),
        environment,
        results,
    })
}

/// Reads a run saved as JSON by `run`, whole, as the model it was written from (for
/// `pool`). CSV (medians only), `http` and `probe` runs are refused.
pub(crate) fn load_report(path: &Path) -> Result<RunReport> {
    let source = path.display();
    let bytes = read_saved(path)?;
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        bail!("{source} is not a JSON run: pool reads the files `run --export-json` writes");
    }
    let document = Document::Bytes(&bytes);
    let head = document
        .head()
        .with_context(|| format!("{source} is not a valid codecbench JSON run"))?;
    if let Some(kind) = &head.kind {
        bail!("{source} is a `{kind}` run: pool reads the files `run --export-json` writes");
    }
    let report = || -> Result<RunReport> {
        let mut report: RunReport = document.typed(&head)?;
        type_content_types(&mut report)?;
        validate_run(&report)?;
        Ok(report)
    };
    report().with_context(|| format!("{source} is not a valid codecbench JSON run"))
}

fn from_json(document: Document) -> Result<(Environment, Results)> {
    let head = document.head()?;
    if head.kind.as_deref() == Some(super::probe::PROBE_KIND) {
        let report: ProbeReport = document.typed(&head)?;
        report.validate()?;
        let urls = report.urls;
        return Ok((report.environment, Results::Probe { urls }));
    }
    if head.kind.as_deref() == Some(HTTP_KIND) {
        let report: HttpReport = document.typed(&head)?;
        validate_http(&report.payloads)?;
        let (load, payloads) = (report.load, report.payloads);
        return Ok((report.environment, Results::Http { load, payloads }));
    }
    let mut report: RunReport = document.typed(&head)?;
    type_content_types(&mut report)?;
    validate_run(&report)?;
    let results = Results::Codec {
        payloads: report.payloads,
        instructions: report.instructions,
    };
    Ok((report.environment, results))
}

/// Types each payload's content type at the door: a media type, its parameters dropped,
/// or the run is refused. It reaches server configuration (`recommend --emit`).
fn type_content_types(report: &mut RunReport) -> Result<()> {
    for payload in &mut report.payloads {
        let Some(text) = payload.content_type.as_deref() else {
            continue;
        };
        let Some(essence) = crate::vocab::media_type::essence(text) else {
            bail!(
                "payload {:?}: content_type {text:?} is not a type/subtype media type",
                payload.payload
            );
        };
        payload.content_type = Some(essence);
    }
    Ok(())
}

/// Refuses values no measurement gives: an empty payload, an empty output from a cell
/// that did not fail, and times that are not above 0.
fn validate_run(report: &RunReport) -> Result<()> {
    for payload in &report.payloads {
        let name = &payload.payload;
        if payload.input_bytes == 0 {
            bail!("payload {name}: input_bytes must be above 0");
        }
        for cell in payload.cells.iter().filter(|c| c.status == Status::Ok) {
            let at = || format!("payload {name}, cell {}", cell.id);
            if cell.compressed_bytes == 0 {
                bail!("{}: compressed_bytes must be above 0", at());
            }
            for (direction, summary) in [
                ("compress", &cell.compress),
                ("decompress", &cell.decompress),
            ] {
                let Some(summary) = summary else { continue };
                let times =
                    std::iter::once(summary.median_s).chain(summary.samples_s.iter().copied());
                if let Some(bad) = times.into_iter().find(|t| !(t.is_finite() && *t > 0.0)) {
                    bail!("{}: {direction} time {bad} s must be above 0", at());
                }
            }
        }
    }
    Ok(())
}

/// Refuses an empty payload, an encoding no server sends, and latencies that are not
/// above 0.
fn validate_http(payloads: &[HttpPayloadResult]) -> Result<()> {
    for payload in payloads {
        let name = &payload.payload;
        if payload.input_bytes == 0 {
            bail!("payload {name}: input_bytes must be above 0");
        }
        for result in &payload.encodings {
            Encoding::parse(&result.encoding).with_context(|| format!("payload {name}"))?;
            let latencies =
                std::iter::once(result.p50_ms).chain(result.latencies_ms.iter().copied());
            if let Some(bad) = latencies.into_iter().find(|t| !(t.is_finite() && *t > 0.0)) {
                bail!(
                    "payload {name}, encoding {}: latency {bad} ms must be above 0",
                    result.encoding
                );
            }
            if !(result.body_bytes >= 0.0 && result.wire_bytes >= 0.0) {
                bail!(
                    "payload {name}, encoding {}: sizes must not be negative",
                    result.encoding
                );
            }
        }
    }
    Ok(())
}
