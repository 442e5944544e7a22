//! `ab --export-html`'s page, verdict first: whether the candidate passes, each failing
//! cell by name, how small a slowdown every cell could have shown and both builds, all
//! above the fold; then each cell's change drawn with its 95% interval, and the cells
//! that stayed the same folded away.

use maud::{html, Markup};

use super::document::table;
use super::forest::{draw, Entry};
use crate::analysis::compare::MUST_SEE;
use crate::export::ab::{builds, failing, sight_line, table as cells_table, tally};
use crate::export::text::document::Table;
use crate::results::ab::{AbCell, AbReport};
use crate::results::paired_times::{AbVerdict, PairedTimes};

/// The most changes drawn: both directions of a 50-cell matrix. The tables list all.
const MOST_DRAWN: usize = 100;

/// The whole page.
pub(crate) fn ab_page(report: &AbReport) -> Vec<u8> {
    let title = format!("codecbench ab: this build against {}", report.baseline);
    super::page::page(&title, body(report)).into_bytes()
}

fn body(report: &AbReport) -> Markup {
    let (same, moved): (Vec<&AbCell>, Vec<&AbCell>) =
        report.cells.iter().partition(|c| c.same_both_ways());
    let rows = |cells: &[&AbCell]| cells_table(report, cells);
    html! {
        section.comparison.ab {
            (banner(report))
            (failing_table(report))
            (identity(report))
            h3 { "Cells that did not stay the same" }
            (table(&rows(&moved)))
            (forest(report))
            @if !same.is_empty() {
                details.quiet {
                    summary { (crate::format::count(same.len() as u64, "more cell")) ", the same both ways" }
                    (table(&rows(&same)))
                }
            }
            details.how {
                summary { "How it was judged" }
                ul.notes { @for line in how(report) { li { (line) } } }
            }
        }
    }
}

/// Pass or fail in one line, with what every cell could have shown below it.
fn banner(report: &AbReport) -> Markup {
    let failed = !report.failures().is_empty();
    let blind = !failed && report.could_miss(MUST_SEE);
    let class = match (failed, blind || report.interrupted) {
        (true, _) => "verdict fail",
        (false, true) => "verdict blind",
        (false, false) => "verdict pass",
    };
    html! {
        div class=(class) role="status" {
            p {
                @if report.interrupted {
                    strong { "Interrupted" } ": the verdicts rest on the pairs finished. "
                }
                @if failed {
                    strong { "Fails" } ": " (tally(report)) "."
                } @else if blind {
                    strong { "Passes, but could have missed a 2x slowdown" }
                    ": a pass here does not say the candidate is as fast."
                } @else {
                    strong { "Passes" } ": no cell is slower past the "
                    (format!("{:.0}%", report.threshold * 100.0)) " threshold ("
                    (tally(report)) ")."
                }
            }
            p.sight { (sight_line(report)) }
        }
    }
}

/// The failing cells as a table under their heading; nothing when none fails.
fn failing_table(report: &AbReport) -> Markup {
    let rows: Vec<Vec<String>> = failing(report).into_iter().map(Vec::from).collect();
    if rows.is_empty() {
        return html! {};
    }
    let columns = [
        "cell",
        "fails as",
        "candidate time ÷ baseline time (95% interval)",
    ];
    html! {
        h3 { "What fails" }
        (table(&Table::new(&columns, &[false, false, true], rows)))
    }
}

/// Both builds side by side (a line that differs marked), then the machine and what
/// the run was.
fn identity(report: &AbReport) -> Markup {
    let env = &report.environment;
    let mut shared = vec![
        ("machine", env.machine()),
        (
            "measured",
            format!("{}, for {:.0} s", env.timestamp, report.seconds),
        ),
    ];
    if let Some(calibration) = &report.calibration {
        let slowed = format!("{calibration} (the candidate slowed on purpose)");
        shared.push(("calibration", slowed));
    }
    html! {
        div.scroll { table.identity {
            thead { tr { th {} th scope="col" { "candidate" } th scope="col" { "baseline" } } }
            tbody {
                @for (name, candidate, baseline) in builds(report) {
                    tr class=[(name != "program" && candidate != baseline).then_some("differs")] {
                        th scope="row" { (name) } td { (candidate) } td { (baseline) }
                    }
                }
                @for (name, fact) in &shared {
                    tr { th scope="row" { (name) } td colspan="2" { (fact) } }
                }
            }
        } }
    }
}

/// Every cell's change in time with its interval, the failing and undecided first.
fn forest(report: &AbReport) -> Markup {
    let mut cells: Vec<&AbCell> = report
        .cells
        .iter()
        .filter(|c| c.failure.is_none())
        .collect();
    cells.sort_by_key(|c| rank(c));
    let entries: Vec<Entry> = cells
        .iter()
        .flat_map(|cell| {
            let directions = [
                ("compress", &cell.compress, cell.verdicts[0], cell.sight[0]),
                (
                    "decompress",
                    &cell.decompress,
                    cell.verdicts[1],
                    cell.sight[1],
                ),
            ];
            directions
                .into_iter()
                .filter_map(move |(name, times, verdict, sight)| {
                    let mut entry = entry(cell, name, times, verdict)?;
                    entry.sight = sight.map(f64::ln_1p);
                    Some(entry)
                })
        })
        .take(MOST_DRAWN)
        .collect();
    let caption = html! {
        "Each cell's change in time (right is slower: the candidate takes longer) with its 95% "
        "interval; the shaded strip is the " (format!("{:.0}%", report.threshold * 100.0))
        " threshold either way. A bar wholly inside the strip is the same. A bar wholly outside it is "
        "slower or faster only while it stays off zero with any one pair left out. The upright tick "
        "is the smallest slowdown the row could have shown: a smaller one could pass unseen. "
        "\"CPU\" marks a verdict read on the measuring thread's CPU time, steadier there than the wall clock."
    };
    draw(&entries, report.threshold, caption)
}

/// Where a cell is drawn: slower or drifted first, then undecided, faster, the same.
fn rank(cell: &AbCell) -> u8 {
    match cell.verdicts {
        v if cell.size_drift() || v.contains(&AbVerdict::Slower) => 0,
        v if v.contains(&AbVerdict::Inconclusive) => 1,
        v if v.contains(&AbVerdict::Faster) => 2,
        _ => 3,
    }
}

/// One direction of a cell as a change in time, right slower as on compare's page.
/// `None` without an interval.
fn entry(cell: &AbCell, direction: &str, times: &PairedTimes, verdict: AbVerdict) -> Option<Entry> {
    let (estimate, low, high) = (times.estimate?, times.low?, times.high?);
    let band = (low.ln(), estimate.ln(), high.ln());
    let class = match verdict {
        AbVerdict::Slower => "regressed",
        AbVerdict::Faster => "improved",
        AbVerdict::Same => "unchanged",
        AbVerdict::Inconclusive => "inconclusive",
    };
    let label = format!(
        "{} {} {direction}{}",
        cell.payload,
        cell.id,
        times.basis.mark()
    );
    Some(Entry::new(label, band, class))
}

/// How the verdicts were reached, for the folded notes.
fn how(report: &AbReport) -> Vec<String> {
    let mut lines = vec![
        "Each cell was measured by both builds in pairs of short batches, seconds apart, the \
         order swapped from pair to pair (ABBA), both workers on one CPU and started anew \
         every round."
            .to_string(),
        "A pair's ratio is the candidate's fastest iteration ÷ the baseline's; the estimate \
         is the Hodges–Lehmann shift of the ratios, with its exact signed-rank 95% interval."
            .to_string(),
        format!(
            "Slower or faster: the whole interval beyond {:.1}%, and on the same side of no \
             change with each pair left out in turn; the same: wholly within it.",
            report.threshold * 100.0
        ),
        "Sizes must agree to the byte; a cell whose sizes differ is a size drift.".to_string(),
    ];
    if report.cells.iter().any(|c| c.failure.is_some()) {
        lines.push("A failed round trip fails its cell.".to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures::{ab_report, ab_report_without_intervals};

    #[test]
    fn ab_page_snapshot() {
        let html = String::from_utf8(ab_page(&ab_report())).unwrap();
        insta::assert_snapshot!(super::super::page::content(&html));
    }

    #[test]
    fn the_page_opens_with_the_failing_cells_by_name() {
        let html = String::from_utf8(ab_page(&ab_report())).unwrap();
        let banner = html.find(r#"<div class="verdict fail" role="status">"#);
        let fails = html.find("<h3>What fails</h3>");
        let forest = html.find("<figure class=\"forest\">");
        assert!(
            banner.is_some() && banner < fails && fails < forest,
            "{html}"
        );
        let slower = "<td>small &lt;b&gt; zstd 3 (libzstd)</td><td>slower</td>";
        assert!(html.contains(slower), "{html}");
        let drift = "<td>size drift</td><td>44,000 bytes here, 44,001 in the baseline</td>";
        assert!(html.contains(drift), "{html}");
        assert!(html.contains("1 more cell, the same both ways"), "{html}");
        assert!(html.contains(r#"<g class="change regressed">"#), "{html}");
        assert!(
            !html.contains("<b>"),
            "text from outside is escaped: {html}"
        );
    }

    #[test]
    fn a_pass_without_intervals_says_it_could_have_missed_2x() {
        let html = String::from_utf8(ab_page(&ab_report_without_intervals())).unwrap();
        let blind = r#"<div class="verdict blind" role="status">"#;
        assert!(html.contains(blind), "{html}");
        assert!(
            html.contains("Passes, but could have missed a 2x slowdown"),
            "{html}"
        );
        assert!(
            !html.contains("<figure"),
            "nothing to draw without an interval"
        );
    }
}
