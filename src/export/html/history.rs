//! The history on a page: the runs in measured order, then per payload a row per
//! cell with its compression and decompression time drawn over the runs, each point
//! with its 95% interval as a bar, and the change from the first run to the last.

use maud::{html, Markup};

use super::page::lazy;

use crate::analysis::history::{History, Mark, Point, Series};
use crate::format::{duration_text, thousands};

/// The sparkline's size in CSS pixels, and its inner margin.
const WIDTH: f64 = 180.0;
const HEIGHT: f64 = 40.0;
const MARGIN: f64 = 5.0;

/// The history section.
pub(crate) fn section(history: &History) -> Markup {
    html! {
        section.history {
            h2 { "History over " (history.marks.len()) " runs" }
            p { "Each line is a cell's median time per call, run by run in the order measured; a bar is its 95% interval. Hover a point for its run." }
            ol.marks { @for mark in &history.marks { li { (mark_text(mark)) } } }
            @for (payload, series) in &history.payloads {
                h3 { (payload) }
                (lazy(html! { div.scroll { table.history {
                    thead { tr {
                        th scope="col" { "setting" }
                        th scope="col" { "bytes" }
                        th scope="col" { "compress time" }
                        th scope="col" { "first → last (+ slower)" }
                        th scope="col" { "decompress time" }
                        th scope="col" { "first → last (+ slower)" }
                    } }
                    tbody { @for s in series { (row(history, s)) } }
                } } }))
            }
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

fn row(history: &History, series: &Series) -> Markup {
    let bytes = match series.size_changed() {
        true => {
            let sizes: Vec<String> = series
                .bytes
                .iter()
                .flatten()
                .map(|&b| thousands(b))
                .collect();
            format!("{} SIZE CHANGED", sizes.join(" → "))
        }
        false => series
            .bytes
            .iter()
            .flatten()
            .next()
            .map(|&b| thousands(b))
            .unwrap_or_default(),
    };
    html! {
        tr {
            th scope="row" { (series.id) }
            td.n class=[series.size_changed().then_some("drift")] { (bytes) }
            td { (sparkline(history, &series.compress)) }
            td.n { (change_text(&series.compress)) }
            td { (sparkline(history, &series.decompress)) }
            td.n { (change_text(&series.decompress)) }
        }
    }
}

/// The last measured time against the first, as a time change: `+12.0%` is slower.
fn change_text(points: &[Option<Point>]) -> String {
    let mut present = points.iter().flatten();
    match (present.next(), present.last()) {
        (Some(first), Some(last)) => {
            format!("{:+.1}%", (last.median_s / first.median_s - 1.0) * 100.0)
        }
        _ => String::new(),
    }
}

/// A small chart of `points` over the runs: medians joined by a line, intervals as bars,
/// the axis from the fastest interval's end to the slowest's.
fn sparkline(history: &History, points: &[Option<Point>]) -> Markup {
    let ends: Vec<f64> = points
        .iter()
        .flatten()
        .flat_map(|p| {
            [
                p.low_s.unwrap_or(p.median_s),
                p.high_s.unwrap_or(p.median_s),
            ]
        })
        .collect();
    if ends.is_empty() {
        return html! {};
    }
    // At least ±5% around the medians' mean, so that a flat series draws flat.
    let medians: Vec<f64> = points.iter().flatten().map(|p| p.median_s).collect();
    let mean = medians.iter().sum::<f64>() / medians.len() as f64;
    let low = ends.iter().copied().fold(mean * 0.95, f64::min);
    let high = ends.iter().copied().fold(mean * 1.05, f64::max);
    let span = if high > low {
        high - low
    } else {
        low.max(1e-12)
    };
    let y = |s: f64| HEIGHT - MARGIN - (s - low) / span * (HEIGHT - 2.0 * MARGIN);
    let step = (WIDTH - 2.0 * MARGIN) / (points.len().max(2) - 1) as f64;
    let x = |i: usize| MARGIN + i as f64 * step;
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| format!("{:.1},{:.1}", x(i), y(p.median_s))))
        .collect();
    let label = format!("from {} to {}", duration_text(low), duration_text(high));
    html! {
        svg.spark width=(WIDTH) height=(HEIGHT) viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img" aria-label=(label) {
            polyline points=(line.join(" ")) fill="none" stroke="currentColor" stroke-width="1.2" {}
            @for (i, point) in points.iter().enumerate() {
                @if let Some(p) = point {
                    g.pt data-t=(tip(&history.marks[i], p)) {
                        line x1=(format!("{:.1}", x(i))) x2=(format!("{:.1}", x(i)))
                            y1=(format!("{:.1}", y(p.low_s.unwrap_or(p.median_s))))
                            y2=(format!("{:.1}", y(p.high_s.unwrap_or(p.median_s))))
                            stroke="#0072B2" stroke-width="2" {}
                        circle cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(p.median_s))) r="2.5" fill="#0072B2" {}
                    }
                }
            }
        }
    }
}

/// A point's tooltip: its run and its time with the interval.
fn tip(mark: &Mark, point: &Point) -> String {
    let interval = match (point.low_s, point.high_s) {
        (Some(low), Some(high)) => format!(" ({} to {})", duration_text(low), duration_text(high)),
        _ => String::new(),
    };
    format!(
        "{}: {}{interval}",
        mark_text(mark),
        duration_text(point.median_s)
    )
}
