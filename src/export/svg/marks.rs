//! The points of a panel: each setting's place, its speed's interval as a bar, its
//! level's label kept clear of the frontier and the bars, and with a baseline, where it
//! stood there ([`super::overlay`]).

use super::axis::Scale;
use super::labels::{self, Rect};
use super::overlay;
use crate::analysis::recommend::Setting;
use crate::results::RunCell;
use crate::vocab::CodecKind;

/// Cells of one payload with their speeds in one direction, in MB/s.
type Speeds<'a> = [(RunCell<'a>, f64)];

/// A series: one codec with one library (and variant), e.g. `zstd (libzstd)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Series {
    /// e.g. `brotli (brotli-rs)`.
    pub name: String,
    /// Its marker: its codec's, or for a second series of that codec another shape, so
    /// that two libraries differ without colour (and in grey print).
    pub shape: Shape,
    /// Its colour.
    pub colour: &'static str,
}

/// A marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// zstd's.
    Circle,
    /// brotli's.
    Square,
    /// gzip's.
    Triangle,
    /// A second series of a codec.
    Diamond,
    /// A third.
    TriangleDown,
}

impl Shape {
    /// The first series of `codec` gets its codec's shape; each later one the next
    /// shape no series of that codec has yet.
    pub(crate) fn for_series(codec: CodecKind, taken: &[(CodecKind, Shape)]) -> Shape {
        let first = match codec {
            CodecKind::Zstd => Shape::Circle,
            CodecKind::Brotli => Shape::Square,
            CodecKind::Gzip => Shape::Triangle,
        };
        let used = |shape: &Shape| taken.contains(&(codec, *shape));
        [first, Shape::Diamond, Shape::TriangleDown]
            .into_iter()
            .find(|shape| !used(shape))
            .unwrap_or(first)
    }
}

/// One point in a panel, with its label's box if it has one.
#[derive(Clone, Debug)]
pub(crate) struct Mark {
    /// Centre, in pixels.
    pub x: f64,
    /// Centre, in pixels.
    pub y: f64,
    /// Index into [`super::layout::Chart::series`].
    pub series: usize,
    /// Where its level is written; `None` where points crowd too much.
    pub label: Option<Rect>,
    /// The level, written or not.
    pub level: String,
    /// What hovering it says: the cell and its figures.
    pub tip: String,
    /// The speed's 95% interval as pixels along x, kept inside the plot; `None` where
    /// the run holds no interval.
    pub bar: Option<(f64, f64)>,
    /// Whether the median is imprecise ([`crate::stats::Summary::noise`]): drawn hollow.
    pub imprecise: bool,
    /// Where the same setting stood in the baseline, in pixels; `None` without one.
    pub was: Option<(f64, f64)>,
}

/// A series' name: the codec and its library, e.g. `zstd (libzstd)`.
pub(super) fn series_name(cell: &RunCell) -> String {
    format!(
        "{} ({})",
        cell.key.id.codec,
        crate::export::labels::library_text(&cell.key.id)
    )
}

/// The points with their label spots; frontier settings are labelled first, so that a
/// crowded panel drops the labels that matter least.
pub(super) fn marks(
    (cells, before): (&Speeds, &Speeds),
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
    let was: Vec<Option<((f64, f64), f64)>> = order
        .iter()
        .map(|&i| overlay::place(&cells[i].0, before, (x, y)))
        .collect();
    let spots = labels::place(&points, plot, &keep_clear(line, &points, &bars, &was));
    order
        .iter()
        .zip(points)
        .zip(spots)
        .zip(bars.into_iter().zip(was))
        .map(|(((&i, (px, py, text)), spot), (bar, was))| Mark {
            x: px,
            y: py,
            series: index
                .get(series_name(&cells[i].0).as_str())
                .copied()
                .unwrap_or(0),
            label: spot,
            level: text,
            tip: tip(&cells[i].0, cells[i].1, direction)
                + &was.map_or(String::new(), |(_, speed)| overlay::tip(speed, direction)),
            bar,
            imprecise: summary(&cells[i].0, direction == "compression")
                .is_some_and(|s| s.noise().is_some()),
            was: was.map(|(spot, _)| spot),
        })
        .collect()
}

/// What labels keep off: the frontier, every interval's bar, and every line from a
/// baseline's place to its point.
fn keep_clear(
    frontier: &[(f64, f64)],
    points: &[(f64, f64, String)],
    bars: &[Option<(f64, f64)>],
    was: &[Option<((f64, f64), f64)>],
) -> Vec<labels::Segment> {
    let mut lines = labels::segments(frontier);
    for (((px, py, _), bar), was) in points.iter().zip(bars).zip(was) {
        lines.extend(bar.map(|(slow, fast)| [(slow, *py), (fast, *py)]));
        lines.extend(was.map(|(spot, _)| [spot, (*px, *py)]));
    }
    lines
}

/// A cell's timing in one direction.
fn summary<'a>(cell: &RunCell<'a>, compress: bool) -> Option<&'a crate::stats::Summary> {
    match compress {
        true => cell.cell.compress.as_ref(),
        false => cell.cell.decompress.as_ref(),
    }
}

/// A cell's speed interval in MB/s, slow end first, from its median's 95% interval.
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
