//! Rendering `ab`: the verdict first, the failing cells by name, then a row per cell with
//! each direction's time ratio, its interval and its verdict.

use super::text::document::{Document, Table};
use crate::format::thousands;
use crate::results::ab::{AbCell, AbReport, AbVerdict, PairedTimes};

const HEADER: [&str; 7] = [
    "payload",
    "setting",
    "pairs",
    "compress",
    "verdict",
    "decompress",
    "verdict",
];
const NUMERIC: [bool; 7] = [false, false, true, true, false, true, false];

/// `1.052 (1.03–1.07)`: candidate ÷ baseline time and its 95% interval.
fn ratio(times: &PairedTimes) -> String {
    match (times.estimate, times.low, times.high) {
        (Some(estimate), Some(low), Some(high)) => {
            format!("{estimate:.3} ({low:.2}–{high:.2})")
        }
        _ => times
            .median_ratio()
            .map_or(String::new(), |m| format!("{m:.3} (too few pairs)")),
    }
}

fn row(cell: &AbCell) -> Vec<String> {
    let setting = format!("{}", cell.id);
    let pairs = cell.compress.ratios.len().to_string();
    if let Some(failure) = &cell.failure {
        let mut row = vec![
            cell.payload.clone(),
            setting,
            pairs,
            format!("FAILED: {failure}"),
        ];
        row.resize(HEADER.len(), String::new());
        return row;
    }
    let [compress, decompress] = cell.verdicts;
    vec![
        cell.payload.clone(),
        setting,
        pairs,
        ratio(&cell.compress),
        compress.word().to_string(),
        ratio(&cell.decompress),
        decompress.word().to_string(),
    ]
}

/// How many cells have each verdict in either direction: `2 slower, 31 same`.
fn tally(report: &AbReport) -> String {
    let count = |verdict: AbVerdict| {
        report
            .cells
            .iter()
            .filter(|c| c.failure.is_none() && c.verdicts.contains(&verdict))
            .count()
    };
    let drifts = report.cells.iter().filter(|c| c.size_drift()).count();
    let failed = report.cells.iter().filter(|c| c.failure.is_some()).count();
    let mut parts = Vec::new();
    for (n, word) in [
        (count(AbVerdict::Slower), "slower"),
        (drifts, "with a size drift"),
        (failed, "failed"),
        (count(AbVerdict::Faster), "faster"),
        (count(AbVerdict::Inconclusive), "inconclusive"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    let same = report
        .cells
        .iter()
        .filter(|c| c.failure.is_none() && c.verdicts == [AbVerdict::Same; 2])
        .count();
    parts.push(format!("{same} the same both ways"));
    parts.join(", ")
}

/// The whole report: the verdict and the failing cells first, then every cell.
pub(crate) fn document(report: &AbReport) -> Document {
    let mut document = Document::new();
    let failures = report.failures();
    let verdict = match (failures.is_empty(), report.interrupted) {
        (_, true) => "Interrupted",
        (true, false) => "Passes",
        (false, false) => "Fails",
    };
    document.title(format!(
        "{verdict}: {} of {} cells ({})",
        failures.len(),
        report.cells.len(),
        tally(report)
    ));
    let mut notes = Vec::new();
    for cell in &failures {
        notes.push(match (&cell.failure, cell.size_drift()) {
            (Some(why), _) => format!("{} {}: failed: {why}", cell.payload, cell.id),
            (None, true) => format!(
                "{} {}: size drift: {} bytes here, {} in the baseline",
                cell.payload,
                cell.id,
                thousands(cell.candidate_bytes),
                thousands(cell.baseline_bytes)
            ),
            (None, false) => format!(
                "{} {}: slower: compress {}, decompress {}",
                cell.payload,
                cell.id,
                ratio(&cell.compress),
                ratio(&cell.decompress)
            ),
        });
    }
    notes.push(match report.could_see() {
        Some(seen) => format!(
            "A slowdown of {:.1}% or more would have shown in every cell (threshold {:.1}%).",
            seen * 100.0,
            report.threshold * 100.0
        ),
        None => {
            "Some cells got too few pairs for an interval: they could show no change.".to_string()
        }
    });
    notes.push(format!(
        "Candidate time ÷ baseline time ({}, protocol {}), 95% interval; {:.0} s.",
        report.baseline, report.baseline_protocol, report.seconds
    ));
    if let Some(calibration) = &report.calibration {
        notes.push(format!("Calibration hook on the candidate: {calibration}."));
    }
    document.notes(notes);
    let rows = report.cells.iter().map(row).collect();
    document.table(Table::new(&HEADER, &NUMERIC, rows));
    document
}

/// The report as JSON: every cell's pairs, interval and verdicts.
pub(crate) fn json(report: &AbReport) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(report).expect("an A/B report serializes");
    bytes.push(b'\n');
    bytes
}
