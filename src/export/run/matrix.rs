//! `run`'s matrix: one table per payload, a row per cell, under a title line, with any
//! failures and cells short of `--precision` noted below.

use crate::export::labels::{iteration_text, library_text};
use crate::export::text::document::{Document, Table};
use crate::format::{duration_text, significant, thousands};
use crate::results::run::{CellResult, PayloadResult};
use crate::stats::Summary;

/// One payload's matrix as a document.
pub(crate) fn document(payload: &PayloadResult) -> Document {
    let mut document = Document::new();
    let mut notes = legend(payload);
    let mut header = MATRIX_HEADER.to_vec();
    let mut numeric = MATRIX_NUMERIC.to_vec();
    let mut rows = matrix_rows(payload);
    if payload
        .cells
        .iter()
        .any(|c| c.compress_instructions.is_some())
    {
        // Instructions per uncompressed byte, each way: what `compare` judges exactly.
        header.push("instr/B\nc / d");
        numeric.push(true);
        for (row, cell) in rows.iter_mut().zip(&payload.cells) {
            row.push(instructions_text(payload.input_bytes, cell));
        }
        notes.push("instr/B: instructions per input byte compressing / decompressing, counted under callgrind, one call each way after an uncounted one; exact, unlike time.".into());
    }
    notes.extend(cpu_columns(payload, &mut header, &mut numeric, &mut rows));
    notes.extend(failure_lines(payload));
    document
        .title(matrix_title(payload))
        .table(Table::new(&header, &numeric, rows))
        .notes(notes);
    document
}

/// A column of CPU time each way when some cell's wall time exceeds its CPU time by
/// more than the noise, filled for those cells; the line that says what it shows, or
/// that the two clocks agreed.
fn cpu_columns(
    payload: &PayloadResult,
    header: &mut Vec<&str>,
    numeric: &mut Vec<bool>,
    rows: &mut [Vec<String>],
) -> Option<String> {
    let timed: Vec<&Summary> = payload
        .cells
        .iter()
        .flat_map(directions)
        .flatten()
        .collect();
    if timed.is_empty() || timed.iter().any(|s| s.cpu.is_none()) {
        return None;
    }
    let most = timed.iter().filter_map(|s| s.waited()).reduce(f64::max);
    let Some(most) = most else {
        return Some("CPU time: within the noise of the wall time in every cell.".into());
    };
    header.push("CPU time\nc / d");
    numeric.push(true);
    for (row, cell) in rows.iter_mut().zip(&payload.cells) {
        let [compress, decompress] = directions(cell).map(|summary| {
            let waited = summary.filter(|s| s.waited().is_some());
            let cpu = waited.and_then(|s| s.cpu.as_ref());
            cpu.map_or("-".to_string(), |cpu| duration_text(cpu.median_s))
        });
        row.push(match (compress.as_str(), decompress.as_str()) {
            ("-", "-") => String::new(),
            _ => format!("{compress} / {decompress}"),
        });
    }
    Some(format!(
        "CPU time: the thread's own, compressing / decompressing, shown where the wall time exceeds it by more than the noise (by up to {:.0}%): the thread waited off the CPU while timed, so its wall time overstates the work.",
        most * 100.0
    ))
}

/// A cell's two timings, compression first.
fn directions(cell: &CellResult) -> [Option<&Summary>; 2] {
    [cell.compress.as_ref(), cell.decompress.as_ref()]
}

/// `22.8 / 63.3`: a cell's instructions per input byte, compressing and decompressing.
fn instructions_text(input_bytes: u64, cell: &CellResult) -> String {
    let per_byte = |n: Option<u64>| {
        n.map(|n| significant(n as f64 / input_bytes.max(1) as f64, 3))
            .unwrap_or_default()
    };
    match (cell.compress_instructions, cell.decompress_instructions) {
        (None, None) => String::new(),
        (c, d) => format!("{} / {}", per_byte(c), per_byte(d)),
    }
}

/// Column titles of the human-readable matrices (table and Markdown); the renderers
/// turn the line breaks into spaces where a header must be one line.
const MATRIX_HEADER: [&str; 8] = [
    "setting",
    "library",
    "bytes",
    "ratio",
    "compress\nMB/s",
    "compress\ntime",
    "decompress\nMB/s",
    "decompress\ntime",
];

/// Whether each matrix column holds numbers, so should be right-aligned.
const MATRIX_NUMERIC: [bool; 8] = [false, false, true, true, true, true, true, true];

/// Marks a figure from one timed iteration, whose spread cannot be known.
pub(crate) const SINGLE_SAMPLE: &str = "*";

/// One payload's matrix as display strings, one row per cell.
fn matrix_rows(payload: &PayloadResult) -> Vec<Vec<String>> {
    payload
        .cells
        .iter()
        .map(|cell| matrix_row(payload.input_bytes, cell).to_vec())
        .collect()
}

fn matrix_row(input_bytes: u64, cell: &CellResult) -> [String; 8] {
    let figures = |summary: Option<&Summary>| -> [String; 2] {
        if cell.failure.is_some() {
            return ["FAILED".to_string(), String::new()];
        }
        let Some(summary) = summary else {
            return [String::new(), String::new()];
        };
        let mark = if summary.samples_s.len() < 2 {
            SINGLE_SAMPLE
        } else {
            ""
        };
        [
            format!("{}{mark}", significant(summary.median_mb_s(input_bytes), 3)),
            format!("{}{mark}", duration_text(summary.median_s)),
        ]
    };
    let [compress_mb_s, compress_time] = figures(cell.compress.as_ref());
    let [decompress_mb_s, decompress_time] = figures(cell.decompress.as_ref());
    [
        format!("{} {}", cell.id.codec, cell.id.level),
        library_text(&cell.id),
        thousands(cell.compressed_bytes),
        cell.ratio(input_bytes)
            .map(|r| format!("{r:.2}"))
            .unwrap_or_default(),
        compress_mb_s,
        compress_time,
        decompress_mb_s,
        decompress_time,
    ]
}

/// Lines under the table that say what its marks and names mean: which levels .NET's
/// named levels are (`.NET Fastest/Optimal/SmallestSize: zstd 1/3/-, gzip 1/6/9`), and
/// the single-iteration mark when a cell has it.
fn legend(payload: &PayloadResult) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut codecs: Vec<String> = Vec::new();
    for cell in &payload.cells {
        if let Some(name) = &cell.dotnet_level {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
            let codec = cell.id.codec.to_string();
            if !codecs.contains(&codec) {
                codecs.push(codec);
            }
        }
    }
    let level = |codec: &str, name: &str| {
        payload
            .cells
            .iter()
            .find(|c| c.id.codec.to_string() == codec && c.dotnet_level.as_deref() == Some(name))
            .map(|c| c.id.level.to_string())
            .unwrap_or("-".to_string())
    };
    let mut lines = Vec::new();
    if !names.is_empty() {
        let per_codec: Vec<String> = codecs
            .iter()
            .map(|codec| {
                let levels: Vec<String> = names.iter().map(|n| level(codec, n)).collect();
                format!("{codec} {}", levels.join("/"))
            })
            .collect();
        lines.push(format!(
            ".NET {}: {}",
            names.join("/"),
            per_codec.join(", ")
        ));
    }
    lines.extend(crate::export::labels::server_notes(
        payload.cells.iter().map(|c| c.id.variant),
    ));
    let single = payload.cells.iter().any(|c| {
        [&c.compress, &c.decompress]
            .into_iter()
            .flatten()
            .any(|s| s.samples_s.len() < 2)
    });
    if single {
        lines.push(format!(
            "{SINGLE_SAMPLE} one timed iteration: its spread is unknown (raise --iterations, --min-time or --max-iterations)"
        ));
    }
    lines
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    #[test]
    fn a_single_iteration_is_marked_and_explained() {
        let mut payload = fixtures::report().payloads[0].clone();
        payload.cells[1].compress = Summary::from_seconds(vec![0.1]);
        let rows = matrix_rows(&payload);
        assert_eq!(rows[1][4], "2.99*");
        assert_eq!(rows[1][5], "100 ms*");
        assert_eq!(rows[1][6], "1494", "the other direction had 3 iterations");
        assert!(!rows[0].iter().any(|c| c.contains(SINGLE_SAMPLE)));
        let notes = legend(&payload);
        assert!(notes[1].starts_with("* one timed iteration"), "{notes:?}");
        assert_eq!(legend(&fixtures::report().payloads[0]).len(), 1);
    }

    #[test]
    fn cpu_time_shows_only_where_the_thread_waited() {
        let mut payload = fixtures::report().payloads[0].clone();
        let table =
            |payload: &PayloadResult| crate::export::text::table::render(&document(payload));
        let quiet = table(&payload);
        assert!(quiet.contains("CPU time: within the noise of the wall time in every cell."));
        assert!(!quiet.contains("c / d"), "{quiet}");
        // The first cell's compression took twice its CPU time on the wall clock.
        let wall = payload.cells[0].compress.clone().unwrap();
        let half: Vec<f64> = wall.samples_s.iter().map(|s| s / 2.0).collect();
        payload.cells[0].compress = Some(wall.with_cpu(half));
        let rows = {
            let (mut header, mut numeric, mut rows) = (vec![], vec![], matrix_rows(&payload));
            let note = cpu_columns(&payload, &mut header, &mut numeric, &mut rows).unwrap();
            assert!(note.contains("by up to 100%"), "{note}");
            rows
        };
        assert!(rows[0].last().unwrap().ends_with(" / -"), "{:?}", rows[0]);
        assert_eq!(
            rows[1].last().unwrap(),
            "",
            "the second cell's clocks agreed"
        );
        let loaded = table(&payload);
        assert!(
            loaded.contains("c / d") && loaded.contains("waited off the CPU"),
            "{loaded}"
        );
    }
}
