//! JSON: the whole report, with every timed sample, for scripts and later comparison.

use serde_json::{json, Value};

use crate::results::run::{PayloadResult, RunReport};

/// The report as pretty-printed JSON, ending in a newline.
#[cfg(test)]
pub(crate) fn render(report: &RunReport) -> Vec<u8> {
    render_with(report, None)
}

/// As [`render`], with `in_progress` (a payload still being measured) after the
/// finished ones, without copying the report.
pub(crate) fn render_with(report: &RunReport, in_progress: Option<&PayloadResult>) -> Vec<u8> {
    // Plain data with string keys: serialisation cannot fail.
    let mut document = serde_json::to_value(report).expect("report serialises");
    let payloads = document["payloads"].as_array_mut().expect("payloads");
    payloads.extend(in_progress.map(|p| serde_json::to_value(p).expect("payload serialises")));
    for (payload, written) in report.payloads.iter().chain(in_progress).zip(payloads) {
        add_derived_figures(payload, written);
    }
    let mut out = serde_json::to_vec_pretty(&document).expect("report serialises");
    out.push(b'\n');
    out
}

/// After each cell's own fields, the figures derived from them: its ratio and MB/s each
/// way. Reading ignores them, so the document reads back into the same report.
fn add_derived_figures(payload: &PayloadResult, written: &mut Value) {
    let input = payload.input_bytes;
    let cells = written["cells"].as_array_mut().expect("cells");
    for (cell, fields) in payload.cells.iter().zip(cells) {
        let fields = fields.as_object_mut().expect("a cell is an object");
        fields.insert("ratio".into(), json!(cell.ratio(input)));
        fields.insert("compress_mb_s".into(), json!(cell.compress_mb_s(input)));
        fields.insert("decompress_mb_s".into(), json!(cell.decompress_mb_s(input)));
    }
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
    fn a_precision_target_is_saved_and_read_back() {
        let mut report = fixtures::report();
        report.payloads[0].precision = Some(0.05);
        let read: RunReport = serde_json::from_slice(&render(&report)).unwrap();
        assert_eq!(read.payloads[0].precision, Some(0.05));
        let plain: serde_json::Value =
            serde_json::from_slice(&render(&fixtures::report())).unwrap();
        assert!(plain["payloads"][0].get("precision").is_none());
    }

    #[test]
    fn json_reads_back_into_the_same_report() {
        let report = fixtures::report();
        let read: RunReport = serde_json::from_slice(&render(&report)).unwrap();
        assert_eq!(render(&read), render(&report));
        assert_eq!(read.schema_version, crate::results::run::SCHEMA_VERSION);
    }
}
