//! The history on a page: the runs in measured order, each a commit and a date, then per
//! payload a row per cell with its compression and decompression time drawn over the
//! runs. Every chart of one payload and direction shares one scale (the change in time
//! against the cell's first run, `+` slower), with its values, zero and the threshold
//! drawn; a run that made a cell slower past the threshold is marked where it happened,
//! and listed above the tables.

use maud::{html, Markup};

use super::page::lazy;

use crate::analysis::history::{slowdowns, History, Mark, Point, Series, Step};
use crate::format::{duration_text, signed_change, thousands, time_change};

/// The chart's size in CSS pixels, the width of its values' column, and its margin.
const WIDTH: f64 = 200.0;
const HEIGHT: f64 = 48.0;
const VALUES: f64 = 42.0;
const MARGIN: f64 = 6.0;

/// The history section.
pub(crate) fn section(history: &History) -> Markup {
    let threshold = format!("{:.0}%", history.threshold * 100.0);
    html! {
        section.history {
            h2 { "History over " (history.marks.len()) " runs" }
            p { "Each chart is a cell's median time per call against its first run (+ slower), run by run in the order measured; a bar is its 95% interval. The charts of one payload and direction share one scale. The dashed line is the " (threshold) " threshold; a red triangle marks a run slower than the run before it past the threshold, their intervals apart. Hover a point for its run." }
            ol.marks { @for mark in &history.marks { li { (mark_text(mark)) } } }
            (steps_list(history))
            @for (payload, series) in &history.payloads {
                h3 { (payload) }
                @let scales = [scale(series, compress, history.threshold), scale(series, decompress, history.threshold)];
                (lazy(html! { div.scroll { table.history {
                    thead { tr {
                        th scope="col" { "setting" }
                        th scope="col" { "bytes" }
                        th scope="col" { "compress time" }
                        th scope="col" { "decompress time" }
                    } }
                    tbody { @for s in series { (row(history, s, scales)) } }
                } } }))
            }
        }
    }
}

/// A series' compression points.
fn compress(series: &Series) -> &[Option<Point>] {
    &series.compress
}

/// A series' decompression points.
fn decompress(series: &Series) -> &[Option<Point>] {
    &series.decompress
}

/// Every slowdown past the threshold, by cell and run: what a reader looks for first.
fn steps_list(history: &History) -> Markup {
    let mut lines: Vec<String> = Vec::new();
    for (payload, series) in &history.payloads {
        for s in series {
            for (direction, points) in [("compress", compress(s)), ("decompress", decompress(s))] {
                for step in slowdowns(points, history.threshold) {
                    lines.push(format!(
                        "{payload} {} {direction}: {} in run {} ({}) against run {}",
                        s.id,
                        time_change(step.ratio, None),
                        step.run + 1,
                        mark_text(&history.marks[step.run]),
                        step.from + 1
                    ));
                }
            }
        }
    }
    let threshold = format!("{:.0}%", history.threshold * 100.0);
    html! {
        @if lines.is_empty() {
            p.steps { "No cell became slower past the " (threshold) " threshold from one run to the next." }
        } @else {
            p.steps { strong { "Slower past the " (threshold) " threshold:" } }
            ul.steps { @for line in &lines { li { (line) } } }
        }
    }
}

/// `a.json, 3063b6d, 2026-11-30T11:26:34Z`.
fn mark_text(mark: &Mark) -> String {
    let mut parts = vec![mark.label.clone()];
    parts.extend(mark.commit.clone());
    parts.push(
        mark.timestamp
            .clone()
            .unwrap_or_else(|| "no date (CSV)".to_string()),
    );
    parts.join(", ")
}

fn row(history: &History, series: &Series, scales: [Scale; 2]) -> Markup {
    let sizes: Vec<String> = series
        .bytes
        .iter()
        .flatten()
        .map(|&b| thousands(b))
        .collect();
    let bytes = match series.size_changed() {
        true => format!("{} SIZE CHANGED", sizes.join(" → ")),
        false => sizes.first().cloned().unwrap_or_default(),
    };
    html! {
        tr {
            th scope="row" { (series.id) }
            td.n class=[series.size_changed().then_some("drift")] { (bytes) }
            td { (chart(history, compress(series), scales[0])) }
            td { (chart(history, decompress(series), scales[1])) }
        }
    }
}

/// The change in time of each point against the first measured, as log ratios:
/// `(low, median, high)`, the interval's ends the median's where the run had none.
fn relative(points: &[Option<Point>]) -> Vec<Option<(f64, f64, f64)>> {
    let first = points.iter().flatten().next().map(|p| p.median_s);
    points
        .iter()
        .map(|p| {
            let (p, first) = ((*p)?, first?);
            let log = |s: f64| (s / first).ln();
            let median = log(p.median_s);
            let low = p.low_s.map_or(median, log);
            let high = p.high_s.map_or(median, log);
            Some((low, median, high))
        })
        .collect()
}

/// One payload and direction's scale, in log time ratios.
#[derive(Clone, Copy)]
struct Scale {
    low: f64,
    high: f64,
    threshold: f64,
}

/// The scale every chart of `series` in one direction shares: from the fastest
/// interval's end to the slowest's, and at least the threshold either way.
fn scale(series: &[Series], pick: fn(&Series) -> &[Option<Point>], threshold: f64) -> Scale {
    let limit = threshold.ln_1p().max(0.02);
    let ends = series
        .iter()
        .flat_map(|s| relative(pick(s)))
        .flatten()
        .flat_map(|(low, _, high)| [low, high]);
    let (low, high) = ends.fold((-limit, limit * 1.5), |(lo, hi), x| (lo.min(x), hi.max(x)));
    Scale {
        low,
        high,
        threshold: threshold.ln_1p(),
    }
}

/// A chart of `points` over the runs on `scale`: its values at the left, zero and the
/// threshold as lines, medians joined, intervals as bars, slowdowns as triangles.
fn chart(history: &History, points: &[Option<Point>], scale: Scale) -> Markup {
    let drawn = relative(points);
    if drawn.iter().all(Option::is_none) {
        return html! {};
    }
    let y =
        |log: f64| MARGIN + (scale.high - log) / (scale.high - scale.low) * (HEIGHT - 2.0 * MARGIN);
    let step = (WIDTH - VALUES - 2.0 * MARGIN) / (points.len().max(2) - 1) as f64;
    let x = |i: usize| VALUES + MARGIN + i as f64 * step;
    let line: Vec<String> = drawn
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|(_, m, _)| format!("{:.1},{:.1}", x(i), y(m))))
        .collect();
    let steps = slowdowns(points, history.threshold);
    let label = format!(
        "from {} to {} against the first run",
        signed_change(scale.low.exp()),
        signed_change(scale.high.exp())
    );
    html! {
        svg.spark width=(WIDTH) height=(HEIGHT) viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img" aria-label=(label) {
            text.value x=(VALUES - 2.0) y=(f(y(scale.high) + 4.0)) text-anchor="end" { (signed_change(scale.high.exp())) }
            text.value x=(VALUES - 2.0) y=(f(y(scale.low))) text-anchor="end" { (signed_change(scale.low.exp())) }
            line.zero x1=(VALUES) x2=(WIDTH) y1=(f(y(0.0))) y2=(f(y(0.0))) {}
            line.threshold x1=(VALUES) x2=(WIDTH) y1=(f(y(scale.threshold))) y2=(f(y(scale.threshold))) {}
            polyline points=(line.join(" ")) fill="none" stroke="currentColor" stroke-width="1.2" {}
            @for (i, (point, at)) in points.iter().zip(&drawn).enumerate() {
                @if let (Some(p), Some((low, median, high))) = (point, at) {
                    @let slower = steps.iter().find(|s| s.run == i);
                    g class=(if slower.is_some() { "pt step" } else { "pt" }) data-run=(i + 1) data-t=(tip(&history.marks[i], p, *median, slower)) {
                        line x1=(f(x(i))) x2=(f(x(i))) y1=(f(y(*low))) y2=(f(y(*high))) {}
                        @if slower.is_some() {
                            path d=(triangle(x(i), y(*median))) {}
                        } @else {
                            circle cx=(f(x(i))) cy=(f(y(*median))) r="2.5" {}
                        }
                    }
                }
            }
        }
    }
}

/// An upward triangle centred on `(x, y)`.
fn triangle(x: f64, y: f64) -> String {
    format!(
        "M{:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}Z",
        x,
        y - 5.0,
        x + 4.5,
        y + 3.5,
        x - 4.5,
        y + 3.5
    )
}

fn f(value: f64) -> String {
    format!("{value:.1}")
}

/// A point's tooltip: its run, its time with the interval, its change against the first
/// run, and the slowdown it marks.
fn tip(mark: &Mark, point: &Point, log_change: f64, slower: Option<&Step>) -> String {
    let interval = match (point.low_s, point.high_s) {
        (Some(low), Some(high)) => format!(" ({} to {})", duration_text(low), duration_text(high)),
        _ => String::new(),
    };
    let step = slower
        .map(|s| format!("; {} than run {}", time_change(s.ratio, None), s.from + 1))
        .unwrap_or_default();
    format!(
        "{}: {}{interval}, {} against the first run{step}",
        mark_text(mark),
        duration_text(point.median_s),
        signed_change(log_change.exp())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::history::history;
    use crate::export::fixtures;
    use crate::results::LoadedRun;

    /// The fixture run measured at day `day`, with the compression of the cell at
    /// `slowed` (if any) `factor` times as slow, its interval with it.
    fn run(day: u32, slowed: Option<(usize, f64)>) -> LoadedRun {
        let mut report = fixtures::report();
        report.environment.timestamp = format!("2026-12-0{day}T10:00:00Z");
        report.environment.git_commit = Some(format!("{day}{day}{day}{day}{day}{day}{day}{day}"));
        if let Some((index, factor)) = slowed {
            let summary = report.payloads[0].cells[index].compress.as_mut().unwrap();
            summary.median_s *= factor;
            summary.median_ci95_low_s = summary.median_ci95_low_s.map(|s| s * factor);
            summary.median_ci95_high_s = summary.median_ci95_high_s.map(|s| s * factor);
        }
        LoadedRun::from_report(&report, &format!("run{day}.json"))
    }

    #[test]
    fn a_cell_35_percent_slower_in_run_3_is_marked_there_on_a_shared_scale() {
        let runs = [
            run(1, None),
            run(2, None),
            run(3, Some((1, 1.35))),
            run(4, Some((1, 1.35))),
        ];
        let history = history(&runs.iter().collect::<Vec<_>>(), 0.1).unwrap();
        let html = section(&history).into_string();
        let slowed = fixtures::report().payloads[0].cells[1].id.to_string();
        let rows: Vec<&str> = html.split("<tr>").collect();
        let row = rows
            .iter()
            .find(|r| r.contains(&format!(">{slowed}<")))
            .unwrap();
        assert!(row.contains(r#"<g class="pt step" data-run="3""#), "{row}");
        assert_eq!(html.matches(r#"class="pt step""#).count(), 1, "{html}");
        assert!(
            html.contains(&format!(
                "{slowed} compress: 35.0% slower in run 3 (run3.json, 3333333,"
            )),
            "{html}"
        );
        // One scale for every compression chart of the payload: the same values.
        let tops: Vec<&str> = rows
            .iter()
            .filter(|r| r.contains("spark"))
            .map(|r| {
                r.split(r#"text-anchor="end">"#)
                    .nth(1)
                    .unwrap()
                    .split('<')
                    .next()
                    .unwrap()
            })
            .collect();
        assert!(tops.iter().all(|t| *t == tops[0]), "{tops:?}");
        assert!(tops[0].starts_with('+') && tops[0] != "+0.0%", "{tops:?}");
    }
}
