//! Rendering a comparison of two runs: table, Markdown or JSON.

use super::document::{Document, Table};
use crate::analysis::compare::{
    Comparison, Direction, FailReason, Row, RowKey, SpeedBasis, SpeedChange, Verdict,
};
use crate::format::thousands;
use crate::results::probe::ProbeKey;
use crate::results::{CellKey, HttpKey};
use crate::vocab::CellId;

const HEADER: [&str; 5] = ["payload", "setting", "bytes", "compress", "decompress"];
const NUMERIC: [bool; 5] = [false, false, true, true, true];

fn speed_text(change: &Option<SpeedChange>) -> String {
    let Some(change) = change else {
        return "n/a".to_string();
    };
    // The band is in log units; show the bound on the side of the change, as a percentage.
    // The reference cell has no noise against itself: show none rather than ±0.0%.
    let noise = change
        .noise
        .filter(|n| *n > 0.0)
        .map(|n| {
            let bound = if change.judged_change < 0.0 {
                -(-n).exp_m1()
            } else {
                n.exp_m1()
            };
            format!(" ±{:.1}%", bound * 100.0)
        })
        .unwrap_or_default();
    let word = change.verdict.word();
    let text = format!("{:+.1}%{noise}", change.judged_change * 100.0);
    if word.is_empty() {
        text
    } else {
        format!("{text} {word}")
    }
}

const HTTP_HEADER: [&str; 5] = ["payload", "encoding", "load", "body bytes", "speed"];
const HTTP_NUMERIC: [bool; 5] = [false, false, false, true, true];

/// `a → b DRIFT` when two sizes differ, else the size.
fn bytes_text(baseline: u64, candidate: u64) -> String {
    if baseline == candidate {
        thousands(baseline)
    } else {
        format!("{} → {} DRIFT", thousands(baseline), thousands(candidate))
    }
}

/// The cells' table: payload, setting (`zstd 1 (libzstd) ref` for the reference),
/// bytes, speeds.
fn cell_row(row: &Row, key: &CellKey) -> Vec<String> {
    let mut setting = key.id.to_string();
    if row.is_reference {
        setting.push_str(" ref");
    }
    vec![
        key.payload.clone(),
        setting,
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::Compress).cloned()),
        speed_text(&row.speed(Direction::Decompress).cloned()),
    ]
}

/// The encodings' table: payload, encoding, load, body bytes, delivered speed.
fn http_row(row: &Row, key: &HttpKey) -> Vec<String> {
    vec![
        key.payload.clone(),
        key.encoding.label(),
        key.load.clone(),
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::HttpLatency).cloned()),
    ]
}

const PROBE_HEADER: [&str; 5] = ["url", "Accept-Encoding", "sent", "body bytes", "speed"];
const PROBE_NUMERIC: [bool; 5] = [false, false, false, true, true];

/// The probe rows' table: URL, Accept-Encoding, what the server sent (`br → gzip` when
/// it changed), body bytes, delivered speed.
fn probe_row(row: &Row, key: &ProbeKey) -> Vec<String> {
    let sent = match &row.versions {
        Some((before, after)) if before != after => format!("{before} → {after} DRIFT"),
        Some((before, _)) => before.clone(),
        None => String::new(),
    };
    vec![
        key.url.clone(),
        super::probe::accept_label(&key.accept_encoding),
        sent,
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::HttpLatency).cloned()),
    ]
}

/// The URL of every probe row, when they share one.
fn one_url(comparison: &Comparison) -> Option<&str> {
    let mut urls = comparison.rows.iter().filter_map(|r| match &r.key {
        RowKey::Probe(key) => Some(key.url.as_str()),
        _ => None,
    });
    let first = urls.next()?;
    urls.all(|u| u == first).then_some(first)
}

/// The lines under the table: what was compared, and every finding by name.
fn summary_lines(comparison: &Comparison) -> Vec<String> {
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
    let failures = failure_lines(comparison);
    lines.push(if failures.is_empty() {
        "verdict: pass".to_string()
    } else {
        format!("verdict: FAIL ({})", failures.join(", "))
    });
    lines
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
    lines.extend(inconclusive_lines(comparison));
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
            let removed = match comparison.basis {
                SpeedBasis::Normalized { .. } => format!(
                    "the other cells moved {:+.1}% against the reference (its own drift, removed)",
                    drift.shift * 100.0
                ),
                SpeedBasis::Absolute => {
                    format!("the cells moved {:+.1}% together", drift.shift * 100.0)
                }
            };
            format!(
                "{} {}: {removed}; between-cell spread ±{:.1}% over {} cells",
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
    let word = match comparison.basis {
        SpeedBasis::Absolute => "FAILS",
        SpeedBasis::Normalized { .. } => "warning; --absolute fails on it",
    };
    comparison
        .machine_changes()
        .map(|m| {
            let noise = m
                .noise
                .map(|n| format!(" ±{:.1}%", n.exp_m1() * 100.0))
                .unwrap_or_default();
            let subject = if m.what == "reference" {
                "the reference itself".to_string()
            } else {
                format!("all {} cells together (median)", m.cells)
            };
            format!(
                "machine-level change ({}): {} {}: {subject} {:+.1}%{noise} in absolute speed",
                if m.verdict == Verdict::Regressed {
                    word
                } else {
                    "faster"
                },
                m.payload,
                m.direction.name(),
                m.change * 100.0
            )
        })
        .collect()
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
                    "{} samples, {needed} needed to bound a median at the family's confidence: {more} {needed} or more settles it",
                    change.samples
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

/// The comparison's table, of cells or of encodings, and its summary below.
pub fn document(comparison: &Comparison) -> Document {
    // Regressions first, then inconclusive rows, then the rest, each in run order.
    let mut ordered: Vec<&Row> = comparison.rows.iter().collect();
    ordered.sort_by_key(|row| {
        if row.regressed() {
            0
        } else if row.has_verdict(Verdict::Inconclusive) {
            1
        } else {
            2
        }
    });
    let rows: Vec<Vec<String>> = ordered
        .into_iter()
        .map(|row| match &row.key {
            RowKey::Cell(key) => cell_row(row, key),
            RowKey::Http(key) => http_row(row, key),
            RowKey::Probe(key) => probe_row(row, key),
        })
        .collect();
    let table = match comparison.kind {
        "http" => Table::new(&HTTP_HEADER, &HTTP_NUMERIC, rows),
        "probe" if one_url(comparison).is_some() => {
            // One URL is named once, under the table, rather than on every row.
            let rows = rows.into_iter().map(|r| r[1..].to_vec()).collect();
            Table::new(&PROBE_HEADER[1..], &PROBE_NUMERIC[1..], rows)
        }
        "probe" => Table::new(&PROBE_HEADER, &PROBE_NUMERIC, rows),
        _ => Table::new(&HEADER, &NUMERIC, rows),
    };
    let mut document = Document::new();
    document.table(table).notes(summary_lines(comparison));
    document
}

/// The comparison as pretty JSON.
pub fn render_json(comparison: &Comparison) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(comparison).expect("comparison serialises");
    out.push(b'\n');
    out
}

/// Why the comparison fails the job, one reason a line: `1 size drift`, `2 regressed`.
pub fn failure_lines(comparison: &Comparison) -> Vec<String> {
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
            };
            crate::format::counted(n as u64, one, many)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{compare, CompareOptions};
    use crate::results::{CellKey, LoadedRun, RunCell, Timing};

    fn run(label: &str, gzip_seconds: f64, gzip_bytes: u64) -> LoadedRun {
        let cell = |codec: &str, level: i32, bytes: u64, median: f64| {
            let samples = (0..9).map(|i| median * (1.0 + 0.002 * i as f64)).collect();
            let timing = Timing::of(median, samples);
            let key = CellKey::new("small", codec, level);
            RunCell::for_test(key, 298_727, bytes, timing.clone(), timing)
        };
        LoadedRun::of_cells(
            label,
            vec![
                cell("zstd", 1, 41_132, 0.0005),
                cell("gzip", 1, gzip_bytes, gzip_seconds),
            ],
        )
    }

    /// Normalised to zstd:1 with a 10% threshold.
    fn options() -> CompareOptions {
        CompareOptions {
            threshold: 0.1,
            basis: SpeedBasis::Normalized {
                codec: crate::codec::CodecKind::Zstd,
                level: 1,
            },
            allow_size_drift: false,
            allow_missing: false,
            strict: false,
        }
    }

    fn comparison() -> Comparison {
        compare(
            &run("base", 0.001, 69_832),
            &run("cand", 0.00125, 69_833),
            &options(),
        )
        .unwrap()
    }

    #[test]
    fn comparison_table_snapshot() {
        insta::assert_snapshot!(super::super::table::render(&document(&comparison())));
    }

    #[test]
    fn comparison_markdown_snapshot() {
        insta::assert_snapshot!(super::super::markdown::render(&document(&comparison())));
    }

    /// The HTTP fixture against itself with gzip:1's body 7 bytes larger and its
    /// latency doubled.
    fn http_comparison() -> Comparison {
        let report = crate::export::http::fixtures::report();
        let load = |report: &crate::http::HttpReport, label: &str| {
            let json = crate::export::http::render_json(report, None);
            crate::results::parse(&json, label, label).unwrap()
        };
        let mut slower = report.clone();
        let gzip = &mut slower.payloads[0].encodings[1];
        gzip.body_bytes += 7.0;
        gzip.p50_ms *= 2.0;
        gzip.latencies_ms.iter_mut().for_each(|ms| *ms *= 2.0);
        compare(
            &load(&report, "base.json"),
            &load(&slower, "cand.json"),
            &options(),
        )
        .unwrap()
    }

    #[test]
    fn http_comparison_table_snapshot() {
        let comparison = http_comparison();
        assert!(comparison.failed());
        insta::assert_snapshot!(super::super::table::render(&document(&comparison)));
    }

    #[test]
    fn comparison_json_names_the_verdicts() {
        let value: serde_json::Value = serde_json::from_slice(&render_json(&comparison())).unwrap();
        assert_eq!(value["rows"][1]["speeds"][0][1]["verdict"], "regressed");
        assert_eq!(value["rows"][0]["speeds"][0][1]["verdict"], "unchanged");
        assert_eq!(value["rows"][0]["is_reference"], true);
    }
}
