//! Rendering a comparison of two runs: table, Markdown or JSON.

use super::{markdown_table, text_table, thousands};
use crate::compare::{Comparison, SpeedBasis, SpeedChange};
use crate::runs::CellKey;

const HEADER: [&str; 7] = [
    "payload",
    "codec",
    "library",
    "level",
    "bytes",
    "compress",
    "decompress",
];
const NUMERIC: [bool; 7] = [false, false, false, true, true, true, true];

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

fn rows(comparison: &Comparison) -> Vec<Vec<String>> {
    comparison
        .cells
        .iter()
        .map(|cell| {
            let bytes = if cell.size_drift() {
                format!(
                    "{} → {} DRIFT",
                    thousands(cell.baseline_bytes),
                    thousands(cell.candidate_bytes)
                )
            } else {
                thousands(cell.baseline_bytes)
            };
            vec![
                cell.key.payload.clone(),
                cell.key.codec.clone(),
                cell.key.library.clone(),
                cell.key.level.to_string(),
                bytes,
                speed_text(&cell.compress),
                speed_text(&cell.decompress),
            ]
        })
        .collect()
}

/// The lines under the table: what was compared, and every finding by name.
fn summary_lines(comparison: &Comparison) -> Vec<String> {
    let basis = match &comparison.basis {
        SpeedBasis::Normalized { codec, level } => {
            format!("speeds normalised to each run's {codec}:{level} on the same payload")
        }
        SpeedBasis::Absolute => "absolute speeds (MB/s)".to_string(),
    };
    let mut lines = vec![format!(
        "{} → {}: {}; a change counts beyond {:.0}% and beyond the noise band of {:.2} standard errors (5% chance of any false alarm over all speeds)",
        comparison.baseline,
        comparison.candidate,
        basis,
        comparison.threshold * 100.0,
        comparison.z
    )];
    for drift in &comparison.drifts {
        let removed = match comparison.basis {
            SpeedBasis::Normalized { .. } => format!(
                "the other cells moved {:+.1}% together (taken as the reference's own drift and removed)",
                drift.shift * 100.0
            ),
            SpeedBasis::Absolute => format!("the cells moved {:+.1}% together", drift.shift * 100.0),
        };
        lines.push(format!(
            "{} {}: {removed}; between-cell spread ±{:.1}% over {} cells",
            drift.payload,
            drift.direction,
            drift.spread * 100.0,
            drift.cells
        ));
    }
    let drift_word = if comparison.allow_size_drift {
        "allowed"
    } else {
        "FAILS"
    };
    for (baseline, candidate) in comparison.library_changes() {
        lines.push(format!("library changed: {baseline} → {candidate}"));
    }
    for cell in comparison.size_drifts() {
        lines.push(format!(
            "size drift ({drift_word}): {}: {} → {} bytes",
            cell.key, cell.baseline_bytes, cell.candidate_bytes
        ));
    }
    for cell in comparison.regressions() {
        lines.push(format!("regression: {}", cell.key));
    }
    lines.extend(key_lines("missing from candidate", &comparison.missing));
    lines.extend(key_lines("only in candidate", &comparison.extra));
    lines.push(format!(
        "{} cells compared: {} regressed, {} size drifts, {} missing, {} extra",
        comparison.cells.len(),
        comparison.regressions().count(),
        comparison.size_drifts().count(),
        comparison.missing.len(),
        comparison.extra.len()
    ));
    lines
}

/// Names up to five cells one per line; more are counted by payload on one line.
fn key_lines(what: &str, keys: &[CellKey]) -> Vec<String> {
    if keys.len() <= 5 {
        return keys.iter().map(|key| format!("{what}: {key}")).collect();
    }
    let mut per_payload: Vec<(&str, usize)> = Vec::new();
    for key in keys {
        match per_payload.iter_mut().find(|(p, _)| *p == key.payload) {
            Some((_, count)) => *count += 1,
            None => per_payload.push((&key.payload, 1)),
        }
    }
    let counts: Vec<String> = per_payload
        .iter()
        .map(|(p, n)| format!("{p}: {n}"))
        .collect();
    vec![format!(
        "{what}: {} cells ({})",
        keys.len(),
        counts.join(", ")
    )]
}

/// The comparison as a terminal table with its summary.
pub fn render_table(comparison: &Comparison) -> Vec<u8> {
    let mut out = text_table(&HEADER, &rows(comparison), &NUMERIC);
    for line in summary_lines(comparison) {
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

/// The comparison as Markdown, e.g. for a CI job summary.
pub fn render_markdown(comparison: &Comparison) -> Vec<u8> {
    let mut out = markdown_table(&HEADER, &rows(comparison), &NUMERIC);
    out.push('\n');
    for line in summary_lines(comparison) {
        out.push_str(&format!("- {line}\n"));
    }
    out.into_bytes()
}

/// The comparison as pretty JSON.
pub fn render_json(comparison: &Comparison) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(comparison).expect("comparison serialises");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{compare, CompareOptions};
    use crate::runs::{CellKey, LoadedRun, RunCell, Timing};

    fn run(label: &str, gzip_seconds: f64, gzip_bytes: u64) -> LoadedRun {
        let cell = |codec: &str, level: i32, bytes: u64, median: f64| {
            let samples = (0..9).map(|i| median * (1.0 + 0.002 * i as f64)).collect();
            let timing = Timing::of(median, samples);
            let key = CellKey::new("small", codec, &format!("{codec}-lib"), level);
            RunCell::for_test(key, 298_727, bytes, timing.clone(), timing)
        };
        LoadedRun {
            label: label.into(),
            machine: None,
            cells: vec![
                cell("zstd", 1, 41_132, 0.0005),
                cell("gzip", 1, gzip_bytes, gzip_seconds),
            ],
        }
    }

    fn comparison() -> Comparison {
        let options = CompareOptions {
            threshold: 0.1,
            basis: SpeedBasis::Normalized {
                codec: "zstd".into(),
                level: 1,
            },
            allow_size_drift: false,
        };
        compare(
            &run("base", 0.001, 69_832),
            &run("cand", 0.00125, 69_833),
            &options,
        )
        .unwrap()
    }

    #[test]
    fn comparison_table_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_table(&comparison())).unwrap());
    }

    #[test]
    fn comparison_markdown_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_markdown(&comparison())).unwrap());
    }

    #[test]
    fn comparison_json_names_the_verdicts() {
        let value: serde_json::Value = serde_json::from_slice(&render_json(&comparison())).unwrap();
        assert_eq!(value["cells"][1]["compress"]["verdict"], "regressed");
        assert_eq!(value["cells"][0]["compress"]["verdict"], "unchanged");
    }
}
