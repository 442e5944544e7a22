//! JSON: the whole report, with every timed sample, for scripts and later comparison.

use serde::Serialize;

use crate::results::codec::{CellResult, PayloadResult, RunReport};
use crate::results::environment::Environment;

/// A cell with its derived figures alongside the raw ones.
#[derive(Serialize)]
struct CellView<'a> {
    #[serde(flatten)]
    cell: &'a CellResult,
    ratio: Option<f64>,
    compress_mb_s: Option<f64>,
    decompress_mb_s: Option<f64>,
}

#[derive(Serialize)]
struct PayloadView<'a> {
    payload: &'a str,
    input_bytes: u64,
    sha256: &'a Option<String>,
    warmup: u32,
    iterations: Option<u32>,
    min_time_s: Option<f64>,
    rounds: u32,
    #[serde(skip_serializing_if = "crate::results::codec::is_one")]
    processes: u32,
    interrupted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_type: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cut_from: &'a Option<String>,
    cells: Vec<CellView<'a>>,
}

/// The document mirrors [`RunReport`] field for field, so it reads back into one; the
/// derived figures are extra fields that reading ignores.
#[derive(Serialize)]
struct ReportView<'a> {
    schema_version: u32,
    environment: &'a Environment,
    seed: i32,
    rng: &'a str,
    payloads: Vec<PayloadView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: &'a Option<crate::results::codec::InstructionCounter>,
}

fn payload_view(payload: &PayloadResult) -> PayloadView<'_> {
    let input = payload.input_bytes;
    PayloadView {
        payload: &payload.payload,
        input_bytes: input,
        sha256: &payload.sha256,
        warmup: payload.warmup,
        iterations: payload.iterations,
        min_time_s: payload.min_time_s,
        rounds: payload.rounds,
        processes: payload.processes,
        interrupted: payload.interrupted,
        content_type: &payload.content_type,
        cut_from: &payload.cut_from,
        cells: payload
            .cells
            .iter()
            .map(|cell| CellView {
                cell,
                ratio: cell.ratio(input),
                compress_mb_s: cell.compress_mb_s(input),
                decompress_mb_s: cell.decompress_mb_s(input),
            })
            .collect(),
    }
}

/// The report as pretty-printed JSON, ending in a newline.
#[cfg(test)]
pub(crate) fn render(report: &RunReport) -> Vec<u8> {
    render_with(report, None)
}

/// As [`render`], with `in_progress` (a payload still being measured) after the
/// finished ones, without copying the report.
pub(crate) fn render_with(report: &RunReport, in_progress: Option<&PayloadResult>) -> Vec<u8> {
    let view = ReportView {
        schema_version: report.schema_version,
        environment: &report.environment,
        seed: report.seed,
        rng: &report.rng,
        payloads: report
            .payloads
            .iter()
            .chain(in_progress)
            .map(payload_view)
            .collect(),
        instructions: &report.instructions,
    };
    // Plain data with string keys: serialisation cannot fail.
    let mut out = serde_json::to_vec_pretty(&view).expect("report serialises");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    #[test]
    fn json_snapshot() {
        let text = String::from_utf8(render(&fixtures::report())).unwrap();
        insta::assert_snapshot!(text);
    }

    #[test]
    fn json_carries_samples_and_derived_figures() {
        let value: serde_json::Value =
            serde_json::from_slice(&render(&fixtures::report())).unwrap();
        let cell = &value["payloads"][0]["cells"][0];
        assert_eq!(cell["compressed_bytes"], 41_132);
        assert_eq!(cell["compress"]["samples_s"].as_array().unwrap().len(), 3);
        assert_eq!(cell["ratio"].as_f64().unwrap(), 298_727.0 / 41_132.0);
        assert!(cell["failure"].is_null());
    }

    #[test]
    fn json_reads_back_into_the_same_report() {
        let report = fixtures::report();
        let read: RunReport = serde_json::from_slice(&render(&report)).unwrap();
        assert_eq!(render(&read), render(&report));
        assert_eq!(read.schema_version, crate::results::codec::SCHEMA_VERSION);
    }
}
