//! Rendering `lab`: per server, what it sent beside codecbench's prediction, and what
//! compressing cost its process per response beside codecbench's encoder in process.

use super::text::document::{Document, Table};
use crate::format::{ms_figure, thousands};
use crate::results::lab::{LabReport, LabRow};
use crate::stats::Summary;
use crate::vocab::Variant;

const HEADER: [&str; 7] = [
    "body",
    "setting",
    "sent B",
    "predicted B",
    "server CPU ms",
    "95% interval",
    "in process ms",
];
const NUMERIC: [bool; 7] = [false, false, true, true, true, false, true];

/// `1.23` ms, or empty.
fn median(summary: Option<&Summary>) -> String {
    summary.map(|s| ms_figure(s.median_s)).unwrap_or_default()
}

/// `1.20 to 1.31`, or empty without enough batches.
fn interval(summary: Option<&Summary>) -> String {
    match summary.and_then(|s| s.median_ci95_low_s.zip(s.median_ci95_high_s)) {
        Some((low, high)) => format!("{} to {}", ms_figure(low), ms_figure(high)),
        None => String::new(),
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
        median(row.server_cpu.as_ref()),
        interval(row.server_cpu.as_ref()),
        median(row.in_process.as_ref()),
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
        let mut notes = vec![
            format!(
                "server CPU: the CPU time its process spent per response beyond an identity response's, the median of {batches} batches of {requests} requests each, with its 95% interval."
            ),
            format!("predicted B, in process: codecbench's profile of {} (run --server {}), its encoder timed in this process.", entry.server, entry.server),
        ];
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
