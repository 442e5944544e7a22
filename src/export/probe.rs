//! Rendering `probe`: a table per URL, CSV with a row per Accept-Encoding, and JSON.

use super::document::{Document, Table};
use super::{csv::write_records, csv_figure};
use crate::format::{significant, thousands};
use crate::results::probe::{ProbeReport, ProbeRow, UrlResult};

const HEADER: [&str; 10] = [
    "asked",
    "status",
    "sent",
    "body B",
    "wire B",
    "predicted B",
    "level",
    "TTFB ms",
    "total ms",
    "server +ms",
];
const NUMERIC: [bool; 10] = [false, true, false, true, true, true, true, true, true, true];

/// `browser*` for a browser's whole Accept-Encoding, which a note spells out.
fn accept_label(accept: &str) -> String {
    if accept.contains(',') {
        "browser*".to_string()
    } else {
        accept.to_string()
    }
}

fn cells(row: &ProbeRow) -> Vec<String> {
    if let Some(why) = &row.failure {
        let mut cells = vec![accept_label(&row.accept_encoding)];
        cells.push(if row.status == 0 {
            String::new()
        } else {
            row.status.to_string()
        });
        cells.push(format!("FAILED: {why}"));
        cells.resize(HEADER.len(), String::new());
        return cells;
    }
    vec![
        accept_label(&row.accept_encoding),
        row.status.to_string(),
        row.encoding.clone(),
        thousands(row.body_bytes.round() as u64),
        thousands(row.wire_bytes.round() as u64),
        row.predicted_body_bytes.map(thousands).unwrap_or_default(),
        row.predicted_level
            .map(|l| l.to_string())
            .unwrap_or_default(),
        significant(row.ttfb_p50_ms, 3),
        significant(row.total_p50_ms, 3),
        row.server_extra_ms
            .map(|ms| format!("{ms:+.3}"))
            .unwrap_or_default(),
    ]
}

/// One URL's table, with what its columns mean.
pub fn document(url: &UrlResult, report: &ProbeReport) -> Document {
    let mut document = Document::new();
    let size = url
        .identity_bytes
        .map_or("no identity body".to_string(), |b| {
            format!("{} bytes", thousands(b))
        });
    document.heading(format!("{}: {size}", url.url));
    let rows = url.rows.iter().map(cells).collect();
    document.table(Table::new(&HEADER, &NUMERIC, rows));
    let browser = crate::vocab::BROWSER_ACCEPT_ENCODING;
    let mut notes = vec![
        format!(
            "Up to {} per Accept-Encoding over {}; every body was decoded and compared with the identity body.",
            crate::format::count(report.requests as u64, "request"),
            crate::format::count(report.concurrency as u64, "connection")
        ),
        format!("* browser: Accept-Encoding: {browser}. Times are p50."),
        "server +ms: time to the response head beyond the identity request's, what compressing costs the server.".into(),
    ];
    if let Some(server) = &report.server {
        let mut seen: Vec<(&str, i32)> = Vec::new();
        let mut list: Vec<String> = Vec::new();
        for row in &url.rows {
            let (Some(level), Some(ms)) = (row.predicted_level, row.predicted_compress_ms) else {
                continue;
            };
            if !seen.contains(&(row.encoding.as_str(), level)) {
                seen.push((row.encoding.as_str(), level));
                list.push(format!(
                    "{} level {level} in {} ms",
                    row.encoding,
                    significant(ms, 3)
                ));
            }
        }
        notes.push(format!(
            "predicted B, level: {server}'s own encoder at the level whose body matches (or comes nearest); codecbench compresses it at {}.",
            if list.is_empty() { "nothing".into() } else { list.join(", ") }
        ));
    }
    document.notes(notes);
    document
}

// NOTE: docs/schema.md documents these columns; change both together.
/// The CSV columns.
pub const COLUMNS: [&str; 18] = [
    "url",
    "identity_bytes",
    "accept_encoding",
    "requests",
    "status",
    "encoding",
    "vary",
    "body_bytes",
    "wire_bytes",
    "predicted_level",
    "predicted_body_bytes",
    "predicted_compress_ms",
    "ttfb_p50_ms",
    "ttfb_p99_ms",
    "total_p50_ms",
    "total_p99_ms",
    "server_extra_ms",
    "failure",
];

/// Every row of `report`, with the header.
pub fn render_csv(report: &ProbeReport) -> Vec<u8> {
    let mut records: Vec<[String; COLUMNS.len()]> = vec![COLUMNS.map(String::from)];
    for url in &report.urls {
        for row in &url.rows {
            records.push([
                url.url.clone(),
                url.identity_bytes
                    .map(|b| b.to_string())
                    .unwrap_or_default(),
                row.accept_encoding.clone(),
                row.requests.to_string(),
                row.status.to_string(),
                row.encoding.clone(),
                row.vary.clone().unwrap_or_default(),
                csv_figure(Some(row.body_bytes)),
                csv_figure(Some(row.wire_bytes)),
                row.predicted_level
                    .map(|l| l.to_string())
                    .unwrap_or_default(),
                row.predicted_body_bytes
                    .map(|b| b.to_string())
                    .unwrap_or_default(),
                csv_figure(row.predicted_compress_ms),
                csv_figure(Some(row.ttfb_p50_ms)),
                csv_figure(Some(row.ttfb_p99_ms)),
                csv_figure(Some(row.total_p50_ms)),
                csv_figure(Some(row.total_p99_ms)),
                csv_figure(row.server_extra_ms),
                row.failure.clone().unwrap_or_default(),
            ]);
        }
    }
    write_records(records)
}

/// The whole report as pretty-printed JSON, ending in a newline.
pub fn render_json(report: &ProbeReport) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(report).expect("a probe report serialises");
    bytes.push(b'\n');
    bytes
}
