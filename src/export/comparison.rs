//! Rendering a comparison of two runs: table, Markdown or JSON.

use super::{markdown_table, significant, text_table, thousands};
use crate::analysis::compare::{Comparison, SpeedBasis, SpeedChange};
use crate::results::{CellKey, HttpKey};

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

const HTTP_HEADER: [&str; 6] = [
    "payload",
    "encoding",
    "load",
    "body bytes",
    "p50 ms",
    "speed",
];
const HTTP_NUMERIC: [bool; 6] = [false, false, false, true, true, true];

/// `a → b DRIFT` when two sizes differ, else the size.
fn bytes_text(baseline: u64, candidate: u64) -> String {
    if baseline == candidate {
        thousands(baseline)
    } else {
        format!("{} → {} DRIFT", thousands(baseline), thousands(candidate))
    }
}

fn http_rows(comparison: &Comparison) -> Vec<Vec<String>> {
    comparison
        .http
        .iter()
        .map(|c| {
            vec![
                c.key.payload.clone(),
                c.key.encoding.clone(),
                c.key.load.clone(),
                bytes_text(c.baseline_body_bytes, c.candidate_body_bytes),
                format!(
                    "{} → {}",
                    significant(c.baseline_p50_ms, 3),
                    significant(c.candidate_p50_ms, 3)
                ),
                speed_text(&Some(c.latency.clone())),
            ]
        })
        .collect()
}

fn rows(comparison: &Comparison) -> Vec<Vec<String>> {
    comparison
        .cells
        .iter()
        .map(|cell| {
            let bytes = bytes_text(cell.baseline_bytes, cell.candidate_bytes);
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
    for c in comparison.http_size_drifts() {
        lines.push(format!(
            "size drift ({drift_word}): {}: {} → {} body bytes",
            c.key, c.baseline_body_bytes, c.candidate_body_bytes
        ));
    }
    for c in comparison.http_regressions() {
        lines.push(format!("regression: {}", c.key));
    }
    let cell_payload = |k: &CellKey| k.payload.clone();
    let http_payload = |k: &HttpKey| k.payload.clone();
    lines.extend(key_lines(
        "missing from candidate",
        &comparison.missing,
        cell_payload,
    ));
    lines.extend(key_lines(
        "only in candidate",
        &comparison.extra,
        cell_payload,
    ));
    lines.extend(key_lines(
        "missing from candidate",
        &comparison.http_missing,
        http_payload,
    ));
    lines.extend(key_lines(
        "only in candidate",
        &comparison.http_extra,
        http_payload,
    ));
    let has_http = !(comparison.http.is_empty()
        && comparison.http_missing.is_empty()
        && comparison.http_extra.is_empty());
    if !comparison.cells.is_empty() || !has_http {
        lines.push(format!(
            "{} cells compared: {} regressed, {} size drifts, {} missing, {} extra",
            comparison.cells.len(),
            comparison.regressions().count(),
            comparison.size_drifts().count(),
            comparison.missing.len(),
            comparison.extra.len()
        ));
    }
    if has_http {
        lines.push(format!(
            "{} HTTP encodings compared: {} regressed, {} size drifts, {} missing, {} extra",
            comparison.http.len(),
            comparison.http_regressions().count(),
            comparison.http_size_drifts().count(),
            comparison.http_missing.len(),
            comparison.http_extra.len()
        ));
    }
    lines
}

/// Names up to five keys one per line; more are counted by payload on one line.
fn key_lines<K: std::fmt::Display>(
    what: &str,
    keys: &[K],
    payload_of: impl Fn(&K) -> String,
) -> Vec<String> {
    if keys.len() <= 5 {
        return keys.iter().map(|key| format!("{what}: {key}")).collect();
    }
    let mut per_payload: Vec<(String, usize)> = Vec::new();
    for key in keys {
        let payload = payload_of(key);
        match per_payload.iter_mut().find(|(p, _)| *p == payload) {
            Some((_, count)) => *count += 1,
            None => per_payload.push((payload, 1)),
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

/// The tables that have rows: codec cells, then `http` encodings.
fn tables(
    comparison: &Comparison,
    table: impl Fn(&[&'static str], &[Vec<String>], &[bool]) -> String,
) -> String {
    let mut out = String::new();
    if !comparison.cells.is_empty() || comparison.http.is_empty() {
        out.push_str(&table(&HEADER, &rows(comparison), &NUMERIC));
    }
    if !comparison.http.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&table(&HTTP_HEADER, &http_rows(comparison), &HTTP_NUMERIC));
    }
    out
}

/// The comparison as a terminal table with its summary.
pub fn render_table(comparison: &Comparison) -> Vec<u8> {
    let mut out = tables(comparison, text_table);
    for line in summary_lines(comparison) {
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

/// The comparison as Markdown, e.g. for a CI job summary.
pub fn render_markdown(comparison: &Comparison) -> Vec<u8> {
    let mut out = tables(comparison, markdown_table);
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
    use crate::analysis::compare::{compare, CompareOptions};
    use crate::results::{CellKey, LoadedRun, RunCell, Timing};

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
            http: Vec::new(),
        }
    }

    /// Normalised to zstd:1 with a 10% threshold.
    fn options() -> CompareOptions {
        CompareOptions {
            threshold: 0.1,
            basis: SpeedBasis::Normalized {
                codec: "zstd".into(),
                level: 1,
            },
            allow_size_drift: false,
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
        insta::assert_snapshot!(String::from_utf8(render_table(&comparison())).unwrap());
    }

    #[test]
    fn comparison_markdown_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_markdown(&comparison())).unwrap());
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
        insta::assert_snapshot!(String::from_utf8(render_table(&comparison)).unwrap());
    }

    #[test]
    fn comparison_json_names_the_verdicts() {
        let value: serde_json::Value = serde_json::from_slice(&render_json(&comparison())).unwrap();
        assert_eq!(value["cells"][1]["compress"]["verdict"], "regressed");
        assert_eq!(value["cells"][0]["compress"]["verdict"], "unchanged");
    }
}
