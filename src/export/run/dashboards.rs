//! What CI dashboards already read, from a run: github-action-benchmark's custom JSON
//! (a list of `{name, unit, value, range}`, for its `customSmallerIsBetter` tool) and
//! Bencher's Metric Format (`{benchmark: {measure: {value, lower_value, upper_value}}}`).
//! One entry per cell and direction: the median time, with the median's 95% interval
//! where the samples give one, and the instructions where the run counted them; and per
//! cell its compressed size, the one figure that never varies. Only what was measured
//! is exported: a run that counted instructions alone keeps one cold iteration of time
//! for the record, which no history should read as a timing. Times are written to the
//! nanosecond the clock gives, so a value never carries binary noise such as
//! `2.3639740000000002`.
//!
//! References: github-action-benchmark's README ("Examples", custom tools); Bencher's
//! "Bencher Metric Format" reference.

use serde_json::{json, Map, Value};

use crate::results::run::{PayloadResult, RunReport};
use crate::stats::Summary;

/// One cell and direction's figures.
struct Entry<'a> {
    name: String,
    time: Option<&'a Summary>,
    instructions: Option<u64>,
    /// The compressed body, on the compress direction only.
    bytes: Option<u64>,
}

/// `time`, unless it is the single iteration a run that counted instructions alone
/// keeps (`run --measure instructions`).
fn measured(time: Option<&Summary>, instructions: Option<u64>) -> Option<&Summary> {
    time.filter(|t| instructions.is_none() || t.samples_s.len() > 1)
}

/// `value` rounded to `decimals` places: the clock's resolution, not f64's noise.
fn rounded(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// Every finished cell's two directions, named `small zstd 3 (libzstd) compress`, over
/// the report's payloads and the one in progress.
fn entries<'a>(report: &'a RunReport, current: Option<&'a PayloadResult>) -> Vec<Entry<'a>> {
    let mut entries = Vec::new();
    for payload in report.payloads.iter().chain(current) {
        for cell in payload.cells.iter().filter(|c| !c.failed()) {
            let name = |direction: &str| format!("{} {} {direction}", payload.payload, cell.id);
            entries.push(Entry {
                name: name("compress"),
                time: measured(cell.compress.as_ref(), cell.compress_instructions),
                instructions: cell.compress_instructions,
                bytes: Some(cell.compressed_bytes),
            });
            entries.push(Entry {
                name: name("decompress"),
                time: measured(cell.decompress.as_ref(), cell.decompress_instructions),
                instructions: cell.decompress_instructions,
                bytes: None,
            });
        }
    }
    entries
}

/// github-action-benchmark's custom JSON: each time in ms (the median, its 95%
/// interval's larger half-width as `range`), then each instruction count, then the
/// compressed size in bytes; smaller is better for all three.
pub(crate) fn render_github_benchmark(
    report: &RunReport,
    current: Option<&PayloadResult>,
) -> Vec<u8> {
    let mut list = Vec::new();
    for entry in entries(report, current) {
        if let Some(time) = entry.time {
            let mut item = json!({
                "name": format!("{} time", entry.name),
                "unit": "ms",
                "value": rounded(time.median_s * 1e3, 6),
            });
            if let (Some(low), Some(high)) = (time.median_ci95_low_s, time.median_ci95_high_s) {
                let half_width = (time.median_s - low).max(high - time.median_s) * 1e3;
                item["range"] = Value::String(format!("± {half_width:.6}"));
            }
            list.push(item);
        }
        if let Some(count) = entry.instructions {
            list.push(json!({
                "name": format!("{} instructions", entry.name),
                "unit": "instructions",
                "value": count,
            }));
        }
        if let Some(bytes) = entry.bytes {
            list.push(json!({
                "name": format!("{} bytes", entry.name),
                "unit": "bytes",
                "value": bytes,
            }));
        }
    }
    pretty(&Value::Array(list))
}

/// Bencher Metric Format: per cell and direction, `latency` in nanoseconds (the median,
/// bounded by its 95% interval where known), `instructions` where counted, and on the
/// compress direction `file-size`, the compressed bytes (Bencher's built-in measure).
pub(crate) fn render_bencher(report: &RunReport, current: Option<&PayloadResult>) -> Vec<u8> {
    let mut benchmarks = Map::new();
    for entry in entries(report, current) {
        let mut measures = Map::new();
        if let Some(time) = entry.time {
            let ns = |s: f64| rounded(s * 1e9, 0);
            let mut latency = json!({ "value": ns(time.median_s) });
            if let (Some(low), Some(high)) = (time.median_ci95_low_s, time.median_ci95_high_s) {
                latency["lower_value"] = json!(ns(low));
                latency["upper_value"] = json!(ns(high));
            }
            measures.insert("latency".into(), latency);
        }
        if let Some(count) = entry.instructions {
            measures.insert("instructions".into(), json!({ "value": count }));
        }
        if let Some(bytes) = entry.bytes {
            measures.insert("file-size".into(), json!({ "value": bytes }));
        }
        if !measures.is_empty() {
            benchmarks.insert(entry.name, Value::Object(measures));
        }
    }
    pretty(&Value::Object(benchmarks))
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(value).expect("JSON values serialise");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> RunReport {
        let mut report = crate::export::fixtures::report();
        let cell = &mut report.payloads[0].cells[0];
        cell.compress_instructions = Some(4_779_632);
        cell.decompress_instructions = Some(2_330_071);
        report
    }

    #[test]
    fn github_benchmark_snapshot() {
        insta::assert_snapshot!(
            String::from_utf8(render_github_benchmark(&report(), None)).unwrap()
        );
    }

    #[test]
    fn bencher_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_bencher(&report(), None)).unwrap());
    }

    #[test]
    fn an_instructions_only_run_exports_no_time_and_values_carry_no_float_noise() {
        let mut report = report();
        let cell = &mut report.payloads[0].cells[0];
        cell.compress.as_mut().unwrap().samples_s = vec![0.002363974];
        cell.decompress.as_mut().unwrap().median_s = 0.002363974;
        let text = String::from_utf8(render_github_benchmark(&report, None)).unwrap();
        assert!(
            !text.contains("small zstd 1 (libzstd) compress time"),
            "{text}"
        );
        assert!(
            text.contains("small zstd 1 (libzstd) compress instructions"),
            "{text}"
        );
        assert!(text.contains("\"value\": 2.363974\n"), "{text}");
        let bencher = String::from_utf8(render_bencher(&report, None)).unwrap();
        assert!(bencher.contains("\"file-size\""), "{bencher}");
    }

    /// What github-action-benchmark's `customSmallerIsBetter` reader accepts
    /// (benchmark-action/github-action-benchmark `src/extract.ts` at 04dcc2c4,
    /// `extractCustomBenchmarkResult` and `extractResult`): a non-empty JSON array of
    /// `{name: string, value: number, unit: string, range?: string, extra?: string}`.
    fn check_github_benchmark(text: &[u8]) {
        let value: Value = serde_json::from_slice(text).unwrap();
        let list = value.as_array().expect("an array");
        assert!(!list.is_empty(), "extractResult refuses an empty list");
        for entry in list {
            let entry = entry.as_object().unwrap();
            assert!(
                entry["name"].is_string() && entry["unit"].is_string(),
                "{entry:?}"
            );
            assert!(entry["value"].is_number(), "{entry:?}");
            for optional in ["range", "extra"] {
                assert!(
                    entry.get(optional).is_none_or(Value::is_string),
                    "{entry:?}"
                );
            }
            let known = ["name", "value", "unit", "range", "extra"];
            assert!(
                entry.keys().all(|k| known.contains(&k.as_str())),
                "{entry:?}"
            );
        }
    }

    /// Bencher Metric Format (bencher.dev, "BMF JSON" reference): an object of
    /// benchmarks, each an object of measures, each `{value, lower_value?,
    /// upper_value?}` numbers.
    fn check_bencher(text: &[u8]) {
        let value: Value = serde_json::from_slice(text).unwrap();
        for (benchmark, measures) in value.as_object().expect("an object") {
            let measures = measures.as_object().unwrap();
            assert!(!measures.is_empty(), "{benchmark}");
            for (measure, metric) in measures {
                let metric = metric.as_object().unwrap();
                assert!(metric["value"].is_number(), "{benchmark} {measure}");
                for (key, number) in metric {
                    let known = ["value", "lower_value", "upper_value"].contains(&key.as_str());
                    assert!(known && number.is_number(), "{benchmark} {measure} {key}");
                }
            }
        }
    }

    #[test]
    fn both_exports_read_as_their_dashboards_read_them() {
        let mut counted_only = report();
        for cell in &mut counted_only.payloads[0].cells {
            for summary in [&mut cell.compress, &mut cell.decompress]
                .into_iter()
                .flatten()
            {
                summary.samples_s.truncate(1);
            }
            cell.compress_instructions.get_or_insert(1_000);
            cell.decompress_instructions.get_or_insert(1_000);
        }
        for report in [report(), counted_only] {
            check_github_benchmark(&render_github_benchmark(&report, None));
            check_bencher(&render_bencher(&report, None));
        }
    }

    #[test]
    fn failed_cells_are_left_out() {
        let text = String::from_utf8(render_bencher(&report(), None)).unwrap();
        assert!(
            !text.contains("gzip"),
            "the fixture's gzip cell failed: {text}"
        );
    }
}
