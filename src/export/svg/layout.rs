//! The chart laid out: scales, ticks, points with their label spots, and the
//! frontiers, for [`super::write`] to draw.

use super::axis::{self, Scale};
use super::labels::{self, Rect};

use crate::analysis::recommend::{PayloadAdvice, Setting};
use crate::results::{LoadedRun, RunCell};
use crate::vocab::CodecKind;

/// Width of the whole chart, in pixels: two panels side by side.
const WIDTH: f64 = 1200.0;
/// Height of one payload's row of panels.
const PANEL_HEIGHT: f64 = 470.0;
/// Room left of a panel's plot (tick labels and the y title) and above it (the caption).
const PLOT_LEFT: f64 = 72.0;
const PLOT_TOP: f64 = 40.0;
/// Height of one line of the legend.
pub(super) const LEGEND_LINE: f64 = 20.0;

/// Distinct colours a reader with any common colour-vision deficiency tells apart (Okabe
/// and Ito, *Color Universal Design*, 2008; yellow left out, too faint on white), one per
/// series, then repeated. Each codec also has its own marker shape.
const COLOURS: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];

/// What the title says about the run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Caption {
    /// The run's name, e.g. its file name.
    pub run: String,
    /// The machine it ran on, if known.
    pub machine: Option<String>,
    /// When it ran, e.g. `2026-11-30`, if known.
    pub date: Option<String>,
}

/// A series: one codec with one library (and variant), e.g. `zstd (libzstd)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Series {
    /// e.g. `brotli (brotli-rs)`.
    pub name: String,
    /// Which marker it gets.
    pub codec: CodecKind,
    /// Its colour.
    pub colour: &'static str,
}

/// One point in a panel, with its label's box if it has one.
#[derive(Clone, Debug)]
pub(crate) struct Mark {
    /// Centre, in pixels.
    pub x: f64,
    /// Centre, in pixels.
    pub y: f64,
    /// Index into [`Chart::series`].
    pub series: usize,
    /// The level, and where it is written; `None` where points crowd too much.
    pub label: Option<(Rect, String)>,
    /// What hovering it says: the cell and its figures.
    pub tip: String,
    /// The speed's 95% interval as pixels along x, kept inside the plot; `None` where
    /// the run holds no interval.
    pub bar: Option<(f64, f64)>,
    /// Whether the median is imprecise ([`crate::stats::Summary::noise`]): drawn hollow.
    pub imprecise: bool,
}

/// One panel: a payload and a direction.
#[derive(Clone, Debug)]
pub(crate) struct Panel {
    /// e.g. `small (298,727 bytes): compression`.
    pub caption: String,
    /// Title under the x axis.
    pub x_title: String,
    /// The plot area, in pixels.
    pub plot: Rect,
    /// Each x tick: pixel and text.
    pub x_ticks: Vec<(f64, String)>,
    /// Each y tick: pixel and text.
    pub y_ticks: Vec<(f64, String)>,
    /// The points.
    pub marks: Vec<Mark>,
    /// The Pareto frontier, in pixels, fastest first.
    pub frontier: Vec<(f64, f64)>,
}

impl Panel {
    /// The panel's whole area in the chart: its plot with the room around it.
    pub(crate) fn frame(&self) -> Rect {
        Rect {
            x: self.plot.x - PLOT_LEFT,
            y: self.plot.y - PLOT_TOP,
            w: WIDTH / 2.0,
            h: PANEL_HEIGHT,
        }
    }
}

/// The whole chart, laid out.
#[derive(Clone, Debug)]
pub(crate) struct Chart {
    /// Size in pixels.
    pub width: f64,
    /// Size in pixels.
    pub height: f64,
    /// First line.
    pub title: String,
    /// Second line: payloads, machine, date, run.
    pub subtitle: String,
    /// Legend entries, in first-seen order.
    pub series: Vec<Series>,
    /// Two per payload: compression, then decompression.
    pub panels: Vec<Panel>,
}

/// Lays the chart out: series, scales, ticks, points, frontiers and label spots.
pub(crate) fn layout(run: &LoadedRun, advice: &[PayloadAdvice], caption: &Caption) -> Chart {
    let series = series_of(&run.codec_cells());
    let header_height = 72.0 + legend_lines(&series, WIDTH) as f64 * LEGEND_LINE;
    let mut panels = Vec::new();
    for (row, payload) in advice.iter().enumerate() {
        let top = header_height + row as f64 * PANEL_HEIGHT;
        for (column, compress) in [true, false].into_iter().enumerate() {
            let left = column as f64 * WIDTH / 2.0;
            panels.extend(panel(run, payload, &series, compress, left, top));
        }
    }
    let payloads: Vec<&str> = advice.iter().map(|a| a.payload.as_str()).collect();
    let mut about = vec![format!("payload {}", payloads.join(", "))];
    about.extend(caption.machine.clone());
    about.extend(caption.date.clone());
    about.push(format!("run {}", caption.run));
    Chart {
        width: WIDTH,
        height: header_height + advice.len().max(1) as f64 * PANEL_HEIGHT,
        title: "Compression ratio against speed (numbers beside points are levels)".to_string(),
        subtitle: about.join(" · "),
        series,
        panels,
    }
}

/// A series per codec and library, in first-seen order, each with its colour.
fn series_of(cells: &[RunCell]) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for cell in cells {
        let name = series_name(cell);
        if seen.insert(name.clone()) {
            series.push(Series {
                name,
                codec: cell.key.id.codec,
                colour: COLOURS[series.len() % COLOURS.len()],
            });
        }
    }
    series
}

fn series_name(cell: &RunCell) -> String {
    format!(
        "{} ({})",
        cell.key.id.codec,
        crate::export::labels::library_text(&cell.key.id)
    )
}

/// One panel of `payload`, its top-left corner at `(left, top)`; `None` without points.
fn panel(
    run: &LoadedRun,
    payload: &PayloadAdvice,
    series: &[Series],
    compress: bool,
    left: f64,
    top: f64,
) -> Option<Panel> {
    let cells = cells_with_speed(run, &payload.payload, compress);
    let (x_min, x_max) = min_max(cells.iter().map(|(_, s)| *s))?;
    let (y_min, y_max) = min_max(cells.iter().map(|(c, _)| c.ratio()))?;
    let plot = Rect {
        x: left + PLOT_LEFT,
        y: top + PLOT_TOP,
        w: WIDTH / 2.0 - PLOT_LEFT - 24.0,
        h: PANEL_HEIGHT - PLOT_TOP - 60.0,
    };
    let (x_lo, x_hi) = axis::log_range(x_min, x_max);
    let (y_lo, y_hi) = axis::linear_range(y_min, y_max);
    let x = Scale {
        lo: x_lo,
        hi: x_hi,
        from: plot.x,
        to: plot.x + plot.w,
        log: true,
    };
    let y = Scale {
        lo: y_lo,
        hi: y_hi,
        from: plot.y + plot.h,
        to: plot.y,
        log: false,
    };
    let frontier_settings = if compress {
        &payload.compress_frontier
    } else {
        &payload.decompress_frontier
    };
    let direction = if compress {
        "compression"
    } else {
        "decompression"
    };
    let line = frontier(frontier_settings, payload.input_bytes, compress, &x, &y);
    Some(Panel {
        caption: format!(
            "{} ({} bytes): {direction}",
            payload.payload,
            crate::format::thousands(payload.input_bytes)
        ),
        x_title: format!("{direction} MB/s, log scale (MB = 10^6 bytes)"),
        plot,
        x_ticks: ticks(&x, axis::log_ticks(x_lo, x_hi)),
        y_ticks: ticks(&y, axis::linear_ticks(y_lo, y_hi).0),
        marks: marks(
            &cells,
            series,
            frontier_settings,
            (&x, &y, &plot),
            direction,
            &line,
        ),
        frontier: line,
    })
}

/// The payload's cells that have a speed in this direction, with it in MB/s.
fn cells_with_speed<'a>(
    run: &'a LoadedRun,
    payload: &str,
    compress: bool,
) -> Vec<(RunCell<'a>, f64)> {
    let speed = |cell: &RunCell| {
        let timing = if compress {
            cell.compress()
        } else {
            cell.decompress()
        };
        timing
            .map(|t| t.mb_s(cell.input_bytes()))
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    run.cells_on(payload)
        .filter_map(|c| speed(&c).map(|s| (c, s)))
        .collect()
}

fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |range, v| match range {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

fn ticks(scale: &Scale, values: Vec<f64>) -> Vec<(f64, String)> {
    values
        .into_iter()
        .map(|v| (scale.pixel(v), axis::tick_text(v)))
        .collect()
}

/// The points with their label spots; frontier settings are labelled first, so that a
/// crowded panel drops the labels that matter least.
fn marks(
    cells: &[(RunCell, f64)],
    series: &[Series],
    frontier: &[Setting],
    (x, y, plot): (&Scale, &Scale, &Rect),
    direction: &str,
    line: &[(f64, f64)],
) -> Vec<Mark> {
    let index: std::collections::HashMap<&str, usize> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let frontier: std::collections::HashSet<_> = frontier.iter().map(|s| &s.key).collect();
    let on_frontier = |cell: &RunCell| frontier.contains(&cell.key);
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&i| !on_frontier(&cells[i].0));
    let points: Vec<(f64, f64, String)> = order
        .iter()
        .map(|&i| {
            let (cell, speed) = &cells[i];
            (
                x.pixel(*speed),
                y.pixel(cell.ratio()),
                cell.key.id.level.to_string(),
            )
        })
        .collect();
    let bars: Vec<Option<(f64, f64)>> = order
        .iter()
        .map(|&i| {
            interval(&cells[i].0, direction == "compression").map(|(slow, fast)| {
                let inside = |v: f64| x.pixel(v).clamp(plot.x, plot.x + plot.w);
                (inside(slow), inside(fast))
            })
        })
        .collect();
    // Labels keep off the frontier and off every interval's bar.
    let mut lines = labels::segments(line);
    lines.extend(
        points
            .iter()
            .zip(&bars)
            .filter_map(|((_, py, _), bar)| bar.map(|(slow, fast)| [(slow, *py), (fast, *py)])),
    );
    let spots = labels::place(&points, plot, &lines);
    order
        .iter()
        .zip(points)
        .zip(spots)
        .zip(bars)
        .map(|(((&i, (px, py, text)), spot), bar)| Mark {
            x: px,
            y: py,
            series: index
                .get(series_name(&cells[i].0).as_str())
                .copied()
                .unwrap_or(0),
            label: spot.map(|rect| (rect, text)),
            tip: tip(&cells[i].0, cells[i].1, direction),
            bar,
            imprecise: summary(&cells[i].0, direction == "compression")
                .is_some_and(|s| s.noise().is_some()),
        })
        .collect()
}

/// A cell's speed interval in MB/s, slow end first, from its median's 95% interval.
fn summary<'a>(cell: &RunCell<'a>, compress: bool) -> Option<&'a crate::stats::Summary> {
    match compress {
        true => cell.cell.compress.as_ref(),
        false => cell.cell.decompress.as_ref(),
    }
}

fn interval(cell: &RunCell, compress: bool) -> Option<(f64, f64)> {
    let summary = summary(cell, compress)?;
    let (low_s, high_s) = (summary.median_ci95_low_s?, summary.median_ci95_high_s?);
    let mb = |s: f64| crate::stats::mb_per_s(cell.input_bytes(), s);
    Some((mb(high_s), mb(low_s))).filter(|(a, b)| a.is_finite() && b.is_finite() && *a > 0.0)
}

/// `zstd 3 (libzstd): 43,644 B, ratio 6.84, compression 412 MB/s`.
fn tip(cell: &RunCell, speed: f64, direction: &str) -> String {
    format!(
        "{} {} ({}): {} B, ratio {:.2}, {direction} {} MB/s",
        cell.key.id.codec,
        cell.key.id.level,
        crate::export::labels::library_text(&cell.key.id),
        crate::format::thousands(cell.cell.compressed_bytes),
        cell.ratio(),
        crate::format::significant(speed, 3)
    )
}

fn frontier(
    settings: &[Setting],
    input_bytes: u64,
    compress: bool,
    x: &Scale,
    y: &Scale,
) -> Vec<(f64, f64)> {
    settings
        .iter()
        .map(|s| {
            let seconds = if compress {
                s.compress_s
            } else {
                s.decompress_s
            };
            let speed = crate::stats::mb_per_s(input_bytes, seconds);
            (x.pixel(speed), y.pixel(s.ratio))
        })
        .collect()
}

/// Font size of legend entries.
pub(super) const LEGEND_SIZE: f64 = 13.0;

/// Where each legend entry goes: `(line, x)` from the chart's left edge, wrapping at
/// `width`; the frontier's entry comes last.
pub(super) fn legend_spots(series: &[Series], width: f64) -> Vec<(usize, f64)> {
    let mut spots = Vec::new();
    let (mut line, mut x) = (0, 24.0);
    let names = series
        .iter()
        .map(|s| s.name.as_str())
        .chain(["Pareto frontier"]);
    for name in names {
        let entry = 22.0 + name.chars().count() as f64 * LEGEND_SIZE * 0.6 + 18.0;
        if x + entry > width - 24.0 && x > 24.0 {
            (line, x) = (line + 1, 24.0);
        }
        spots.push((line, x));
        x += entry;
    }
    spots
}

/// Lines the legend takes at `width`.
fn legend_lines(series: &[Series], width: f64) -> usize {
    legend_spots(series, width)
        .last()
        .map_or(1, |(line, _)| line + 1)
}
