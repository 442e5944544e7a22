//! The lines under a comparison's table: what was compared, every finding by name, and
//! why it fails.

use crate::analysis::compare::{
    Comparison, FailReason, MachineChange, Row, RowKey, SpeedBasis, SpeedChange, Verdict,
};
use crate::format::significant;
use crate::vocab::CellId;

/// One speed change written as a change in time, with its interval and its verdict.
pub(crate) fn speed_text(change: &Option<SpeedChange>) -> String {
    let Some(change) = change else {
        return "n/a".to_string();
    };
    // The judged change is in speed; written as a change in time, its band's ends
    // apart. The reference cell has no noise against itself: no interval.
    let band = change.noise.filter(|n| *n > 0.0);
    let (ratio, interval) = crate::format::log_band(-change.judged_change.ln_1p(), band);
    let text = crate::format::time_change(ratio, interval);
    match change.verdict.word() {
        "" => text,
        word => format!("{text} {word}"),
    }
}

/// What the instruction counts found: the counter, each cell with more instructions,
/// each cell not judged (five at most), and the counts.
fn instruction_lines(comparison: &Comparison) -> Vec<String> {
    let judged: Vec<&Row> = comparison
        .rows
        .iter()
        .filter(|r| !r.instructions.is_empty())
        .collect();
    let not_judged: Vec<&Row> = comparison
        .rows
        .iter()
        .filter(|r| r.instructions_not_judged.is_some())
        .collect();
    if judged.is_empty() && not_judged.is_empty() {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for row in &judged {
        for (direction, change) in &row.instructions {
            if change.verdict == Verdict::Regressed {
                lines.push(format!(
                    "MORE INSTRUCTIONS: {} {}: {} → {} per byte ({:+.2}%)",
                    row.key,
                    direction.name(),
                    significant(change.baseline_per_byte, 4),
                    significant(change.candidate_per_byte, 4),
                    change.change * 100.0
                ));
            }
        }
    }
    for row in not_judged.iter().take(5) {
        let why = row.instructions_not_judged.as_deref().unwrap_or_default();
        lines.push(format!(
            "instructions not judged: {}: {why}; sizes and time only",
            row.key
        ));
    }
    if not_judged.len() > 5 {
        lines.push(format!(
            "instructions not judged: {} more",
            not_judged.len() - 5
        ));
    }
    let more = judged.iter().filter(|r| r.instructions_regressed()).count();
    lines.push(format!(
        "instructions compared exactly on {}: {more} with more than +{}% per byte",
        crate::format::count(judged.len() as u64, "cell"),
        comparison.instructions_threshold * 100.0
    ));
    lines
}

/// The lines under the table: what was compared, and every finding by name.
pub(crate) fn summary_lines(comparison: &Comparison) -> Vec<String> {
    let basis = match &comparison.basis {
        _ if comparison.kind == "probe" && comparison.basis != SpeedBasis::Absolute => {
            "times normalised to each probe's identity request of the same URL".to_string()
        }
        SpeedBasis::Normalized { codec, level } => format!(
            "speeds normalised to each run's {} on the same payload",
            CellId::reference(*codec, *level)
        ),
        SpeedBasis::Absolute => "absolute speeds (MB/s)".to_string(),
    };
    let mut lines = vec![format!(
        "{} → {}: {}; a change counts when its whole noise band ({:.2} standard errors, for a 5% chance of any false alarm over all speeds) lies beyond {:.0}%",
        comparison.baseline,
        comparison.candidate,
        basis,
        comparison.z,
        comparison.threshold * 100.0
    )];
    if let Some(url) = one_url(comparison) {
        lines.push(format!("URL: {url}"));
    }
    if let Some(browser) = comparison.rows.iter().find_map(|r| match &r.key {
        RowKey::Probe(key) if key.accept_encoding.contains(',') => Some(&key.accept_encoding),
        _ => None,
    }) {
        lines.push(format!("* browser: Accept-Encoding: {browser}"));
    }
    lines.extend(drift_lines(comparison));
    lines.extend(machine_lines(comparison));
    lines.extend(finding_lines(comparison));
    lines.extend(sight_line(comparison));
    let failures = failure_lines(comparison);
    let mut verdict = if failures.is_empty() {
        "verdict: pass".to_string()
    } else {
        format!("verdict: FAIL ({})", failures.join(", "))
    };
    verdict.push_str(&absolute_verdict(comparison));
    lines.push(verdict);
    lines
}

/// The machine-level verdict beside the normalised one, with its weight: `; in absolute
/// time: FAIL (...)`. Under `--absolute` it is among the failures already.
fn absolute_verdict(comparison: &Comparison) -> String {
    if comparison.basis == SpeedBasis::Absolute || comparison.machine.is_empty() {
        return String::new();
    }
    let slower = comparison.machine_slowdowns().count() as u64;
    match slower {
        0 => "; in absolute time: pass".to_string(),
        n => format!(
            "; in absolute time: FAIL ({}; the exit code follows normalised speeds, --absolute gates on it)",
            crate::format::counted(n, "machine-level slowdown", "machine-level slowdowns")
        ),
    }
}

/// Every finding by name: library changes, size drifts, regressions, failures, missing
/// and extra results, and the counts.
fn finding_lines(comparison: &Comparison) -> Vec<String> {
    let mut lines = Vec::new();
    let drift_word = if comparison.allow_size_drift {
        "allowed"
    } else {
        "FAILS"
    };
    for (baseline, candidate) in comparison.library_changes() {
        lines.push(format!("library changed: {baseline} → {candidate}"));
    }
    for row in comparison.size_drifts() {
        lines.push(format!(
            "size drift ({drift_word}): {}: {} → {} bytes",
            row.key, row.baseline_bytes, row.candidate_bytes
        ));
    }
    for row in comparison.regressions() {
        lines.push(format!("regression: {}", row.key));
    }
    lines.extend(one_process_line(comparison));
    lines.extend(inconclusive_lines(comparison));
    lines.extend(instruction_lines(comparison));
    for failed in &comparison.failed {
        lines.push(format!(
            "FAILED in the candidate: {}: {}",
            failed.key, failed.reason
        ));
    }
    let missing_word = if comparison.allow_missing {
        "missing from candidate (allowed)"
    } else {
        "MISSING from candidate"
    };
    lines.extend(key_lines(missing_word, &comparison.missing));
    lines.extend(key_lines("only in candidate", &comparison.extra));
    let what = match comparison.kind {
        "http" => "HTTP encodings",
        "probe" => "probe rows",
        _ => "cells",
    };
    lines.push(format!(
        "{} {what} compared: {} regressed, {} inconclusive, {}, {} failed, {} missing, {} extra",
        comparison.rows.len(),
        comparison.regressions().count(),
        comparison.inconclusive().count(),
        crate::format::count(comparison.size_drifts().count() as u64, "size drift"),
        comparison.failed.len(),
        comparison.missing.len(),
        comparison.extra.len()
    ));
    lines
}

/// The drift each payload and direction's verdicts allowed for.
fn drift_lines(comparison: &Comparison) -> Vec<String> {
    comparison
        .drifts
        .iter()
        .map(|drift| {
            // The shift is a median speed change: written as time, like every change.
            let moved = crate::format::time_change(1.0 / (1.0 + drift.shift), None);
            let removed = match comparison.basis {
                SpeedBasis::Normalized { .. } => format!(
                    "shift of the other cells against the reference: {moved} (its own drift, removed)"
                ),
                SpeedBasis::Absolute => format!("shift of all cells together: {moved}"),
            };
            format!(
                "{} {}: {removed}; between-cell spread (standard deviation) {:.1}% over {} cells",
                drift.payload,
                drift.direction.name(),
                drift.spread * 100.0,
                drift.cells
            )
        })
        .collect()
}

/// Machine-level changes beyond threshold and noise: warnings, or failures with
/// `--absolute`.
fn machine_lines(comparison: &Comparison) -> Vec<String> {
    comparison
        .machine_changes()
        .map(|m| {
            let subject = if m.what == "reference" {
                "the reference itself".to_string()
            } else {
                format!("all {} cells together (median)", m.cells)
            };
            format!(
                "machine-level change ({}): {} {}: {subject} {} in absolute time",
                if m.verdict == Verdict::Regressed {
                    "FAILS"
                } else {
                    "faster"
                },
                m.payload,
                m.direction.name(),
                absolute_text(m)
            )
        })
        .collect()
}

/// A machine-level change in time with its band: `30.0% slower [+26.0%, +34.1%]`.
pub(crate) fn absolute_text(change: &MachineChange) -> String {
    let (ratio, interval) = crate::format::log_band(-change.change.ln_1p(), change.noise);
    crate::format::time_change(ratio, interval)
}

/// When a time regression was measured in one process: what else it can be, and what
/// tells them apart.
fn one_process_line(comparison: &Comparison) -> Option<String> {
    let in_one_process = comparison.regressions().any(|row| {
        row.speeds.iter().any(|(_, change)| {
            change
                .as_ref()
                .is_some_and(|c| c.verdict == Verdict::Regressed && c.processes == Some(1))
        })
    });
    in_one_process.then(|| {
        "measured in one process: a cell can run 20-50% slower for the whole life of a process on a shared machine; `run --iterations 15` (5 processes by default) or `--processes 15` tells a slower cell from a slower process".to_string()
    })
}

/// Each inconclusive speed (five at most, then a count) and what would settle it.
fn inconclusive_lines(comparison: &Comparison) -> Vec<String> {
    let needed = comparison.samples_for_a_verdict;
    let word = if comparison.strict {
        "inconclusive (FAILS with --strict)"
    } else {
        "inconclusive"
    };
    let mut lines = Vec::new();
    let mut count = 0;
    for row in comparison.inconclusive() {
        for (direction, change) in &row.speeds {
            let Some(change) = change
                .as_ref()
                .filter(|c| c.verdict == Verdict::Inconclusive)
            else {
                continue;
            };
            count += 1;
            if count > 5 {
                continue;
            }
            let more = if comparison.kind == "run" {
                "--iterations"
            } else {
                "--requests"
            };
            let why = if change.samples > 0 && change.samples < needed {
                format!(
                    "{}, {needed} needed to bound a median at the family's confidence: {more} {needed} or more settles it",
                    crate::format::count(change.samples as u64, "sample")
                )
            } else {
                let narrow = if comparison.kind == "run" {
                    "more iterations or --precision narrow it"
                } else {
                    "more requests narrow it"
                };
                format!(
                    "its band straddles the {:.0}% threshold: {narrow}",
                    comparison.threshold * 100.0
                )
            };
            let figure = speed_text(&Some(change.clone()));
            let figure = figure.trim_end_matches(change.verdict.word()).trim_end();
            lines.push(format!(
                "{word}: {} {}: {figure}: {why}",
                row.key,
                direction.name(),
            ));
        }
    }
    if count > 5 {
        lines.push(format!("{word}: {} more", count - 5));
    }
    lines
}

/// Names up to five keys one per line; more are counted by payload on one line.
fn key_lines(what: &str, keys: &[RowKey]) -> Vec<String> {
    if keys.len() <= 5 {
        return keys.iter().map(|key| format!("{what}: {key}")).collect();
    }
    let mut per_payload: Vec<(&str, usize)> = Vec::new();
    for key in keys {
        let payload = key.payload();
        match per_payload.iter_mut().find(|(p, _)| *p == payload) {
            Some((_, count)) => *count += 1,
            None => per_payload.push((payload, 1)),
        }
    }
    let counts: Vec<String> = per_payload
        .iter()
        .map(|(p, n)| format!("{p}: {n}"))
        .collect();
    vec![format!("{what}: {} ({})", keys.len(), counts.join(", "))]
}

/// How small a slowdown the comparison could have flagged, so that a pass which saw
/// little says so; `None` when no speed was judged.
fn sight_line(comparison: &Comparison) -> Option<String> {
    sight_text(comparison).map(|text| format!("could see: {text}"))
}

/// What [`sight_line`] says, without its label: `a slowdown of 18% or more on ...`.
pub(crate) fn sight_text(comparison: &Comparison) -> Option<String> {
    let sight = comparison.sight();
    let percent = |x: f64| format!("{:.0}%", x * 100.0);
    let blind = match sight.blind {
        0 => String::new(),
        n => format!(
            "; {n} of {} had too few samples to flag any",
            crate::format::count(sight.speeds as u64, "speed")
        ),
    };
    match (sight.median, sight.worst) {
        _ if sight.speeds == 0 => None,
        (Some(median), Some(worst)) => Some(format!(
            "a slowdown of {} or more on the median speed, {} on the least precise{blind}",
            percent(median),
            percent(worst)
        )),
        _ => Some("no slowdown at all: every speed had too few samples to flag any".to_string()),
    }
}

/// Why the comparison fails the job, one reason a line: `1 size drift`, `2 regressed`.
pub(crate) fn failure_lines(comparison: &Comparison) -> Vec<String> {
    comparison
        .failures()
        .into_iter()
        .map(|(reason, n)| {
            let (one, many) = match reason {
                FailReason::Failed => ("failed in the candidate", "failed in the candidate"),
                FailReason::Missing => ("missing from the candidate", "missing from the candidate"),
                FailReason::SizeDrift => ("size drift", "size drifts"),
                FailReason::Regressed => ("regressed", "regressed"),
                FailReason::MachineSlowdown => (
                    "machine-level slowdown (--absolute)",
                    "machine-level slowdowns (--absolute)",
                ),
                FailReason::Inconclusive => ("inconclusive (--strict)", "inconclusive (--strict)"),
                FailReason::MoreInstructions => (
                    "cell with more instructions",
                    "cells with more instructions",
                ),
            };
            crate::format::counted(n as u64, one, many)
        })
        .collect()
}

/// The URL of every probe row, when they share one.
pub(super) fn one_url(comparison: &Comparison) -> Option<&str> {
    let mut urls = comparison.rows.iter().filter_map(|r| match &r.key {
        RowKey::Probe(key) => Some(key.url.as_str()),
        _ => None,
    });
    let first = urls.next()?;
    urls.all(|u| u == first).then_some(first)
}
