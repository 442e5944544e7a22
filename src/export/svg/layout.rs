//! The chart laid out: scales, ticks, points with their label spots, and the
//! frontiers, for [`super::write`] to draw.

use super::axis::{self, Scale};
use super::labels::Rect;
use super::marks::{marks, series_name, Mark, Series, Shape};

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

    /// The levels there was no room to write beside their points, per series: `no room
    /// to write the levels of zstd (libzstd) 5, 6, 7`; `None` when every level is written.
    pub(crate) fn unlabelled(&self, series: &[Series]) -> Option<String> {
        let mut by_series: Vec<(usize, Vec<&str>)> = Vec::new();
        for mark in self.marks.iter().filter(|m| m.label.is_none()) {
            match by_series.iter_mut().find(|(s, _)| *s == mark.series) {
                Some((_, levels)) => levels.push(&mark.level),
                None => by_series.push((mark.series, vec![&mark.level])),
            }
        }
        let parts: Vec<String> = by_series
            .into_iter()
            .map(|(s, mut levels)| {
                levels.sort_by_key(|level| level.parse::<i32>().unwrap_or(i32::MAX));
                let name = series.get(s).map_or("", |s| s.name.as_str());
                format!("{name} {}", levels.join(", "))
            })
            .collect();
        (!parts.is_empty()).then(|| format!("No room to write the levels of {}.", parts.join("; ")))
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
    layout_over(run, None, advice, caption)
}

/// [`layout`], with each setting's place in `baseline`, if given, beside its point; the
/// scales hold both runs.
pub(crate) fn layout_over(
    run: &LoadedRun,
    baseline: Option<&LoadedRun>,
    advice: &[PayloadAdvice],
    caption: &Caption,
) -> Chart {
    let series = series_of(&run.codec_cells());
    let header_height = 72.0 + legend_lines(&series, WIDTH) as f64 * LEGEND_LINE;
    let mut panels = Vec::new();
    for (row, payload) in advice.iter().enumerate() {
        let top = header_height + row as f64 * PANEL_HEIGHT;
        for (column, compress) in [true, false].into_iter().enumerate() {
            let left = column as f64 * WIDTH / 2.0;
            panels.extend(panel(
                (run, baseline),
                payload,
                &series,
                compress,
                left,
                top,
            ));
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
    let mut shapes: Vec<(CodecKind, Shape)> = Vec::new();
    for cell in cells {
        let name = series_name(cell);
        if seen.insert(name.clone()) {
            let codec = cell.key.id.codec;
            let shape = Shape::for_series(codec, &shapes);
            shapes.push((codec, shape));
            series.push(Series {
                name,
                shape,
                colour: COLOURS[series.len() % COLOURS.len()],
            });
        }
    }
    series
}

/// One panel of `payload`, its top-left corner at `(left, top)`; `None` without points.
fn panel(
    (run, baseline): (&LoadedRun, Option<&LoadedRun>),
    payload: &PayloadAdvice,
    series: &[Series],
    compress: bool,
    left: f64,
    top: f64,
) -> Option<Panel> {
    let cells = cells_with_speed(run, &payload.payload, compress);
    if cells.is_empty() {
        return None;
    }
    let before = baseline
        .map(|b| cells_with_speed(b, &payload.payload, compress))
        .unwrap_or_default();
    let both = || cells.iter().chain(&before);
    let (x_min, x_max) = min_max(both().map(|(_, s)| *s))?;
    let (y_min, y_max) = min_max(both().map(|(c, _)| c.ratio()))?;
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
            (&cells, &before),
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
