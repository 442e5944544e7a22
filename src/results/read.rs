//! Reading saved runs and probes back, from JSON (every sample) or CSV (medians only). Version 1
//! JSON, written before cells had a typed identity, is upgraded as it is read.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::http::{HttpPayloadResult, HttpReport, HTTP_KIND};
use super::probe::ProbeReport;
use super::run::{RunReport, Status, SCHEMA_VERSION};
use super::saved::{LoadedRun, Results};
use crate::results::environment::Environment;
use crate::vocab::Encoding;

/// Reads a run saved by `run`, `http` or `probe` (JSON or CSV); the format is told by
/// the content.
pub(crate) fn load(path: &Path) -> Result<LoadedRun> {
    let bytes = read_saved(path)?;
    let label = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse(&bytes, &label, &path.display().to_string())
}

/// The largest saved run read: 256 MiB, a hundred times the reference run's JSON and
/// room for a million CSV rows; a larger file is refused before it is read.
pub(crate) const MAX_SAVED_RUN_BYTES: u64 = 256 * 1024 * 1024;

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
        Some(b'{') => from_json(bytes)
            .map(|(environment, results)| (Some(environment), results))
            .with_context(|| format!("{source} is not a valid codecbench JSON run"))?,
        Some(_) => (
            None,
            super::read_csv::from_csv(bytes)
                .with_context(|| format!("{source} is not a valid codecbench CSV run"))?,
        ),
    };
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
    let value =
        document(&bytes).with_context(|| format!("{source} is not a valid codecbench JSON run"))?;
    if let Some(kind) = value.get("kind").and_then(|k| k.as_str()) {
        bail!("{source} is a `{kind}` run: pool reads the files `run --export-json` writes");
    }
    let report = || -> Result<RunReport> {
        let mut report: RunReport = serde_json::from_value(value)?;
        type_content_types(&mut report)?;
        validate_run(&report)?;
        Ok(report)
    };
    report().with_context(|| format!("{source} is not a valid codecbench JSON run"))
}

/// A saved JSON document at this codecbench's schema, version 1 upgraded.
fn document(bytes: &[u8]) -> Result<serde_json::Value> {
    let mut value: serde_json::Value = serde_json::from_slice(bytes)?;
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(version) if version == u64::from(SCHEMA_VERSION) => {}
        Some(1) => super::legacy::upgrade_v1(&mut value)?,
        Some(version) => bail!(
            "schema_version {version} is not supported (this codecbench reads 1 and {SCHEMA_VERSION})"
        ),
        None => bail!("no schema_version"),
    }
    Ok(value)
}

fn from_json(bytes: &[u8]) -> Result<(Environment, Results)> {
    let value = document(bytes)?;
    if value.get("kind").and_then(|k| k.as_str()) == Some(super::probe::PROBE_KIND) {
        let report: ProbeReport = serde_json::from_value(value)?;
        report.validate()?;
        let urls = report.urls;
        return Ok((report.environment, Results::Probe { urls }));
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some(HTTP_KIND) {
        let report: HttpReport = serde_json::from_value(value)?;
        validate_http(&report.payloads)?;
        let (load, payloads) = (report.load, report.payloads);
        return Ok((report.environment, Results::Http { load, payloads }));
    }
    let mut report: RunReport = serde_json::from_value(value)?;
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
