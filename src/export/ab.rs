//! Rendering `ab`: the verdict first, the failing cells by name, then a row per cell with
//! each direction's time ratio, its interval and its verdict.

use super::text::document::{Document, Table};
use crate::analysis::compare::MUST_SEE;
use crate::bench::protocol::PROTOCOL;
use crate::format::{thousands, time_change};
use crate::results::ab::{AbCell, AbReport};
use crate::results::environment::Environment;
use crate::results::paired_times::{AbVerdict, Basis, PairedTimes};

/// The cell table's columns.
const HEADER: [&str; 8] = [
    "payload",
    "setting",
    "pairs",
    "could\nsee",
    "compress time\n(+ slower)",
    "verdict",
    "decompress time\n(+ slower)",
    "verdict",
];
/// Which of [`HEADER`]'s columns hold figures.
const NUMERIC: [bool; 8] = [false, false, true, true, true, false, true, false];

/// `5.2% slower [+3.0%, +7.0%]`: the candidate's time against the baseline's, with
/// its 95% interval.
fn ratio(times: &PairedTimes) -> String {
    match (times.estimate, times.low, times.high) {
        (Some(estimate), Some(low), Some(high)) => time_change(estimate, Some((low, high))),
        _ => times.median_ratio().map_or(String::new(), |m| {
            format!("{} (too few pairs)", time_change(m, None))
        }),
    }
}

/// What the baseline said of its build, for a build from before builds said.
const NOT_SAID: &str = "not said (a build from before ab asked)";

/// Both builds side by side, a line each: the program, its version and commit, its
/// compiler, its libraries and the worker protocol, as `(what, candidate, baseline)`.
pub(crate) fn builds(report: &AbReport) -> Vec<(&'static str, String, String)> {
    let (this, base) = (&report.environment, report.baseline_build.as_ref());
    let said = |fact: &dyn Fn(&Environment) -> Option<String>| {
        base.map_or(NOT_SAID.to_string(), |b| {
            fact(b).unwrap_or_else(|| "not recorded".into())
        })
    };
    let compiler = |e: &Environment| e.rustc.clone();
    vec![
        ("program", "this build".to_string(), report.baseline.clone()),
        ("codecbench", this.build(), said(&|b| Some(b.build()))),
        (
            "compiler",
            compiler(this).unwrap_or_else(|| "not recorded".into()),
            said(&compiler),
        ),
        (
            "libraries",
            this.libraries(),
            said(&|b| Some(b.libraries())),
        ),
        (
            "worker protocol",
            PROTOCOL.to_string(),
            report.baseline_protocol.to_string(),
        ),
    ]
}

/// One cell's row under [`HEADER`].
fn row(cell: &AbCell) -> Vec<String> {
    let setting = format!("{}", cell.id);
    let pairs = cell.compress.ratios.len().to_string();
    if let Some(failure) = &cell.failure {
        let mut row = vec![
            cell.payload.clone(),
            setting,
            pairs,
            String::new(),
            format!("FAILED: {failure}"),
        ];
        row.resize(HEADER.len(), String::new());
        return row;
    }
    let [compress, decompress] = cell.verdicts;
    let sight = cell.could_see();
    vec![
        cell.payload.clone(),
        setting,
        pairs,
        sight.map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0)),
        ratio(&cell.compress),
        verdict_word(compress, &cell.compress),
        ratio(&cell.decompress),
        verdict_word(decompress, &cell.decompress),
    ]
}

/// `same`, or `same (CPU)` for a verdict read on the CPU clock.
fn verdict_word(verdict: AbVerdict, times: &PairedTimes) -> String {
    format!("{}{}", verdict.word(), times.basis.mark())
}

/// What the clocks did, when a verdict read the CPU clock or a pair waited: `None`
/// when every verdict read the wall clock and nothing waited.
pub(crate) fn clocks_line(report: &AbReport) -> Option<String> {
    let directions: Vec<&PairedTimes> = (report.cells.iter())
        .filter(|c| c.failure.is_none())
        .flat_map(|c| [&c.compress, &c.decompress])
        .collect();
    let on_cpu = directions.iter().filter(|t| t.basis == Basis::Cpu).count();
    let waited: usize = directions.iter().map(|t| t.waited.len()).sum();
    let pairs: usize = directions.iter().map(|t| t.ratios.len()).sum();
    (on_cpu + waited > 0).then(|| {
        format!(
            "(CPU): decided on the measuring thread's CPU time, whose interval was narrower \
             than the wall clock's: {on_cpu} of {} directions. Of all directions' {pairs} \
             pairs, {waited} had a batch that waited off the CPU: their wall-clock ratios were \
             left out.",
            directions.len()
        )
    })
}

/// `cells` of `report` as a table, a row each. The payload column is left out when
/// the run measured one payload (the notes name it): the table then fits 100 columns.
pub(crate) fn table(report: &AbReport, cells: &[&AbCell]) -> Table {
    let skip = usize::from(single_payload(report).is_some());
    let rows = cells.iter().map(|c| row(c)[skip..].to_vec()).collect();
    Table::new(&HEADER[skip..], &NUMERIC[skip..], rows)
}

/// The payload's name and size, when every cell measured the same one.
fn single_payload(report: &AbReport) -> Option<(&str, u64)> {
    let first = report.cells.first()?;
    report
        .cells
        .iter()
        .all(|c| c.payload == first.payload)
        .then_some((first.payload.as_str(), first.input_bytes))
}

/// How many cells have each verdict in either direction: `2 slower, 31 same`.
pub(crate) fn tally(report: &AbReport) -> String {
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
    let same = report.cells.iter().filter(|c| c.same_both_ways()).count();
    parts.push(format!("{same} the same both ways"));
    parts.join(", ")
}

/// The whole report: the verdict and the failing cells first, then every cell.
pub(crate) fn document(report: &AbReport) -> Document {
    let mut document = Document::new();
    let failures = report.failures();
    let verdict = match (failures.is_empty(), report.interrupted) {
        (_, true) => "Interrupted",
        (false, false) => "Fails",
        (true, false) if report.out_of_time => "Out of time",
        (true, false) if report.could_miss(MUST_SEE) => {
            "Passes, but could have missed a 2x slowdown"
        }
        (true, false) => "Passes",
    };
    document.title(format!(
        "{verdict}: {} of {} cells failed ({})",
        failures.len(),
        report.cells.len(),
        tally(report)
    ));
    let mut notes: Vec<String> = failing(report)
        .into_iter()
        .map(|[cell, why, detail]| format!("{cell}: {why}: {detail}"))
        .collect();
    if report.out_of_time {
        notes.push(format!(
            "--max-time ran out after {:.0} s, a batch in flight cut short: every cell not \
             decided above is inconclusive, and a cell not shown was not measured.",
            report.seconds
        ));
    }
    notes.push(sight_line(report));
    notes.extend(clocks_line(report));
    let on = single_payload(report).map_or(String::new(), |(name, bytes)| {
        format!(", on {name} ({} bytes)", thousands(bytes))
    });
    notes.push(format!(
        "The candidate's change in time against the baseline (+ slower) with its 95% interval{on}, in {:.0} s.",
        report.seconds
    ));
    let baseline = builds(report)
        .into_iter()
        .map(|(what, _, baseline)| format!("{what} {baseline}"))
        .collect::<Vec<_>>()
        .join("; ");
    notes.push(format!("Baseline: {baseline}."));
    if let Some(calibration) = &report.calibration {
        notes.push(format!("Calibration hook on the candidate: {calibration}."));
    }
    // A gap, or Markdown reads the table as the last note's continuation.
    document.notes(notes).gap();
    let cells: Vec<&AbCell> = report.cells.iter().collect();
    document.table(table(report, &cells));
    document
}

/// Each cell that fails the run: its name, what it fails as, and the figures that say so.
pub(crate) fn failing(report: &AbReport) -> Vec<[String; 3]> {
    let failures = report.failures();
    failures
        .into_iter()
        .map(|cell| {
            let name = format!("{} {}", cell.payload, cell.id);
            match (&cell.failure, cell.size_drift()) {
                (Some(why), _) => [name, "failed".to_string(), why.clone()],
                (None, true) => [
                    name,
                    "size drift".to_string(),
                    format!(
                        "{} bytes here, {} in the baseline",
                        thousands(cell.candidate_bytes),
                        thousands(cell.baseline_bytes)
                    ),
                ],
                (None, false) => [
                    name,
                    "slower".to_string(),
                    format!(
                        "compress {}, decompress {}",
                        ratio(&cell.compress),
                        ratio(&cell.decompress)
                    ),
                ],
            }
        })
        .collect()
}

/// How small a slowdown every cell could have shown, in a sentence.
pub(crate) fn sight_line(report: &AbReport) -> String {
    match report.could_see() {
        Some(seen) => {
            let least = report
                .least_sighted()
                .map_or(String::new(), |(cell, direction)| {
                    format!(", set by {} {} {direction}", cell.payload, cell.id)
                });
            format!(
                "A slowdown of {:.1}% or more would have shown in every cell (threshold {:.1}%, \
                 aim {:.1}%{least}).",
                seen * 100.0,
                report.threshold * 100.0,
                report.sight_target * 100.0
            )
        }
        None => {
            "Some cells got too few pairs for an interval: they could show no change.".to_string()
        }
    }
}

/// The report as JSON: every cell's pairs, interval and verdicts.
pub(crate) fn json(report: &AbReport) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(report).expect("an A/B report serializes");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures::{ab_report, ab_report_without_intervals};
    use crate::export::text::document::Style;
    use crate::export::text::draw::render;

    fn text(report: &AbReport, style: Style) -> String {
        String::from_utf8(render(&document(report), style)).unwrap()
    }

    #[test]
    fn text_snapshot() {
        insta::assert_snapshot!(text(&ab_report(), Style::Terminal));
    }

    #[test]
    fn markdown_snapshot() {
        insta::assert_snapshot!(text(&ab_report(), Style::Markdown));
    }

    #[test]
    fn a_pass_that_could_not_see_2x_says_so_first() {
        let shown = text(&ab_report_without_intervals(), Style::Terminal);
        assert!(
            shown.starts_with("Passes, but could have missed a 2x slowdown: 0 of 1 cells"),
            "{shown}"
        );
    }
}
