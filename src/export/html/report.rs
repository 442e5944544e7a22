//! `codecbench report`: one page per set of runs. For each run: where and how it was
//! measured, what to deploy, and per payload a ratio-against-speed chart and the matrix
//! with each median's spread; with a baseline, `compare`'s verdicts first.

use maud::{html, Markup, PreEscaped};

use super::contents;
use super::document::{markup, table};
use super::page::{lazy, page};
use crate::analysis::compare::Comparison;
use crate::analysis::history::History;
use crate::analysis::recommend::{AdviceOptions, Answer, PayloadAdvice};
use crate::analysis::reproduce::{Claim, ClaimVerdict};
use crate::export::svg::{interactive_panels, Caption};
use crate::export::text::document::Table;
use crate::format::{duration_text, significant, thousands};
use crate::results::run::{CellResult, PayloadResult};
use crate::results::{LoadedRun, Results};
use crate::stats::Summary;

/// One run's part of the page.
pub(crate) struct RunSection<'a> {
    /// The run.
    pub run: &'a LoadedRun,
    /// What to deploy, for a `run` run; empty for the other kinds.
    pub answers: Vec<Answer>,
    /// Each payload's frontiers, for its chart.
    pub advice: Vec<PayloadAdvice>,
    /// The budgets the answers were judged at.
    pub options: &'a AdviceOptions,
    /// The article's claims checked against the run; shown when it measured any.
    pub claims: Vec<Claim>,
}

/// The whole page.
pub(crate) struct ReportPage<'a> {
    /// One section per run, in the order given.
    pub sections: Vec<RunSection<'a>>,
    /// With `--baseline`: the baseline run and the first run judged against it.
    pub comparison: Option<(&'a LoadedRun, &'a Comparison)>,
    /// With two runs or more: each cell's series over them.
    pub history: Option<History>,
}

/// The page, as bytes.
pub(crate) fn render(report: &ReportPage) -> Vec<u8> {
    let names: Vec<&str> = report
        .sections
        .iter()
        .map(|s| s.run.label.as_str())
        .collect();
    let title = format!("codecbench report: {}", names.join(", "));
    let runs: Vec<&LoadedRun> = report.sections.iter().map(|s| s.run).collect();
    let many = contents::many(&runs);
    let body = html! {
        @if many { (contents::contents(&runs)) }
        @if let (Some((baseline, comparison)), Some(first)) = (report.comparison, report.sections.first()) {
            (super::verdict::comparison(baseline, first.run, comparison))
        }
        @if let Some(history) = &report.history { (super::history::section(history)) }
        @for (index, section) in report.sections.iter().enumerate() {
            // The first run's charts show where each setting stood in the baseline.
            @let baseline = report.comparison.filter(|_| index == 0).map(|(b, _)| b);
            (run_section(index, section, many, baseline))
        }
    };
    page(&title, body).into_bytes()
}

fn run_section(
    index: usize,
    section: &RunSection,
    many: bool,
    baseline: Option<&LoadedRun>,
) -> Markup {
    let run = section.run;
    html! {
        section.run {
            h2 { (run.label) }
            (about(run))
            (super::answer::answers(&section.answers, section.options))
            @if many { (contents::summary(run)) }
            @match &run.results {
                Results::Codec { payloads, .. } => {
                    @for (p, payload) in payloads.iter().enumerate() {
                        (payload_part((index, p), section, payload, baseline))
                    }
                }
                Results::Http { load, payloads } => {
                    @for payload in payloads {
                        (markup(&crate::export::http::document(payload, load)))
                    }
                }
                Results::Probe { urls } => {
                    @for url in urls { (probe_table(url)) }
                }
            }
            @if section.claims.iter().any(|c| c.verdict != ClaimVerdict::Unmeasured) {
                h3 { "The article's claims" }
                (markup(&crate::export::reproduce::document(&section.claims, &[], &[])))
            }
        }
    }
}

/// Where, when and with what the run was measured; what CSV cannot say is left out.
fn about(run: &LoadedRun) -> Markup {
    let env = run.environment.as_ref();
    html! {
        dl.about {
            @if let Some(machine) = run.machine() { dt { "machine" } dd { (machine) } }
            @if let Some(day) = run.measured_on() { dt { "measured" } dd { (day) } }
            @if let Some(env) = env {
                dt { "codecbench" }
                dd { (env.codecbench_version) @if let Some(commit) = &env.git_commit { " at " code { (commit) } } }
                @if let Some(rustc) = &env.rustc { dt { "compiler" } dd { (rustc) } }
                dt { "libraries" }
                dd { (env.libraries()) }
            }
            @if env.is_none() { dt { "source" } dd { "CSV: medians only, no environment" } }
        }
    }
}

/// A payload's chart, noise warning and matrix.
fn payload_part(
    (run, p): (usize, usize),
    section: &RunSection,
    payload: &PayloadResult,
    baseline: Option<&LoadedRun>,
) -> Markup {
    let id = format!("chart-{run}-{p}");
    let advice: Vec<PayloadAdvice> = section
        .advice
        .iter()
        .filter(|a| a.payload == payload.payload)
        .cloned()
        .collect();
    let caption = Caption {
        run: section.run.label.clone(),
        machine: section.run.machine(),
        date: section.run.measured_on(),
    };
    // The matrix's ± columns list every interval: the page needs the sentence only.
    let warning =
        crate::export::run::noise::summary(payload).map(|text| text + ": see the ± columns");
    html! {
        h3 id=(contents::anchor(run, p)) { (payload.payload) " (" (thousands(payload.input_bytes)) " bytes)" }
        p { (crate::export::labels::iteration_text(payload)) }
        @if let Some(warning) = warning { p.warning { (warning) } }
        (lazy(html! {
            @if !advice.is_empty() { (chart(&id, (section.run, baseline), &advice, &caption)) }
            (table(&matrix(payload)))
            p.aside { "± is the half-width of the median's 95% interval, as a share of the median." }
        }))
    }
}

/// The ratio-against-speed chart with a legend whose buttons hide a series.
fn chart(
    id: &str,
    (run, baseline): (&LoadedRun, Option<&LoadedRun>),
    advice: &[PayloadAdvice],
    caption: &Caption,
) -> Markup {
    let (series, panels) = interactive_panels(run, advice, caption, baseline);
    html! {
        figure.chart id=(id) {
            div.legend role="group" aria-label="Show or hide a series" {
                @for (i, s) in series.iter().enumerate() {
                    span.key data-series=(i) {
                        (PreEscaped(crate::export::svg::swatch(s.shape, s.colour)))
                        (s.name)
                    }
                }
            }
            div.panels { @for panel in &panels { (PreEscaped(panel)) } }
            figcaption { "Compression ratio against speed; the number beside a point is its level. Each point is a setting, its bar the 95% interval of its speed where wider than a pixel; hover it for its figures. A hollow point's median is imprecise (its interval wider than ±10%, or a slow start). The dashed line is the Pareto frontier: the settings no other beats on both ratio and speed."
                @if let Some(baseline) = baseline {
                    " A grey outline is the same setting in the baseline, " (baseline.label)
                    ", joined by a thin line to where it is now."
                }
            }
        }
    }
}

/// The matrix: a row per cell, each direction's median time per body and speed with
/// its 95% interval's half-width beside it.
fn matrix(payload: &PayloadResult) -> Table {
    const HEADER: [&str; 10] = [
        "setting",
        "library",
        "bytes",
        "ratio",
        "compress time",
        "compress MB/s",
        "±",
        "decompress time",
        "decompress MB/s",
        "±",
    ];
    const NUMERIC: [bool; 10] = [false, false, true, true, true, true, true, true, true, true];
    let rows = payload
        .cells
        .iter()
        .map(|cell| matrix_row(payload.input_bytes, cell))
        .collect();
    Table::new(&HEADER, &NUMERIC, rows)
}

fn matrix_row(input_bytes: u64, cell: &CellResult) -> Vec<String> {
    let speed = |summary: Option<&Summary>| -> [String; 3] {
        match summary {
            _ if cell.failed() => ["FAILED".into(), String::new(), String::new()],
            None => Default::default(),
            Some(s) => [
                duration_text(s.median_s),
                significant(s.median_mb_s(input_bytes), 3),
                s.median_uncertainty()
                    .map(|u| format!("{:.1}%", u * 100.0))
                    .unwrap_or_default(),
            ],
        }
    };
    let mut row = vec![
        format!("{} {}", cell.id.codec, cell.id.level),
        crate::export::labels::library_text(&cell.id),
        thousands(cell.compressed_bytes),
        cell.ratio(input_bytes)
            .map(|r| format!("{r:.2}"))
            .unwrap_or_default(),
    ];
    row.extend(speed(cell.compress.as_ref()));
    row.extend(speed(cell.decompress.as_ref()));
    row
}

/// A probed URL: what each `Accept-Encoding` got.
fn probe_table(url: &crate::results::probe::UrlResult) -> Markup {
    let rows = url
        .rows
        .iter()
        .map(|row| {
            vec![
                row.accept_encoding.clone(),
                row.status.to_string(),
                row.encoding.clone(),
                thousands(row.body_bytes.round() as u64),
                significant(row.total_p50_ms, 3),
                row.failure.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let header = [
        "Accept-Encoding",
        "status",
        "sent",
        "body bytes",
        "p50 ms",
        "failure",
    ];
    let numeric = [false, true, false, true, true, false];
    html! {
        h3 { (url.url) }
        (table(&Table::new(&header, &numeric, rows)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page of the fixture run, its inline style and script left out and the
    /// version masked, so that the snapshot shows the content.
    fn page_text() -> String {
        let run = LoadedRun::from_report(&crate::export::fixtures::report(), "run.json");
        let options = AdviceOptions::default();
        let page = ReportPage {
            sections: vec![RunSection {
                run: &run,
                answers: crate::analysis::recommend::answers(&run, &options),
                advice: crate::analysis::recommend::advise(&run, &options),
                options: &options,
                claims: Vec::new(),
            }],
            comparison: None,
            history: None,
        };
        let html = String::from_utf8(render(&page)).unwrap();
        super::super::page::content(&html)
    }

    #[test]
    fn report_snapshot() {
        insta::assert_snapshot!(page_text());
    }

    #[test]
    fn the_page_fetches_nothing_and_reads_without_its_script() {
        let html = page_text();
        assert!(html.contains("default-src 'none'"));
        assert!(
            !html.contains("src=") && !html.contains("href="),
            "nothing to fetch"
        );
        // The only URL is the SVG namespace, which no browser fetches.
        let urls = html.matches("http://").count();
        let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
        assert_eq!(urls, namespaces);
        // Real tables, with their figures, before any script runs.
        assert!(html.contains("<table class=\"sortable n3"));
        assert!(html.contains("41,132"));
    }
}
