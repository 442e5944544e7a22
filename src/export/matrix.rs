//! `run`'s matrix: one table per payload, a row per cell, under a title line, with any
//! failures and cells short of `--precision` noted below.

use super::document::{Document, Table};
use super::{iteration_text, library_text, significant, thousands};
use crate::results::codec::{CellResult, PayloadResult};

/// One payload's matrix as a document.
pub fn document(payload: &PayloadResult) -> Document {
    let mut document = Document::new();
    document
        .title(matrix_title(payload))
        .table(Table::new(
            &MATRIX_HEADER,
            &MATRIX_NUMERIC,
            matrix_rows(payload),
        ))
        .notes(failure_lines(payload));
    document
}

/// Column titles of the human-readable matrices (table and Markdown).
const MATRIX_HEADER: [&str; 8] = [
    "codec",
    "library",
    "level",
    ".NET level",
    "bytes",
    "ratio",
    "compress MB/s",
    "decompress MB/s",
];

/// Whether each matrix column holds numbers, so should be right-aligned.
const MATRIX_NUMERIC: [bool; 8] = [false, false, true, false, true, true, true, true];

/// One payload's matrix as display strings, one row per cell.
fn matrix_rows(payload: &PayloadResult) -> Vec<Vec<String>> {
    payload
        .cells
        .iter()
        .map(|cell| matrix_row(payload.input_bytes, cell).to_vec())
        .collect()
}

fn matrix_row(input_bytes: u64, cell: &CellResult) -> [String; 8] {
    let speed = |mb_s: Option<f64>| match (mb_s, &cell.failure) {
        (_, Some(_)) => "FAILED".to_string(),
        (Some(v), None) => significant(v, 3),
        (None, None) => String::new(),
    };
    [
        cell.id.codec.to_string(),
        library_text(&cell.id),
        cell.id.level.to_string(),
        cell.dotnet_level.clone().unwrap_or_default(),
        thousands(cell.compressed_bytes),
        cell.ratio(input_bytes)
            .map(|r| format!("{r:.2}"))
            .unwrap_or_default(),
        speed(cell.compress_mb_s(input_bytes)),
        speed(cell.decompress_mb_s(input_bytes)),
    ]
}

/// The line above each payload's matrix.
fn matrix_title(payload: &PayloadResult) -> String {
    format!(
        "{}: {} bytes, median of {}",
        payload.payload,
        thousands(payload.input_bytes),
        iteration_text(payload)
    )
}

/// Failed cells of one payload, one line each, then the cells whose interval did not
/// reach `--precision`.
fn failure_lines(payload: &PayloadResult) -> Vec<String> {
    let mut lines = failed_lines(payload);
    let imprecise: Vec<String> = payload
        .cells
        .iter()
        .filter(|c| c.precision_met == Some(false))
        .map(|c| c.id.to_string())
        .collect();
    if let (Some(target), false) = (payload.precision, imprecise.is_empty()) {
        lines.push(format!(
            "precision ±{}% not reached within the budget: {}",
            significant(target * 100.0, 2),
            imprecise.join(", ")
        ));
    }
    lines
}

/// Failed cells of one payload, one line each.
fn failed_lines(payload: &PayloadResult) -> Vec<String> {
    payload
        .cells
        .iter()
        .filter_map(|c| {
            c.failure
                .as_ref()
                .map(|why| format!("FAILED {} {}: {why}", c.id, c.version))
        })
        .collect()
}
