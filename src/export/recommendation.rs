//! Rendering `recommend`: per payload, the dominated settings, both Pareto frontiers, the
//! scenario picks and the end-to-end table, as terminal tables, Markdown or JSON.

use super::{markdown_table, significant, text_table, thousands};
use crate::analysis::recommend::{AdviceOptions, PayloadAdvice, Setting};

/// One titled table.
struct Section {
    title: String,
    header: Vec<&'static str>,
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
}

fn mb_s(input_bytes: u64, seconds: f64) -> String {
    significant(crate::stats::mb_per_s(input_bytes, seconds), 3)
}

fn ms(seconds: f64) -> String {
    significant(seconds * 1e3, 3)
}

fn frontier(title: &str, advice: &PayloadAdvice, compress: bool) -> Section {
    let (settings, column): (&[Setting], _) = if compress {
        (&advice.compress_frontier, "compress MB/s")
    } else {
        (&advice.decompress_frontier, "decompress MB/s")
    };
    Section {
        title: title.to_string(),
        header: vec!["setting", "bytes", "ratio", column],
        numeric: vec![false, true, true, true],
        rows: settings
            .iter()
            .map(|s| {
                let time = if compress {
                    s.compress_s
                } else {
                    s.decompress_s
                };
                vec![
                    s.name(),
                    thousands(s.compressed_bytes),
                    format!("{:.2}", s.ratio),
                    mb_s(advice.input_bytes, time),
                ]
            })
            .collect(),
    }
}

fn sections(advice: &PayloadAdvice) -> Vec<Section> {
    let input = advice.input_bytes;
    let dominated = Section {
        title: "Dominated: another setting is at least as small and as fast to compress, and better on one".into(),
        header: vec!["setting", "bytes", "compress MB/s", "dominated by", "bytes", "compress MB/s"],
        numeric: vec![false, true, true, false, true, true],
        rows: advice
            .dominated
            .iter()
            .map(|d| {
                vec![
                    d.dominated.name(),
                    thousands(d.dominated.compressed_bytes),
                    mb_s(input, d.dominated.compress_s),
                    d.by.name(),
                    thousands(d.by.compressed_bytes),
                    mb_s(input, d.by.compress_s),
                ]
            })
            .collect(),
    };
    let scenarios = Section {
        title: "Recommendations".into(),
        header: vec!["scenario", "setting", "ratio", "compress ms", "why"],
        numeric: vec![false, false, true, true, false],
        rows: advice
            .scenarios
            .iter()
            .map(|pick| match &pick.choice {
                Some(s) => vec![
                    pick.scenario.to_string(),
                    s.name(),
                    format!("{:.2}", s.ratio),
                    ms(s.compress_s),
                    pick.reason.clone(),
                ],
                None => vec![
                    pick.scenario.to_string(),
                    "none".into(),
                    String::new(),
                    String::new(),
                    pick.reason.clone(),
                ],
            })
            .collect(),
    };
    let bandwidths = Section {
        title: "End-to-end time per response: compress + transfer + decompress".into(),
        header: vec![
            "link Mbit/s",
            "uncompressed ms",
            "best setting",
            "its ms",
            "saved",
        ],
        numeric: vec![true, true, false, true, true],
        rows: advice
            .bandwidths
            .iter()
            .map(|row| {
                vec![
                    significant(row.mbit, 3),
                    ms(row.identity_s),
                    row.best.name(),
                    ms(row.best_s),
                    format!("{:.0}%", (1.0 - row.best_s / row.identity_s) * 100.0),
                ]
            })
            .collect(),
    };
    vec![
        dominated,
        frontier(
            "Pareto frontier: ratio against compression speed",
            advice,
            true,
        ),
        frontier(
            "Pareto frontier: ratio against decompression speed",
            advice,
            false,
        ),
        scenarios,
        bandwidths,
    ]
}

fn heading(advice: &PayloadAdvice) -> String {
    format!(
        "{}: {} bytes",
        advice.payload,
        thousands(advice.input_bytes)
    )
}

fn budgets(options: &AdviceOptions) -> String {
    format!(
        "Budgets: {} ms per dynamic response, {} ms to compress once for a cache (--latency-budget-ms, --cache-budget-ms).",
        significant(options.latency_budget_s * 1e3, 3),
        significant(options.cache_budget_s * 1e3, 3)
    )
}

/// Draws one table from its header, rows and which columns are numeric.
type TableRenderer = fn(&[&str], &[Vec<String>], &[bool]) -> String;

/// Every payload's sections, each payload under `heading`, each section under `title`
/// and drawn by `table`.
fn render(
    advice: &[PayloadAdvice],
    options: &AdviceOptions,
    heading_line: fn(&str) -> String,
    title_line: fn(&str) -> String,
    table: TableRenderer,
) -> Vec<u8> {
    let mut out = String::new();
    for payload in advice {
        out.push_str(&heading_line(&heading(payload)));
        for section in sections(payload) {
            out.push_str(&title_line(&section.title));
            if section.rows.is_empty() {
                out.push_str("(none)\n\n");
                continue;
            }
            out.push_str(&table(&section.header, &section.rows, &section.numeric));
            out.push('\n');
        }
    }
    out.push_str(&budgets(options));
    out.push('\n');
    out.into_bytes()
}

/// Terminal tables, one block per payload.
pub fn render_text(advice: &[PayloadAdvice], options: &AdviceOptions) -> Vec<u8> {
    render(
        advice,
        options,
        |h| format!("== {h} ==\n\n"),
        |t| format!("{t}\n"),
        |header, rows, numeric| text_table(header, rows, numeric),
    )
}

/// GitHub-flavoured Markdown, one section per payload.
pub fn render_markdown(advice: &[PayloadAdvice], options: &AdviceOptions) -> Vec<u8> {
    render(
        advice,
        options,
        |h| format!("## {h}\n\n"),
        |t| format!("**{t}**\n\n"),
        |header, rows, numeric| markdown_table(header, rows, numeric),
    )
}

/// The advice as pretty-printed JSON, ending in a newline.
pub fn render_json(advice: &[PayloadAdvice]) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(advice).expect("advice serialises");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::recommend::{advise, fixtures};

    #[test]
    fn text_snapshot() {
        let advice = advise(&fixtures::run(), &fixtures::options());
        let text = render_text(&advice, &fixtures::options());
        insta::assert_snapshot!(String::from_utf8(text).unwrap());
    }

    #[test]
    fn markdown_snapshot() {
        let advice = advise(&fixtures::run(), &fixtures::options());
        let text = render_markdown(&advice, &fixtures::options());
        insta::assert_snapshot!(String::from_utf8(text).unwrap());
    }
}
