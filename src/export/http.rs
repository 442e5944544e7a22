//! Rendering `http`: one row per encoding, as a table, Markdown, CSV or JSON.

use super::text::document::{Document, Table};
use crate::format::{significant, thousands};
use crate::results::columns;
use crate::results::http::{
    load_label, EncodingResult, HttpPayloadResult, HttpReport, LoadSettings,
};

const HEADER: [&str; 11] = [
    "encoding", "reqs", "req/s", "p50 ms", "p90 ms", "p99 ms", "wire B", "body B", "ratio",
    "CPU ms", "errors",
];
const NUMERIC: [bool; 11] = [
    false, true, true, true, true, true, true, true, true, true, true,
];

fn rows(payload: &HttpPayloadResult) -> Vec<Vec<String>> {
    payload
        .encodings
        .iter()
        .map(|r| {
            let label = crate::vocab::Encoding::parse(&r.encoding)
                .map(|e| e.table_label())
                .unwrap_or(r.encoding.clone());
            vec![
                label,
                r.requests.to_string(),
                significant(r.requests_per_s, 3),
                significant(r.p50_ms, 3),
                significant(r.p90_ms, 3),
                significant(r.p99_ms, 3),
                thousands(r.wire_bytes.round() as u64),
                thousands(r.body_bytes.round() as u64),
                format!("{:.2}", ratio(payload, r)),
                r.server_cpu_ms
                    .map(|ms| significant(ms, 3))
                    .unwrap_or_default(),
                r.errors.to_string(),
            ]
        })
        .collect()
}

fn ratio(payload: &HttpPayloadResult, result: &EncodingResult) -> f64 {
    payload.input_bytes as f64 / result.body_bytes.max(1.0)
}

fn title(payload: &HttpPayloadResult, load: &LoadSettings) -> String {
    format!(
        "{}: {} bytes over HTTP/1.1 on loopback, {}{}",
        payload.payload,
        thousands(payload.input_bytes),
        load_label(load.concurrency, load.bandwidth_mbit),
        if payload.interrupted {
            "; INTERRUPTED"
        } else {
            ""
        }
    )
}

/// The table, with the errors column only when a request failed (each failure is
/// also named on stderr), so that the usual table fits 100 columns.
fn table(payload: &HttpPayloadResult) -> Table {
    let mut table = Table::new(&HEADER, &NUMERIC, rows(payload));
    if payload.encodings.iter().all(|r| r.errors == 0) {
        table.header.pop();
        table.numeric.pop();
        table.rows.iter_mut().for_each(|row| drop(row.pop()));
    }
    table
}

/// One payload's table under a title line.
pub(crate) fn document(payload: &HttpPayloadResult, load: &LoadSettings) -> Document {
    let mut document = Document::new();
    document
        .title(title(payload, load))
        .table(table(payload))
        .notes(vec![
            "reqs: requests made; p50/p90/p99: latency from request to the last body byte;"
                .to_string(),
            "wire B: bytes on the wire per response; CPU ms: server CPU per response.".to_string(),
            "Every body was decoded and checked.".to_string(),
        ]);
    document
}

/// The CSV header line.
pub(crate) fn csv_header() -> Vec<u8> {
    super::csv::records([columns::http::ALL.map(String::from)])
}

/// One encoding's CSV row, header excluded, so rows can follow as encodings finish.
pub(crate) fn csv_row(
    payload: &HttpPayloadResult,
    load: &LoadSettings,
    r: &EncodingResult,
) -> Vec<u8> {
    let optional = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    let figure = |v: f64| super::csv::figure(Some(v));
    let bytes = |v: f64| format!("{v:.0}");
    super::csv::records([[
        payload.payload.clone(),
        payload.input_bytes.to_string(),
        r.encoding.clone(),
        load.concurrency.to_string(),
        optional(load.bandwidth_mbit),
        r.requests.to_string(),
        figure(r.requests_per_s),
        figure(r.p50_ms),
        figure(r.p90_ms),
        figure(r.p99_ms),
        bytes(r.wire_bytes),
        bytes(r.body_bytes),
        super::csv::ratio(Some(ratio(payload, r))),
        super::csv::figure(r.server_cpu_ms),
        r.errors.to_string(),
        payload.interrupted.to_string(),
    ]])
}

/// A whole report as CSV, with `in_progress` (a payload still being measured) after the
/// finished ones.
pub(crate) fn render_csv(report: &HttpReport, in_progress: Option<&HttpPayloadResult>) -> Vec<u8> {
    let mut out = csv_header();
    for payload in report.payloads.iter().chain(in_progress) {
        for result in &payload.encodings {
            out.extend(csv_row(payload, &report.load, result));
        }
    }
    out
}

/// A whole report as pretty JSON, with `in_progress` after the finished payloads. It
/// reads back into an [`HttpReport`].
pub(crate) fn render_json(report: &HttpReport, in_progress: Option<&HttpPayloadResult>) -> Vec<u8> {
    let mut document = serde_json::to_value(report).expect("an HTTP report serialises");
    let payloads = document["payloads"].as_array_mut().expect("payloads");
    payloads.extend(in_progress.map(|p| serde_json::to_value(p).expect("a payload serialises")));
    let mut out = serde_json::to_vec_pretty(&document).expect("an HTTP report serialises");
    out.push(b'\n');
    out
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! A fixed, hand-made HTTP report for snapshot and reader tests.

    use crate::results::http::{
        EncodingResult, HttpPayloadResult, HttpReport, LoadSettings, HTTP_KIND,
    };

    fn result(encoding: &str, rps: f64, p50: f64, wire: f64, body: f64) -> EncodingResult {
        EncodingResult {
            encoding: encoding.into(),
            requests: 5,
            requests_per_s: rps,
            p50_ms: p50,
            p90_ms: p50 * 1.2,
            p99_ms: p50 * 2.0,
            wire_bytes: wire,
            body_bytes: body,
            server_cpu_ms: Some(p50 * 0.6),
            latencies_ms: vec![p50 * 0.9, p50, p50, p50 * 1.2, p50 * 2.0],
            errors: 0,
            first_error: None,
        }
    }

    /// zstd:1, gzip:1 and identity on the small payload at 10 Mbit/s.
    pub(crate) fn report() -> HttpReport {
        HttpReport {
            schema_version: crate::results::run::SCHEMA_VERSION,
            kind: HTTP_KIND.into(),
            environment: crate::export::fixtures::report().environment,
            seed: 42,
            rng: "dotnet".into(),
            load: LoadSettings {
                concurrency: 1,
                requests: Some(5),
                duration_s: None,
                bandwidth_mbit: Some(10.0),
            },
            payloads: vec![HttpPayloadResult {
                payload: "small".into(),
                input_bytes: 298_727,
                sha256: Some(
                    "9729ade45b4123a360f345e1d0ba07aac996416fc75817c524070de5d648d578".into(),
                ),
                interrupted: false,
                encodings: vec![
                    result("zstd:1", 30.0, 32.8, 41_431.0, 41_132.0),
                    result("gzip:1", 18.0, 55.6, 70_149.0, 69_839.0),
                    result("identity", 4.2, 239.0, 299_010.0, 298_727.0),
                ],
            }],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_snapshot() {
        let report = fixtures::report();
        let text = super::super::text::table::render(&document(&report.payloads[0], &report.load));
        insta::assert_snapshot!(text);
    }

    #[test]
    fn failed_requests_bring_the_errors_column_and_auto_names_its_encoding() {
        let mut payload = fixtures::report().payloads[0].clone();
        assert!(!table(&payload).header.contains(&"errors".to_string()));
        payload.encodings[1].errors = 2;
        payload.encodings[2].encoding = "auto".to_string();
        let table = table(&payload);
        assert_eq!(table.header.last().unwrap(), "errors");
        assert_eq!(table.rows[1].last().unwrap(), "2");
        assert_eq!(table.rows[2][0], "auto → zstd:1");
    }

    #[test]
    fn markdown_snapshot() {
        let report = fixtures::report();
        let text =
            super::super::text::markdown::render(&document(&report.payloads[0], &report.load));
        insta::assert_snapshot!(text);
    }

    #[test]
    fn csv_snapshot() {
        let text = String::from_utf8(render_csv(&fixtures::report(), None)).unwrap();
        insta::assert_snapshot!(text);
    }

    #[test]
    fn json_reads_back_into_a_report() {
        let report = fixtures::report();
        let json = render_json(&report, None);
        let back: HttpReport = serde_json::from_slice(&json).unwrap();
        assert_eq!(back.kind, "http");
        assert_eq!(back.load, report.load);
        assert_eq!(back.payloads[0].encodings, report.payloads[0].encodings);
    }
}
