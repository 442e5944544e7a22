//! A comparison on a page, verdict first: whether it passes, each failing result by
//! name, how small a slowdown it could have seen, and both runs' identity, all above
//! the fold; the rows that changed next, and the unchanged ones folded away.

use maud::{html, Markup};

use super::document::table;
use crate::analysis::compare::{
    Comparison, MachineChange, Row, RowKey, SpeedBasis, Verdict, MUST_SEE,
};
use crate::export::compare::notes::{
    absolute_text, failure_lines, sight_text, speed_text, summary_lines,
};
use crate::export::compare::table::{rows_table, split_rows};
use crate::export::text::document::Table;
use crate::format::thousands;
use crate::results::LoadedRun;

/// `compare --export-html`'s page: the comparison alone.
pub(crate) fn comparison_page(
    baseline: &LoadedRun,
    candidate: &LoadedRun,
    judged: &Comparison,
) -> Vec<u8> {
    let title = format!(
        "codecbench compare: {} against {}",
        candidate.label, baseline.label
    );
    super::page::page(&title, comparison(baseline, candidate, judged)).into_bytes()
}

/// The whole comparison of `candidate` against `baseline`.
pub(crate) fn comparison(
    baseline: &LoadedRun,
    candidate: &LoadedRun,
    comparison: &Comparison,
) -> Markup {
    let (standing_rows, quiet_rows) = split_rows(comparison);
    let (standing, quiet) = (
        rows_table(comparison, &standing_rows),
        rows_table(comparison, &quiet_rows),
    );
    let notes: Vec<String> = summary_lines(comparison)
        .into_iter()
        .filter(|line| !line.starts_with("verdict:"))
        .collect();
    html! {
        section.comparison {
            h2 { (candidate.label) " against " (baseline.label) }
            // A failing verdict opens the page, whichever of the two it is.
            @if failure_lines(comparison).is_empty()
                && comparison.basis != SpeedBasis::Absolute
                && comparison.machine_slowdowns().next().is_some() {
                (machine_banner(comparison))
                (banner(comparison))
            } @else {
                (banner(comparison))
                (machine_banner(comparison))
            }
            (failing_table(comparison))
            (identity(baseline, candidate))
            h3 { "Results that changed" }
            (table(&standing))
            (super::forest::forest(comparison, &standing_rows))
            @if !quiet.rows.is_empty() {
                details.quiet {
                    summary { (quiet_summary(&quiet_rows)) }
                    (table(&quiet))
                }
            }
            details.how {
                summary { "How it was judged" }
                ul.notes { @for line in &notes { li { (line) } } }
            }
        }
    }
}

/// Pass or fail in one line, with what the comparison could have seen below it.
fn banner(comparison: &Comparison) -> Markup {
    let reasons = failure_lines(comparison);
    let sight = comparison.sight();
    let blind = reasons.is_empty() && sight.could_miss(MUST_SEE);
    let class = match (reasons.is_empty(), blind) {
        (false, _) => "verdict fail",
        (true, true) => "verdict blind",
        (true, false) => "verdict pass",
    };
    let seen = sight_text(comparison).unwrap_or_else(|| "no speed was judged".to_string());
    html! {
        div class=(class) role="status" {
            p {
                @if !reasons.is_empty() {
                    strong { "Fails" } ": " (reasons.join(", "))
                } @else if blind {
                    strong { "Passes, but could have missed a 2x slowdown" }
                    ": a pass here does not say the candidate is as fast."
                } @else {
                    strong { "Passes" } ": no result slowed beyond its noise band and the "
                    (format!("{:.0}%", comparison.threshold * 100.0)) " threshold."
                }
            }
            p.sight { "It could see " (seen) "." }
        }
    }
}

/// The machine-level verdict, beside the one above and with its weight: whether every
/// cell together, or the reference itself, changed in absolute time. Normalised speeds
/// cancel such a change (a slower machine, a build without optimisations), so the
/// verdict above cannot show it. Under `--absolute` it is among the failures already.
fn machine_banner(comparison: &Comparison) -> Markup {
    if comparison.basis == SpeedBasis::Absolute || comparison.machine.is_empty() {
        return html! {};
    }
    let slower: Vec<String> = comparison.machine_slowdowns().map(machine_text).collect();
    let threshold = format!("{:.0}%", comparison.threshold * 100.0);
    html! {
        @if slower.is_empty() {
            div.verdict.pass role="status" {
                p { strong { "Passes in absolute time" } ": no payload slowed as a whole beyond its noise band and the " (threshold) " threshold." }
            }
        } @else {
            div.verdict.fail role="status" {
                p { strong { "Fails in absolute time" } ": " (slower.join("; ")) "." }
                p.sight { "Normalised speeds cancel a change every cell shares; `compare --absolute` fails the job on it." }
            }
        }
    }
}

/// `small compress: all 28 cells together 30.0% slower [+26.0%, +34.1%]`.
fn machine_text(change: &MachineChange) -> String {
    let subject = match change.what {
        "reference" => "the reference itself".to_string(),
        _ => format!("all {} cells together", change.cells),
    };
    format!(
        "{} {}: {subject} {}",
        change.payload,
        change.direction.name(),
        absolute_text(change)
    )
}

/// Every result that fails the comparison, by name, with why: a row each.
fn failing_rows(comparison: &Comparison) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut add = |key: &RowKey, why: &str, detail: String| {
        rows.push(vec![key.to_string(), why.to_string(), detail]);
    };
    for row in &comparison.rows {
        if row.size_drift() && !comparison.allow_size_drift {
            let detail = format!(
                "{} → {} bytes",
                thousands(row.baseline_bytes),
                thousands(row.candidate_bytes)
            );
            add(&row.key, "size drift", detail);
        }
        for (direction, change) in &row.speeds {
            let Some(change) = change.as_ref() else {
                continue;
            };
            let why = match change.verdict {
                Verdict::Regressed => format!("{} slower", direction.name()),
                Verdict::Inconclusive if comparison.strict => {
                    format!("{} inconclusive (--strict)", direction.name())
                }
                _ => continue,
            };
            add(&row.key, &why, speed_text(&Some(change.clone())));
        }
        for (direction, change) in &row.instructions {
            if change.verdict == Verdict::Regressed {
                let why = format!("more {} instructions", direction.name());
                add(&row.key, &why, format!("{:+.2}%", change.change * 100.0));
            }
        }
    }
    for failed in &comparison.failed {
        add(
            &failed.key,
            "failed in the candidate",
            failed.reason.clone(),
        );
    }
    if !comparison.allow_missing {
        for key in &comparison.missing {
            add(key, "missing from the candidate", String::new());
        }
    }
    if comparison.basis == SpeedBasis::Absolute {
        for change in comparison.machine_slowdowns() {
            rows.push(vec![
                change.payload.clone(),
                format!("{} slower: {}", change.direction.name(), change.what),
                absolute_text(change),
            ]);
        }
    }
    rows
}

/// The failing results as a table under their heading; nothing when none fails.
fn failing_table(comparison: &Comparison) -> Markup {
    let rows = failing_rows(comparison);
    if rows.is_empty() {
        return html! {};
    }
    html! {
        h3 { "What fails" }
        (table(&Table::new(&["result", "fails as", "detail"], &[false, false, true], rows)))
    }
}

/// The folded rows' summary: how many, and what they hold.
fn quiet_summary(rows: &[&Row]) -> String {
    let inconclusive = rows
        .iter()
        .filter(|r| r.has_verdict(Verdict::Inconclusive))
        .count();
    format!(
        "{} more results, none past the threshold: {} unchanged, {inconclusive} inconclusive",
        rows.len(),
        rows.len() - inconclusive
    )
}

/// What the identity table says of each run, line by line.
const IDENTITY: [&str; 6] = [
    "run",
    "machine",
    "measured",
    "codecbench",
    "compiler",
    "libraries",
];

/// Both runs side by side: file, machine, date, build, libraries; a line that
/// differs is marked.
fn identity(baseline: &LoadedRun, candidate: &LoadedRun) -> Markup {
    let unknown = || "not recorded (CSV)".to_string();
    let lines = IDENTITY
        .iter()
        .zip(facts(baseline).into_iter().zip(facts(candidate)));
    html! {
        div.scroll { table.identity {
            thead { tr { th {} th scope="col" { "baseline" } th scope="col" { "candidate" } } }
            tbody {
                @for (name, (before, after)) in lines {
                    tr class=[(!["run", "measured"].contains(name) && before != after).then_some("differs")] {
                        th scope="row" { (name) }
                        td { (before.unwrap_or_else(unknown)) }
                        td { (after.unwrap_or_else(unknown)) }
                    }
                }
            }
        } }
    }
}

/// A run's identity, in [`IDENTITY`]'s order; `None` where its file does not say.
fn facts(run: &LoadedRun) -> [Option<String>; 6] {
    let env = run.environment.as_ref();
    [
        Some(run.label.clone()),
        run.machine(),
        env.map(|e| e.timestamp.clone()),
        env.map(|e| e.build()),
        env.and_then(|e| e.rustc.clone()),
        env.map(|e| e.libraries()),
    ]
}
