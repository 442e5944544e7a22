//! A comparison's changes drawn with their bands, a row each, as a forest plot draws
//! effects with their intervals: the threshold a shaded strip around zero, each change a
//! dot with its noise band as a bar. A bar wholly outside the strip is a verdict; one
//! that crosses its edge is inconclusive. The axis is the change in time, right slower,
//! as every table writes it; it is logarithmic, so twice and half the time sit equally
//! far from zero.

use maud::{html, Markup};

use crate::analysis::compare::{Comparison, Direction, Row, SpeedChange, Verdict};

/// The most rows drawn; the table above lists them all.
const MOST_ROWS: usize = 60;
/// Sizes in CSS pixels: the plot's width, its side margin, and a row's height: a row is
/// its label on a line of its own, then its bar, so the plot stays narrow enough for a
/// phone (it scales down below its width) and no label hides a bar.
const PLOT_WIDTH: f64 = 380.0;
const SIDE: f64 = 8.0;
const ROW_HEIGHT: f64 = 30.0;
/// The top margin, for the axis's tick labels.
const TOP: f64 = 22.0;

/// One row: what changed, and its change with its band, as log time ratios (above
/// zero is slower), drawn in its verdict's class.
pub(super) struct Entry {
    /// What changed, cut to fit the labels' column.
    pub label: String,
    /// The band's fast end.
    pub low: f64,
    /// The change.
    pub centre: f64,
    /// The band's slow end.
    pub high: f64,
    /// The verdict's class: regressed, improved, inconclusive or unchanged.
    pub class: &'static str,
    /// The smallest slowdown this row could have shown, as a log time ratio, drawn as a
    /// tick: a slowdown left of it could have passed unseen.
    pub sight: Option<f64>,
}

impl Entry {
    /// `label` with its change and band, cut to fit.
    pub(super) fn new(
        label: String,
        (low, centre, high): (f64, f64, f64),
        class: &'static str,
    ) -> Self {
        Entry {
            label: fitted(label),
            low,
            centre,
            high,
            class,
            sight: None,
        }
    }
}

/// The plot of `rows`' speed changes; nothing when none has one.
pub(crate) fn forest(comparison: &Comparison, rows: &[&Row]) -> Markup {
    let entries: Vec<Entry> = rows
        .iter()
        .filter(|row| !row.is_reference)
        .flat_map(|row| {
            row.speeds.iter().filter_map(move |(direction, change)| {
                Some(entry(row, *direction, change.as_ref()?))
            })
        })
        .take(MOST_ROWS)
        .collect();
    let caption = html! {
        "Each change in time (right is slower) with its noise band; the shaded strip is the "
        (format!("{:.0}%", comparison.threshold * 100.0))
        " threshold either way. A bar wholly outside the strip is a verdict."
    };
    draw(&entries, comparison.threshold, caption)
}

/// `entries` drawn a row each against the `threshold` strip, over `caption`; nothing
/// when there are none.
pub(super) fn draw(entries: &[Entry], threshold: f64, caption: Markup) -> Markup {
    if entries.is_empty() {
        return html! {};
    }
    let limit = threshold.ln_1p();
    let reach = entries
        .iter()
        .flat_map(|e| [e.low.abs(), e.high.abs()])
        .fold(2.0 * limit, f64::max)
        // At least ±10% either way: −10% is ln 0.9 ≈ −0.105 from zero.
        .clamp(0.11, 4f64.ln());
    let x = |log: f64| SIDE + (log.clamp(-reach, reach) / reach + 1.0) / 2.0 * PLOT_WIDTH;
    let height = TOP + entries.len() as f64 * ROW_HEIGHT + 4.0;
    let width = PLOT_WIDTH + 2.0 * SIDE;
    html! {
        figure.forest {
            svg width=(width) height=(height) viewBox=(format!("0 0 {width} {height}")) role="img"
                aria-label="Each change in time with its noise band" {
                rect.strip x=(fmt(x(-limit))) y=(fmt(TOP - 4.0)) width=(fmt(x(limit) - x(-limit)))
                    height=(fmt(height - TOP)) {}
                @for (log, text) in ticks(reach) {
                    line.tick x1=(fmt(x(log))) x2=(fmt(x(log))) y1=(fmt(TOP - 4.0)) y2=(fmt(height)) {}
                    text.tick x=(fmt(x(log))) y="12" text-anchor="middle" { (text) }
                }
                @for (i, e) in entries.iter().enumerate() {
                    @let y = TOP + (i as f64 + 0.75) * ROW_HEIGHT;
                    g class=(format!("change {}", e.class)) {
                        text x=(fmt(SIDE)) y=(fmt(y - 9.0)) { (e.label) }
                        line x1=(fmt(x(e.low))) x2=(fmt(x(e.high))) y1=(fmt(y)) y2=(fmt(y)) {}
                        circle cx=(fmt(x(e.centre))) cy=(fmt(y)) r="3.5" {}
                        @if let Some(sight) = e.sight {
                            line.sight x1=(fmt(x(sight))) x2=(fmt(x(sight))) y1=(fmt(y - 6.0))
                                y2=(fmt(y + 6.0)) {
                                title { (format!("could have shown a slowdown of {:.1}% or more", sight.exp_m1() * 100.0)) }
                            }
                        }
                    }
                }
            }
            figcaption { (caption) }
        }
    }
}

fn entry(row: &Row, direction: Direction, change: &SpeedChange) -> Entry {
    let centre = -change.judged_change.ln_1p();
    let band = change.noise.unwrap_or(0.0);
    let label = format!("{} {}", row.key, direction.name());
    Entry::new(
        label,
        (centre - band, centre, centre + band),
        class(change.verdict),
    )
}

fn class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::Inconclusive => "inconclusive",
        Verdict::Unchanged => "unchanged",
    }
}

/// Ticks at round changes in time within `reach` (a log ratio) each side, the small ones
/// left out on a wide axis, where their labels would touch.
fn ticks(reach: f64) -> Vec<(f64, String)> {
    let smallest = match reach {
        r if r > 1.0 => 0.5,
        r if r > 0.5 => 0.2,
        _ => 0.1,
    };
    [-0.75, -0.5, -0.2, -0.1, 0.0, 0.1, 0.2, 0.5, 1.0, 2.0]
        .into_iter()
        .filter(|change: &f64| *change == 0.0 || change.abs() >= smallest)
        .map(|change: f64| {
            let text = match change {
                0.0 => "0".to_string(),
                c => format!("{:+.0}%", c * 100.0),
            };
            (change.ln_1p(), text)
        })
        .filter(|(log, _)| log.abs() <= reach + 1e-9)
        .collect()
}

/// `text` cut to fit the labels' column, with an ellipsis where it was cut.
fn fitted(text: String) -> String {
    const MOST: usize = 56;
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

fn fmt(value: f64) -> String {
    format!("{value:.1}")
}
