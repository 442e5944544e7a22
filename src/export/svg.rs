//! `codecbench plot`: for each payload, ratio against compression speed and against
//! decompression speed (log scale), one series per codec library, with the Pareto
//! frontier drawn through the settings worth considering. Drawn with plotters' SVG
//! backend and its font-free text layout, so no system font or library is needed; the
//! viewer renders the text.

use plotters::prelude::*;

use crate::analysis::recommend::{PayloadAdvice, Setting};
use crate::results::LoadedRun;

/// Width of one panel, in pixels.
const PANEL_WIDTH: u32 = 720;
/// Height of one payload's row of panels.
const PANEL_HEIGHT: u32 = 480;

/// Distinct colours for up to eight libraries, then repeated.
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// One plotted setting.
struct Point {
    library: String,
    level: i32,
    mb_s: f64,
    ratio: f64,
}

fn points(run: &LoadedRun, payload: &str, compress: bool) -> Vec<Point> {
    run.codec_cells()
        .iter()
        .filter(|c| c.key.payload == payload)
        .filter_map(|c| {
            let timing = if compress { &c.compress } else { &c.decompress };
            Some(Point {
                library: super::library_text(&c.key.id),
                level: c.key.id.level,
                mb_s: timing.as_ref()?.mb_s(c.input_bytes),
                ratio: c.ratio(),
            })
        })
        .filter(|p| p.mb_s.is_finite() && p.mb_s > 0.0)
        .collect()
}

fn frontier_points(frontier: &[Setting], input_bytes: u64, compress: bool) -> Vec<(f64, f64)> {
    frontier
        .iter()
        .map(|s| {
            let seconds = if compress {
                s.compress_s
            } else {
                s.decompress_s
            };
            (crate::stats::mb_per_s(input_bytes, seconds), s.ratio)
        })
        .collect()
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    run: &LoadedRun,
    advice: &PayloadAdvice,
    compress: bool,
) -> DrawResult {
    let points = points(run, &advice.payload, compress);
    if points.is_empty() {
        return Ok(());
    }
    let direction = if compress {
        "compression"
    } else {
        "decompression"
    };
    let (mut x_min, mut x_max) = (f64::INFINITY, 0.0f64);
    let (mut y_min, mut y_max) = (f64::INFINITY, 0.0f64);
    for p in &points {
        x_min = x_min.min(p.mb_s);
        x_max = x_max.max(p.mb_s);
        y_min = y_min.min(p.ratio);
        y_max = y_max.max(p.ratio);
    }
    let y_pad = ((y_max - y_min) * 0.08).max(0.05);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{}: ratio against {direction} speed", advice.payload),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(52)
        .build_cartesian_2d(
            (x_min / 1.6..x_max * 1.6).log_scale(),
            (y_min - y_pad).max(0.0)..y_max + y_pad,
        )?;
    chart
        .configure_mesh()
        .x_desc(format!("{direction} MB/s (log scale, MB = 10^6 bytes)"))
        .y_desc("ratio (uncompressed ÷ compressed)")
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;

    let frontier = frontier_points(
        if compress {
            &advice.compress_frontier
        } else {
            &advice.decompress_frontier
        },
        advice.input_bytes,
        compress,
    );
    chart
        .draw_series(LineSeries::new(frontier, BLACK.mix(0.6).stroke_width(2)))?
        .label("Pareto frontier")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK.stroke_width(2)));

    let mut libraries: Vec<&str> = Vec::new();
    for p in &points {
        if !libraries.contains(&p.library.as_str()) {
            libraries.push(&p.library);
        }
    }
    for (index, library) in libraries.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let series: Vec<&Point> = points.iter().filter(|p| p.library == *library).collect();
        chart
            .draw_series(
                series
                    .iter()
                    .map(|p| Circle::new((p.mb_s, p.ratio), 4, colour.filled())),
            )?
            .label(*library)
            .legend(move |(x, y)| Circle::new((x + 9, y), 4, colour.filled()));
        chart.draw_series(series.iter().map(|p| {
            Text::new(
                p.level.to_string(),
                (p.mb_s * 1.08, p.ratio + y_pad * 0.2),
                ("sans-serif", 11).into_font().color(&colour),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

/// The chart of `run` as an SVG document: a row per payload in `advice`, compression on
/// the left and decompression on the right. Numbers beside the points are levels.
pub fn render_svg(run: &LoadedRun, advice: &[PayloadAdvice]) -> Result<Vec<u8>, String> {
    let rows = advice.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (2 * PANEL_WIDTH, rows * PANEL_HEIGHT))
            .into_drawing_area();
        let draw = || -> DrawResult {
            root.fill(&WHITE)?;
            let areas = root.split_evenly((rows as usize, 2));
            for (row, payload) in advice.iter().enumerate() {
                panel(&areas[2 * row], run, payload, true)?;
                panel(&areas[2 * row + 1], run, payload, false)?;
            }
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| format!("drawing the chart failed: {e}"))?;
    }
    Ok(svg.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::recommend::{advise, fixtures};

    #[test]
    fn the_svg_has_a_point_per_setting_and_the_frontier() {
        let run = fixtures::run();
        let advice = advise(&run, &fixtures::options());
        let svg = String::from_utf8(render_svg(&run, &advice).unwrap()).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert!(svg.contains("small: ratio against compression speed"));
        assert!(svg.contains("small: ratio against decompression speed"));
        // Six settings in each of two panels, plus one legend marker per library in each.
        let circles = svg.matches("<circle").count();
        assert_eq!(circles, 2 * (6 + 3), "{circles}");
        assert!(svg.contains("Pareto frontier"));
        assert!(svg.contains("\nlibzstd\n"), "a legend entry per library");
    }
}
