//! Rendering `recommend`: per payload, the dominated settings, both Pareto frontiers, the
//! scenario picks and the end-to-end table, as terminal tables, Markdown or JSON.

use crate::analysis::recommend::{
    AdviceOptions, Answer, PayloadAdvice, ScenarioPick, Setting, Why,
};
use crate::export::text::document::{Document, Table};
use crate::format::{duration_text, ms, ms_figure, significant, thousands};

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

fn frontier(title: &str, advice: &PayloadAdvice, compress: bool) -> Section {
    // A tiny body's speed reads 0.004 MB/s: its time per body says more.
    let (settings, columns): (&[Setting], _) = if compress {
        (
            &advice.compress_frontier,
            ["compress MB/s", "compress time"],
        )
    } else {
        (
            &advice.decompress_frontier,
            ["decompress MB/s", "decompress time"],
        )
    };
    Section {
        title: title.to_string(),
        header: vec!["setting", "bytes", "ratio", columns[0], columns[1]],
        numeric: vec![false, true, true, true, true],
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
                    duration_text(time),
                ]
            })
            .collect(),
    }
}

fn sections(advice: &PayloadAdvice) -> Vec<Section> {
    vec![
        dominated(advice),
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
        scenarios(advice),
        per_encoding(advice),
        capacity(advice),
        bandwidths(advice),
    ]
    .into_iter()
    .chain((!advice.pooling.is_empty()).then(|| pooling(advice)))
    .collect()
}

/// What reusing encoders saves, where the run measured both (`--encoder both`).
fn pooling(advice: &PayloadAdvice) -> Section {
    Section {
        title: "Encoder pool: compression time per response, fresh encoder against one reused"
            .into(),
        header: vec!["setting", "fresh ms", "reused ms", "saved"],
        numeric: vec![false, true, true, true],
        rows: advice
            .pooling
            .iter()
            .map(|p| {
                vec![
                    p.fresh.name(),
                    ms_figure(p.fresh.compress_s),
                    ms_figure(p.reused.compress_s),
                    format!("{:.0}%", p.share_saved() * 100.0),
                ]
            })
            .collect(),
    }
}

/// What each pick costs in CPU and saves in bytes at scale.
fn capacity(advice: &PayloadAdvice) -> Section {
    Section {
        title: "Capacity if each response is compressed: cores per 1,000 responses/s; bytes saved per million".into(),
        header: vec!["scenario", "setting", "cores per 1,000/s", "saved per million"],
        numeric: vec![false, false, true, true],
        rows: advice
            .scenarios
            .iter()
            .filter_map(|pick| {
                let s = pick.choice.as_ref()?;
                Some(vec![
                    pick.scenario.title().to_string(),
                    s.name(),
                    significant(s.cores_per_1000_per_s(), 3),
                    decimal_bytes(s.bytes_saved_per_million(advice.input_bytes)),
                ])
            })
            .collect(),
    }
}

/// `257.6 GB`, `49.0 MB`: bytes in decimal units, as disks and links count them.
fn decimal_bytes(bytes: f64) -> String {
    let units = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
    match units.iter().find(|(size, _)| bytes.abs() >= *size) {
        Some((size, unit)) => format!("{} {unit}", significant(bytes / size, 4)),
        None => format!("{bytes:.0} B"),
    }
}

/// Each scenario's best setting per codec, in the order servers negotiate them.
fn per_encoding(advice: &PayloadAdvice) -> Section {
    let name = |choice: &Option<Setting>| choice.as_ref().map_or("none".to_string(), Setting::name);
    Section {
        title: "Per encoding, in the order servers prefer them (a client without zstd gets br, then gzip)".into(),
        header: vec!["scenario", "zstd", "br", "gzip"],
        numeric: vec![false, false, false, false],
        rows: advice
            .scenarios
            .iter()
            .map(|pick| {
                let mut row = vec![pick.scenario.title().to_string()];
                row.extend(pick.per_encoding.iter().map(|e| name(&e.choice)));
                row
            })
            .collect(),
    }
}

/// The dominated settings and what dominates each.
fn dominated(advice: &PayloadAdvice) -> Section {
    Section {
        title: "Dominated: another setting is at least as small and as fast to compress, and better on one".into(),
        header: vec!["setting", "bytes", "compress time", "dominated by", "bytes", "compress time"],
        numeric: vec![false, true, true, false, true, true],
        rows: advice
            .dominated
            .iter()
            .map(|d| {
                vec![
                    d.dominated.name(),
                    thousands(d.dominated.compressed_bytes),
                    duration_text(d.dominated.compress_s),
                    d.by.name(),
                    thousands(d.by.compressed_bytes),
                    duration_text(d.by.compress_s),
                ]
            })
            .collect(),
    }
}

/// The pick for each scenario and why.
fn scenarios(advice: &PayloadAdvice) -> Section {
    Section {
        title: "Recommendations".into(),
        header: vec!["scenario", "setting", "ratio", "compress ms", "why"],
        numeric: vec![false, false, true, true, false],
        rows: advice
            .scenarios
            .iter()
            .map(|pick| match &pick.choice {
                Some(s) => vec![
                    pick.scenario.title().to_string(),
                    s.name(),
                    format!("{:.2}", s.ratio),
                    ms_figure(s.compress_s),
                    reason(pick),
                ],
                None => vec![
                    pick.scenario.title().to_string(),
                    "none".into(),
                    String::new(),
                    String::new(),
                    reason(pick),
                ],
            })
            .collect(),
    }
}

/// One line on why a scenario's pick is what it is.
fn reason(pick: &ScenarioPick) -> String {
    let link = format!("{} Mbit/s", significant(pick.link_mbit, 3));
    let within = pick
        .budget_s
        .map_or(String::new(), |b| format!(", within {}", ms(b)));
    match (&pick.choice, pick.why) {
        (Some(s), _) => format!(
            "{} per response at {link} against {} uncompressed ({:.2}x, compression {}{within})",
            ms(pick.cost_s),
            ms(pick.identity_s),
            s.ratio,
            ms(s.compress_s),
        ),
        (None, Why::NothingWithinBudget) => format!(
            "nothing compresses this payload within {}",
            ms(pick.budget_s.unwrap_or(0.0))
        ),
        (None, _) => format!(
            "sending it uncompressed is fastest at {link}: {} per response{within}",
            ms(pick.identity_s)
        ),
    }
}

/// The end-to-end time per response at each link speed.
fn bandwidths(advice: &PayloadAdvice) -> Section {
    Section {
        title: "End-to-end time per response (compress + transfer + decompress), or sent as is"
            .into(),
        header: vec![
            "link Mbit/s",
            "uncompressed ms",
            "fastest",
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
                    ms_figure(row.identity_s),
                    row.best
                        .as_ref()
                        .map_or("identity (uncompressed)".to_string(), Setting::name),
                    ms_figure(row.best_s),
                    format!("{:.0}%", (1.0 - row.best_s / row.identity_s) * 100.0),
                ]
            })
            .collect(),
    }
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

/// The one-answer block, then every payload's sections under its heading, each table
/// under its title, then the budgets.
pub(crate) fn document(
    answers: &[Answer],
    advice: &[PayloadAdvice],
    options: &AdviceOptions,
) -> Document {
    let mut document = Document::new();
    crate::export::recommend::answer::add(&mut document, answers, options);
    for payload in advice {
        document.heading(heading(payload));
        for section in sections(payload) {
            document
                .title(section.title)
                .table(Table::new(&section.header, &section.numeric, section.rows))
                .gap();
        }
    }
    document.paragraph(budgets(options));
    let variants = advice
        .iter()
        .flat_map(|p| p.compress_frontier.iter().chain(&p.decompress_frontier))
        .map(|s| s.key.id.variant);
    for note in crate::export::labels::server_notes(variants) {
        document.paragraph(note);
    }
    document
}

/// The answers and the advice per payload as pretty-printed JSON, ending in a newline.
/// Each scenario's pick keeps its `reason` sentence beside the figures it is made of.
pub(crate) fn render_json(answers: &[Answer], advice: &[PayloadAdvice]) -> Vec<u8> {
    let mut value = serde_json::json!({ "answers": answers, "payloads": advice });
    for (payload, advice) in value["payloads"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .zip(advice)
    {
        let picks = payload["scenarios"].as_array_mut().into_iter().flatten();
        for (pick, scenario) in picks.zip(&advice.scenarios) {
            pick["reason"] = serde_json::Value::from(reason(scenario));
        }
    }
    let mut bytes = serde_json::to_vec_pretty(&value).expect("advice serialises");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::recommend::{advise, answers, fixtures};

    #[test]
    fn text_snapshot() {
        let advice = advise(&fixtures::run(), &fixtures::options());
        let text = crate::export::text::table::render(&document(
            &answers(&fixtures::run(), &fixtures::options()),
            &advice,
            &fixtures::options(),
        ));
        insta::assert_snapshot!(text);
    }

    #[test]
    fn markdown_snapshot() {
        let advice = advise(&fixtures::run(), &fixtures::options());
        let text = crate::export::text::markdown::render(&document(
            &answers(&fixtures::run(), &fixtures::options()),
            &advice,
            &fixtures::options(),
        ));
        insta::assert_snapshot!(text);
    }
}
