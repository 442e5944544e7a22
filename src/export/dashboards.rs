//! What CI dashboards already read, from a run: github-action-benchmark's custom JSON
//! (a list of `{name, unit, value, range}`, for its `customSmallerIsBetter` tool) and
//! Bencher's Metric Format (`{benchmark: {measure: {value, lower_value, upper_value}}}`).
//! One entry per cell and direction: the median time, with the median's 95% interval
//! where the samples give one, and the instructions where the run counted them.
//!
//! References: github-action-benchmark's README ("Examples", custom tools); Bencher's
//! "Bencher Metric Format" reference.

use serde_json::{json, Map, Value};

use crate::results::codec::{PayloadResult, RunReport};
use crate::stats::Summary;

/// One cell and direction's figures.
struct Entry<'a> {
    name: String,
    time: Option<&'a Summary>,
    instructions: Option<u64>,
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
                time: cell.compress.as_ref(),
                instructions: cell.compress_instructions,
            });
            entries.push(Entry {
                name: name("decompress"),
                time: cell.decompress.as_ref(),
                instructions: cell.decompress_instructions,
            });
        }
    }
    entries
}

/// github-action-benchmark's custom JSON: each time in ms (the median, its 95%
/// interval's larger half-width as `range`), then each instruction count; smaller is
/// better for both.
pub fn render_github_benchmark(report: &RunReport, current: Option<&PayloadResult>) -> Vec<u8> {
    let mut list = Vec::new();
    for entry in entries(report, current) {
        if let Some(time) = entry.time {
            let median_ms = time.median_s * 1e3;
            let mut item = json!({
                "name": format!("{} time", entry.name),
                "unit": "ms",
                "value": median_ms,
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
    }
    pretty(&Value::Array(list))
}

/// Bencher Metric Format: per cell and direction, `latency` in nanoseconds (the median,
/// bounded by its 95% interval where known) and `instructions` where counted.
pub fn render_bencher(report: &RunReport, current: Option<&PayloadResult>) -> Vec<u8> {
    let mut benchmarks = Map::new();
    for entry in entries(report, current) {
        let mut measures = Map::new();
        if let Some(time) = entry.time {
            let ns = |s: f64| s * 1e9;
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
    fn failed_cells_are_left_out() {
        let text = String::from_utf8(render_bencher(&report(), None)).unwrap();
        assert!(
            !text.contains("gzip"),
            "the fixture's gzip cell failed: {text}"
        );
    }
}
