//! Rendering `lab`: per server, what it sent beside codecbench's prediction, and what
//! compressing cost its process per response beside codecbench's encoder in process.

use super::text::document::{Document, Table};
use crate::format::{ms_figure, thousands};
use crate::results::lab::{LabReport, LabRow};
use crate::stats::Summary;
use crate::vocab::Variant;

const HEADER: [&str; 6] = [
    "body",
    "setting",
    "sent B",
    "predicted B",
    "server CPU ms (95%)",
    "in process ms (95%)",
];
const NUMERIC: [bool; 6] = [false, false, true, true, true, true];

/// `5.14 (5.06 to 6.29)`: a median with its 95% interval, or the median alone with too
/// few samples for one; empty without a figure.
fn with_interval(summary: Option<&Summary>) -> String {
    let Some(summary) = summary else {
        return String::new();
    };
    let median = ms_figure(summary.median_s);
    match summary.median_ci95_low_s.zip(summary.median_ci95_high_s) {
        Some((low, high)) => format!("{median} ({} to {})", ms_figure(low), ms_figure(high)),
        None => median,
    }
}

fn cells(row: &LabRow) -> Vec<String> {
    let setting = format!("{} {}", row.cell.codec.content_coding(), row.cell.level);
    if row.failure.is_some() {
        let mut cells = vec![row.payload.clone(), setting, "FAILED".into()];
        cells.resize(HEADER.len(), String::new());
        return cells;
    }
    vec![
        row.payload.clone(),
        setting,
        thousands(row.bytes_sent),
        row.predicted_bytes.map(thousands).unwrap_or_default(),
        with_interval(row.server_cpu.as_ref()),
        with_interval(row.in_process.as_ref()),
    ]
}

/// One table per server measured, and a line per server skipped.
pub(crate) fn documents(report: &LabReport) -> Vec<Document> {
    let mut documents = Vec::new();
    let (batches, requests) = report.load;
    for entry in &report.servers {
        let mut document = Document::new();
        if let Some(why) = &entry.skipped {
            document.heading(format!("{}: skipped", entry.server));
            document.notes(vec![why.clone()]);
            documents.push(document);
            continue;
        }
        let served = Variant::Served {
            server: entry.server,
        };
        let rows: Vec<&LabRow> = report
            .rows
            .iter()
            .filter(|r| r.cell.variant == served)
            .collect();
        document.heading(format!("measured through {}", entry.version));
        document.table(Table::new(
            &HEADER,
            &NUMERIC,
            rows.iter().map(|r| cells(r)).collect(),
        ));
        let identity = rows.iter().find_map(|r| r.identity_cpu.as_ref());
        let mut notes = vec![
            format!(
                "server CPU: the CPU time its process spent per response beyond an identity response's ({} ms), the median of {batches} batches of up to {requests} requests each (fewer where that many take over {} s), with its 95% interval.",
                identity.map_or("not measured".into(), |s| ms_figure(s.median_s)),
                crate::results::lab::BATCH_AIM.as_secs_f64()
            ),
        ];
        notes.extend(entry.notes.iter().cloned());
        for row in rows {
            if let Some(why) = &row.failure {
                notes.push(format!(
                    "{} {} {} FAILED: {why}",
                    row.payload, row.cell.codec, row.cell.level
                ));
            }
        }
        document.notes(notes);
        documents.push(document);
    }
    documents
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::text::document::Style;
    use crate::export::text::draw::render_each;
    use crate::results::lab::LabServer;
    use crate::vocab::{CellId, CodecKind, Library, Server};

    fn row(codec: CodecKind, level: i32, failure: Option<&str>) -> LabRow {
        let summary = |median: f64| {
            Summary::from_seconds(
                (0..12)
                    .map(|i| median * (0.95 + 0.01 * f64::from(i)))
                    .collect(),
            )
        };
        LabRow {
            payload: "small".into(),
            cell: CellId {
                codec,
                library: Library::Libbrotli,
                variant: Variant::Served {
                    server: Server::Apache,
                },
                level,
            },
            bytes_sent: 41_100,
            predicted_bytes: Some(41_100),
            server_cpu: summary(0.00688),
            identity_cpu: summary(0.00005),
            in_process: Summary::from_seconds(vec![0.0070]),
            failure: failure.map(String::from),
        }
    }

    fn report() -> LabReport {
        LabReport {
            run: crate::export::fixtures::report(),
            servers: vec![
                LabServer {
                    server: Server::Nginx,
                    version: "nginx 1.22.1".into(),
                    skipped: Some("nginx with ngx_brotli is not installed (Debian: nginx)".into()),
                    notes: Vec::new(),
                },
                LabServer {
                    server: Server::Apache,
                    version: "Apache httpd 2.4.71".into(),
                    skipped: None,
                    notes: vec!["predicted B, in process: codecbench's profile of apache (run --server apache), its encoder timed in this process.".into()],
                },
            ],
            rows: vec![
                row(CodecKind::Brotli, 5, None),
                row(CodecKind::Gzip, 6, Some("gzip: the server sent br")),
            ],
            load: (12, 10),
        }
    }

    #[test]
    fn text_snapshot() {
        let text = render_each(documents(&report()), Style::Terminal);
        insta::assert_snapshot!(String::from_utf8(text).unwrap());
    }
}
