//! Writing a laid-out [`Chart`] as SVG text: the chart of a run, drawn.

use std::fmt::Write as _;

use super::labels::{LABEL_BASELINE, LABEL_SIZE, MARKER_RADIUS};
use super::layout::{
    layout, layout_over, legend_spots, Caption, Chart, Panel, LEGEND_LINE, LEGEND_SIZE,
};
use super::marks::{Series, Shape};
use crate::analysis::recommend::PayloadAdvice;
use crate::results::LoadedRun;

/// The chart of `run` as an SVG document: a row per payload in `advice`, compression on
/// the left and decompression on the right.
pub(crate) fn render_svg(run: &LoadedRun, advice: &[PayloadAdvice], caption: &Caption) -> Vec<u8> {
    // Bidi and control characters a saved run holds are shown, not obeyed.
    let drawn = svg(&layout(run, advice, caption), Points::Plain);
    crate::format::visible(&drawn).into_owned().into_bytes()
}

/// The chart of `run` for a web page, a picture per panel so that a narrow screen can
/// stack them: each point in a group that names its series (`data-s`, for a legend
/// that hides it) and what it is (`data-t`, shown on hover); with the chart's series,
/// for that legend (the page draws it). With a baseline, each point's place in it is
/// drawn in grey, joined to the point.
pub(crate) fn interactive_panels(
    run: &LoadedRun,
    advice: &[PayloadAdvice],
    caption: &Caption,
    baseline: Option<&LoadedRun>,
) -> (Vec<Series>, Vec<String>) {
    let chart = layout_over(run, baseline, advice, caption);
    let panels = chart
        .panels
        .iter()
        .map(|panel| {
            let frame = panel.frame();
            // A panel and the levels it had no room for, one cell of the page's grid.
            let mut out = String::from("<div class=\"panel\">");
            let _ = writeln!(
                out,
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{x} {y} {w} {h}" role="img" aria-label="{label}" font-family="sans-serif">"#,
                x = frame.x,
                y = frame.y,
                w = frame.w,
                h = frame.h,
                label = escape(&panel.caption)
            );
            let _ = writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="white"/>"#,
                frame.x, frame.y, frame.w, frame.h
            );
            draw_panel(&mut out, panel, &chart.series, Points::Grouped);
            out.push_str("</svg>\n");
            // A level with no room beside its point is listed under the panel, not lost.
            if let Some(unlabelled) = panel.unlabelled(&chart.series) {
                let _ = writeln!(out, r#"<p class="unlabelled">{}</p>"#, escape(&unlabelled));
            }
            out.push_str("</div>\n");
            out
        })
        .collect();
    (chart.series, panels)
}

/// How points are drawn.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Points {
    /// Shapes and labels alone: a picture.
    Plain,
    /// Each point a group with its series and a tooltip: for a page.
    Grouped,
}

/// The chart as an SVG document.
pub(super) fn svg(chart: &Chart, points: Points) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = chart.width,
        h = chart.height
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    text(&mut out, 24.0, 30.0, 20.0, "start", "#000", &chart.title);
    text(&mut out, 24.0, 52.0, 13.0, "start", "#444", &chart.subtitle);
    legend(&mut out, chart);
    for panel in &chart.panels {
        draw_panel(&mut out, panel, &chart.series, points);
    }
    out.push_str("</svg>\n");
    out
}

fn legend(out: &mut String, chart: &Chart) {
    let spots = legend_spots(&chart.series, chart.width);
    for (index, &(line, x)) in spots.iter().enumerate() {
        let y = 76.0 + line as f64 * LEGEND_LINE;
        match chart.series.get(index) {
            Some(series) => {
                marker(
                    out,
                    x + 8.0,
                    y - 4.0,
                    series.shape,
                    series.colour,
                    series.colour,
                );
                text(out, x + 20.0, y, LEGEND_SIZE, "start", "#222", &series.name);
            }
            None => {
                let _ = writeln!(
                    out,
                    r##"<line x1="{}" y1="{y2}" x2="{}" y2="{y2}" stroke="#555" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
                    x,
                    x + 16.0,
                    y2 = y - 4.0
                );
                text(
                    out,
                    x + 20.0,
                    y,
                    LEGEND_SIZE,
                    "start",
                    "#222",
                    "Pareto frontier",
                );
            }
        }
    }
}

fn draw_panel(out: &mut String, panel: &Panel, series: &[Series], points: Points) {
    // On a page, a panel is a group: the legend redraws its frontier among the points
    // left shown.
    if points == Points::Grouped {
        out.push_str("<g class=\"panel\">\n");
    }
    draw_axes(out, panel);
    draw_points(out, panel, series, points);
    if points == Points::Grouped {
        out.push_str("</g>\n");
    }
}

/// The caption, grid, ticks, frame and axis titles of a panel.
fn draw_axes(out: &mut String, panel: &Panel) {
    let plot = &panel.plot;
    let (bottom, right) = (plot.y + plot.h, plot.x + plot.w);
    text(
        out,
        plot.x,
        plot.y - 14.0,
        15.0,
        "start",
        "#000",
        &panel.caption,
    );
    for (x, label) in &panel.x_ticks {
        grid(out, *x, plot.y, *x, bottom);
        text(out, *x, bottom + 16.0, 12.0, "middle", "#333", label);
    }
    for (y, label) in &panel.y_ticks {
        grid(out, plot.x, *y, right, *y);
        text(out, plot.x - 6.0, y + 4.0, 12.0, "end", "#333", label);
    }
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#888"/>"##,
        plot.x, plot.y, plot.w, plot.h
    );
    text(
        out,
        plot.x + plot.w / 2.0,
        bottom + 38.0,
        13.0,
        "middle",
        "#222",
        &panel.x_title,
    );
    let (title_x, title_y) = (plot.x - 52.0, plot.y + plot.h / 2.0);
    let _ = writeln!(
        out,
        r##"<text x="{title_x:.1}" y="{title_y:.1}" font-size="13" fill="#222" text-anchor="middle" transform="rotate(-90 {title_x:.1} {title_y:.1})">ratio (uncompressed ÷ compressed)</text>"##
    );
}

/// The frontier, then each point with its label.
fn draw_points(out: &mut String, panel: &Panel, series: &[Series], points: Points) {
    if panel.frontier.len() > 1 {
        let points: Vec<String> = panel
            .frontier
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            out,
            r##"<polyline class="frontier" points="{}" fill="none" stroke="#555" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
            points.join(" ")
        );
    }
    for mark in &panel.marks {
        let colour = series.get(mark.series).map_or("#000", |s| s.colour);
        let shape = series.get(mark.series).map_or(Shape::Circle, |s| s.shape);
        if points == Points::Grouped {
            // The page's script shows `data-t` on hover: a <title> per point would double
            // the nodes a large chart makes the browser build.
            let _ = write!(
                out,
                r#"<g class="pt" data-s="{}" data-t="{}">"#,
                mark.series,
                escape(&mark.tip)
            );
        }
        if let Some((x, y)) = mark
            .was
            .filter(|(x, y)| (x - mark.x).hypot(y - mark.y) >= 1.0)
        {
            // The baseline's place: a grey outline of the marker, a line to it from now.
            let _ = write!(
                out,
                r##"<g class="was"><line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="#999" stroke-width="1"/>"##,
                mark.x, mark.y
            );
            marker(out, x, y, shape, "#999", "none");
            out.push_str("</g>\n");
        }
        if let Some((slow, fast)) = mark.bar.filter(|(a, b)| b - a >= 1.0) {
            // The 95% interval, with short caps at its ends.
            let y = mark.y;
            let _ = writeln!(
                out,
                r#"<path class="bar" d="M{slow:.1},{y:.1} H{fast:.1} M{slow:.1},{:.1} V{:.1} M{fast:.1},{:.1} V{:.1}" stroke="{colour}" stroke-width="1" fill="none"/>"#,
                y - 3.0,
                y + 3.0,
                y - 3.0,
                y + 3.0
            );
        }
        // An imprecise median is hollow: its place is less sure than its neighbours'.
        let fill = if mark.imprecise { "white" } else { colour };
        marker(out, mark.x, mark.y, shape, colour, fill);
        if let Some(rect) = &mark.label {
            let level = &mark.level;
            let baseline = rect.y + LABEL_BASELINE;
            text(out, rect.x, baseline, LABEL_SIZE, "start", colour, level);
        }
        if points == Points::Grouped {
            out.push_str("</g>\n");
        }
    }
}

/// A legend's key for a series on a page: its marker, as a small SVG of its own.
pub(crate) fn swatch(shape: Shape, colour: &str) -> String {
    let mut out = String::from(
        r#"<svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">"#,
    );
    marker(&mut out, 6.0, 6.0, shape, colour, colour);
    // No white space inside: the key's text is its series' name alone.
    out.truncate(out.trim_end().len());
    out.push_str("</svg>");
    out
}

/// zstd a circle, brotli a square, gzip a triangle, a second library of a codec a
/// diamond, a third a triangle pointing down: series differ without colour.
fn marker(out: &mut String, x: f64, y: f64, shape: Shape, colour: &str, fill: &str) {
    let r = MARKER_RADIUS - 1.0;
    let paint = match fill == colour {
        true => format!(r#"fill="{fill}""#),
        false => format!(r#"fill="{fill}" stroke="{colour}" stroke-width="1.5""#),
    };
    let path = |points: &[(f64, f64)]| {
        let at: Vec<String> = points
            .iter()
            .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx, y + dy))
            .collect();
        format!(r#"<path d="M{} Z" {paint}/>"#, at.join(" L"))
    };
    let drawn = match shape {
        Shape::Circle => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" {paint}/>"#),
        Shape::Square => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{}" height="{}" {paint}/>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        Shape::Triangle => path(&[(0.0, -r - 0.5), (r, r - 0.5), (-r, r - 0.5)]),
        Shape::Diamond => path(&[
            (0.0, -r - 1.0),
            (r + 1.0, 0.0),
            (0.0, r + 1.0),
            (-r - 1.0, 0.0),
        ]),
        Shape::TriangleDown => path(&[(0.0, r + 0.5), (r, -r + 0.5), (-r, -r + 0.5)]),
    };
    let _ = writeln!(out, "{drawn}");
}

fn grid(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    let _ = writeln!(
        out,
        r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#e4e4e4"/>"##
    );
}

fn text(out: &mut String, x: f64, y: f64, size: f64, anchor: &str, fill: &str, content: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}" text-anchor="{anchor}">{}</text>"#,
        escape(content)
    );
}

/// `&`, `<`, `>` and `"` as XML entities.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
