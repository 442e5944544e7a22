//! Rendering `probe`: a table per URL, CSV with a row per Accept-Encoding, and JSON.

use super::csv;
use super::text::document::{Document, Table};
use crate::format::{significant, thousands};
use crate::results::columns;
use crate::results::probe::{ProbeReport, ProbeRow, UrlResult};

const HEADER: [&str; 10] = [
    "asked", "HTTP", "sent", "body B", "wire B", "pred. B", "level", "TTFB ms", "total ms",
    "extra ms",
];
const NUMERIC: [bool; 10] = [false, true, false, true, true, true, true, true, true, true];

/// `browser*` for a browser's whole Accept-Encoding, which a note spells out.
pub(super) fn accept_label(accept: &str) -> String {
    if accept.contains(',') {
        "browser*".to_string()
    } else {
        accept.to_string()
    }
}

fn cells(row: &ProbeRow) -> Vec<String> {
    if row.failure.is_some() {
        let mut cells = vec![accept_label(&row.accept_encoding)];
        cells.push(if row.status == 0 {
            String::new()
        } else {
            row.status.to_string()
        });
        // The reason goes under the table, where it has the whole width.
        cells.push("FAILED".to_string());
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
pub(crate) fn document(url: &UrlResult, report: &ProbeReport) -> Document {
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
        "extra ms: time to the response head beyond the identity request's, what compressing costs the server.".into(),
    ];
    if let Some(server) = &report.server {
        notes.push(prediction_note(url, server));
    }
    if let Some(offered) = &url.dictionary {
        let size = offered.bytes.map_or("not fetched".to_string(), |b| {
            format!("{} bytes", thousands(b))
        });
        notes.push(format!(
            "dcz, dcb: Accept-Encoding: dcz (or dcb) with Available-Dictionary naming the dictionary at {} ({size}).",
            offered.url
        ));
    }
    for row in &url.rows {
        if let Some(why) = &row.failure {
            notes.push(format!(
                "{} FAILED: {why}",
                accept_label(&row.accept_encoding)
            ));
        }
    }
    document.notes(notes);
    document
}

/// What the predicted columns mean, with each level predicted and codecbench's time to
/// compress at it.
fn prediction_note(url: &UrlResult, server: &impl std::fmt::Display) -> String {
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
    format!(
        "pred. B, level: {server}'s own encoder at the level whose body matches (or comes nearest); codecbench compresses it at {}.",
        if list.is_empty() { "nothing".into() } else { list.join(", ") }
    )
}

/// Every row of `report`, with the header.
pub(crate) fn render_csv(report: &ProbeReport) -> Vec<u8> {
    let mut records: Vec<[String; columns::probe::ALL.len()]> =
        vec![columns::probe::ALL.map(String::from)];
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
                csv::figure(Some(row.body_bytes)),
                csv::figure(Some(row.wire_bytes)),
                row.predicted_level
                    .map(|l| l.to_string())
                    .unwrap_or_default(),
                row.predicted_body_bytes
                    .map(|b| b.to_string())
                    .unwrap_or_default(),
                csv::figure(row.predicted_compress_ms),
                csv::figure(Some(row.ttfb_p50_ms)),
                csv::figure(Some(row.ttfb_p99_ms)),
                csv::figure(Some(row.total_p50_ms)),
                csv::figure(Some(row.total_p99_ms)),
                csv::figure(row.server_extra_ms),
                row.failure.clone().unwrap_or_default(),
            ]);
        }
    }
    csv::records(records)
}

/// The whole report as pretty-printed JSON, ending in a newline.
pub(crate) fn render_json(report: &ProbeReport) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(report).expect("a probe report serialises");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! A fixed, hand-made probe of nginx for snapshot and reader tests.

    use crate::results::probe::{ProbeReport, ProbeRow, UrlResult, PROBE_KIND};

    fn row(accept: &str, encoding: &str, body: f64, total_ms: f64) -> ProbeRow {
        ProbeRow {
            accept_encoding: accept.into(),
            requests: 3,
            status: 200,
            encoding: encoding.into(),
            vary: Some("Accept-Encoding".into()),
            body_bytes: body,
            wire_bytes: body + 250.0,
            predicted_level: None,
            predicted_body_bytes: None,
            predicted_compress_ms: None,
            ttfb_p50_ms: total_ms * 0.8,
            ttfb_p99_ms: total_ms,
            total_p50_ms: total_ms,
            total_p99_ms: total_ms * 1.5,
            server_extra_ms: None,
            total_ms: vec![total_ms * 0.9, total_ms, total_ms * 1.5],
            failure: None,
        }
    }

    /// identity, gzip 6 (predicted exactly) and a br request that failed.
    pub(crate) fn report() -> ProbeReport {
        let mut gzip = row("gzip", "gzip", 47_113.0, 4.2);
        gzip.predicted_level = Some(6);
        gzip.predicted_body_bytes = Some(47_113);
        gzip.predicted_compress_ms = Some(3.1);
        gzip.server_extra_ms = Some(3.0);
        let br = ProbeRow {
            failure: Some(
                "the br body decodes to 12 bytes that differ from the identity body (298727 bytes)"
                    .into(),
            ),
            ..row("br", "br", 0.0, 0.0)
        };
        ProbeReport {
            schema_version: crate::results::run::SCHEMA_VERSION,
            kind: PROBE_KIND.into(),
            environment: crate::export::fixtures::report().environment,
            requests: 3,
            duration_s: 30.0,
            concurrency: 1,
            server: Some("nginx".into()),
            urls: vec![UrlResult {
                url: "http://127.0.0.1:8080/small.json".into(),
                identity_bytes: Some(298_727),
                rows: vec![row("identity", "identity", 298_727.0, 0.6), gzip, br],
                dictionary: None,
            }],
            interrupted: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_snapshot() {
        let report = fixtures::report();
        let text = super::super::text::table::render(&document(&report.urls[0], &report));
        insta::assert_snapshot!(text);
    }

    #[test]
    fn csv_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_csv(&fixtures::report())).unwrap());
    }
}
