//! The chart as a reader sees it: enough ticks, no overlapping labels, a title that says
//! what was measured where and when.

use super::labels::Rect;
use super::*;
use crate::analysis::recommend::{advise, fixtures, AdviceOptions};
use crate::results::LoadedRun;

/// The repository's reference run: the article's full matrix on three payloads.
fn reference() -> LoadedRun {
    let bytes = include_bytes!("../../../results/reference.json");
    crate::results::parse(bytes, "reference.json", "reference.json").unwrap()
}

fn caption() -> Caption {
    Caption {
        run: "reference.json".into(),
        machine: Some("AMD EPYC, 2 cores, linux x86_64".into()),
        date: Some("2026-11-30".into()),
    }
}

#[test]
fn every_axis_has_enough_ticks_over_its_whole_range() {
    let run = reference();
    let chart = layout(&run, &advise(&run, &AdviceOptions::default()), &caption());
    assert_eq!(chart.panels.len(), 6);
    for panel in &chart.panels {
        for ticks in [&panel.x_ticks, &panel.y_ticks] {
            assert!(
                (axis::MIN_TICKS..=axis::MAX_TICKS).contains(&ticks.len()),
                "{}: {ticks:?}",
                panel.caption
            );
            assert!(
                ticks.iter().all(|(_, text)| !text.ends_with(".0")),
                "{ticks:?}"
            );
        }
        // The ticks span the points: none lies beyond the outermost ticks by more than
        // one tick gap.
        let xs: Vec<f64> = panel.x_ticks.iter().map(|(x, _)| *x).collect();
        let gap = (xs[xs.len() - 1] - xs[0]) / (xs.len() - 1) as f64;
        for mark in &panel.marks {
            assert!(mark.x >= xs[0] - gap && mark.x <= xs[xs.len() - 1] + gap);
        }
    }
}

#[test]
fn no_two_labels_overlap_and_none_covers_a_point_or_the_frontier() {
    let run = reference();
    let chart = layout(&run, &advise(&run, &AdviceOptions::default()), &caption());
    for panel in &chart.panels {
        let labels: Vec<&Rect> = panel
            .marks
            .iter()
            .filter_map(|m| m.label.as_ref())
            .collect();
        assert!(
            labels.len() * 2 >= panel.marks.len(),
            "{}: most points keep a label",
            panel.caption
        );
        for (i, a) in labels.iter().enumerate() {
            assert!(a.inside(&panel.plot), "{a:?}");
            for b in &labels[i + 1..] {
                assert!(!a.overlaps(b), "{}: {a:?} overlaps {b:?}", panel.caption);
            }
            for mark in &panel.marks {
                let r = labels::MARKER_RADIUS;
                let marker = Rect {
                    x: mark.x - r,
                    y: mark.y - r,
                    w: 2.0 * r,
                    h: 2.0 * r,
                };
                assert!(!a.overlaps(&marker), "{a:?} covers a point");
            }
            assert!(
                !labels::crosses(&labels::segments(&panel.frontier), a),
                "{}: the frontier runs through {a:?}",
                panel.caption
            );
            let bars: Vec<labels::Segment> = panel
                .marks
                .iter()
                .filter_map(|m| m.bar.map(|(slow, fast)| [(slow, m.y), (fast, m.y)]))
                .collect();
            assert!(
                !labels::crosses(&bars, a),
                "{}: a bar runs through {a:?}",
                panel.caption
            );
        }
    }
}

#[test]
fn the_title_names_payloads_machine_and_date_and_the_legend_codec_and_library() {
    let run = reference();
    let svg = String::from_utf8(render_svg(
        &run,
        &advise(&run, &AdviceOptions::default()),
        &caption(),
    ))
    .unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("payload single, small, large · AMD EPYC, 2 cores, linux x86_64 · 2026-11-30"),
        "{}",
        &svg[..600]
    );
    for name in [
        "zstd (libzstd)",
        "brotli (libbrotli)",
        "brotli (brotli-rs)",
        "gzip (zlib-rs)",
        "Pareto frontier",
    ] {
        assert!(
            svg.contains(&format!(">{name}</text>")),
            "legend entry {name}"
        );
    }
    assert!(svg.contains("small (298,727 bytes): decompression"));
}

#[test]
fn two_libraries_of_one_codec_differ_in_shape_not_only_colour() {
    let run = reference();
    let chart = layout(&run, &advise(&run, &AdviceOptions::default()), &caption());
    let shape = |name: &str| chart.series.iter().find(|s| s.name == name).unwrap().shape;
    assert_eq!(shape("brotli (libbrotli)"), super::marks::Shape::Square);
    assert_eq!(shape("brotli (brotli-rs)"), super::marks::Shape::Diamond);
    assert_eq!(shape("zstd (libzstd)"), super::marks::Shape::Circle);
}

#[test]
fn a_level_with_no_room_beside_its_point_is_listed_under_its_panel() {
    let run = reference();
    let advice = advise(&run, &AdviceOptions::default());
    let chart = layout(&run, &advice, &caption());
    let (_, panels) = interactive_panels(&run, &advice, &caption(), None);
    let mut listed = 0;
    for (panel, html) in chart.panels.iter().zip(&panels) {
        let mut dropped: Vec<i32> = panel
            .marks
            .iter()
            .filter(|m| m.label.is_none())
            .map(|m| m.level.parse().unwrap())
            .collect();
        if dropped.is_empty() {
            assert!(!html.contains("No room"), "{html}");
            continue;
        }
        dropped.sort();
        let levels: Vec<String> = dropped.iter().map(i32::to_string).collect();
        let list = format!(
            "No room to write the levels of zstd (libzstd) {}.",
            levels.join(", ")
        );
        assert!(html.contains(&list), "{list} in {html}");
        listed += 1;
    }
    assert!(listed > 0, "the reference run crowds some panel");
}

#[test]
fn each_setting_is_a_point_and_the_frontier_a_line() {
    let run = fixtures::run();
    let chart = layout(
        &run,
        &advise(&run, &AdviceOptions::default()),
        &Caption::default(),
    );
    assert_eq!(chart.panels.len(), 2);
    for panel in &chart.panels {
        assert_eq!(panel.marks.len(), 6);
        assert!(panel.frontier.len() >= 2);
        assert!(
            panel.marks.iter().all(|m| m.label.is_some()),
            "six points all keep labels"
        );
    }
}

#[test]
fn a_page_gets_a_picture_per_panel_and_imprecise_medians_hollow() {
    let mut run = fixtures::run();
    // Five samples spread ±10–30%: zstd's first cell imprecise in compression only.
    let noisy = crate::stats::Summary::from_seconds(vec![0.0009, 0.0011, 0.0010, 0.0012, 0.0007]);
    let crate::results::Results::Codec { payloads, .. } = &mut run.results else {
        unreachable!("a codec run")
    };
    payloads[0].cells[0].compress = noisy;
    let advice = advise(&run, &AdviceOptions::default());
    let chart = layout(&run, &advice, &Caption::default());
    let hollow = |panel: &super::layout::Panel| panel.marks.iter().filter(|m| m.imprecise).count();
    assert_eq!(hollow(&chart.panels[0]), 1, "compression");
    assert_eq!(hollow(&chart.panels[1]), 0, "decompression");
    let (series, panels) = interactive_panels(&run, &advice, &Caption::default(), None);
    assert!(!series.is_empty());
    assert_eq!(panels.len(), 2);
    for (panel, svg) in chart.panels.iter().zip(&panels) {
        let frame = panel.frame();
        assert!(
            svg.contains(&format!(
                "viewBox=\"{} {} {} {}\"",
                frame.x, frame.y, frame.w, frame.h
            )),
            "{}",
            &svg[..200]
        );
        assert_eq!(svg.matches("<g class=\"pt\"").count(), panel.marks.len());
    }
    assert!(panels[0].contains(r#"fill="white" stroke="#));
    assert!(!panels[1].contains(r#"fill="white" stroke="#));
}

#[test]
fn a_baseline_is_drawn_where_each_setting_stood() {
    let run = fixtures::run();
    let mut baseline = fixtures::run();
    let crate::results::Results::Codec { payloads, .. } = &mut baseline.results else {
        unreachable!("a codec run")
    };
    // The baseline compressed its first cell in half the time, and lacks its last.
    let first = &mut payloads[0].cells[0];
    let median = first.compress.as_ref().unwrap().median_s;
    first.compress = Some(crate::stats::Summary::for_test(median / 2.0, vec![]));
    payloads[0].cells.pop();
    let advice = advise(&run, &AdviceOptions::default());
    let chart = super::layout::layout_over(&run, Some(&baseline), &advice, &Caption::default());
    let compression = &chart.panels[0];
    let marks = &compression.marks;
    let moved: Vec<_> = marks.iter().filter_map(|m| Some((m, m.was?))).collect();
    assert_eq!(
        moved.len(),
        marks.len() - 1,
        "the setting the baseline lacks has none"
    );
    let faster = moved.iter().filter(|(m, (x, _))| *x > m.x + 1.0).count();
    assert_eq!(faster, 1, "only the halved cell stood to the right");
    assert!(marks
        .iter()
        .any(|m| m.tip.contains("; baseline compression")));
    let (_, panels) = interactive_panels(&run, &advice, &Caption::default(), Some(&baseline));
    assert_eq!(
        panels[0].matches("<g class=\"was\">").count(),
        1,
        "{}",
        panels[0]
    );
    assert_eq!(
        panels[1].matches("<g class=\"was\">").count(),
        0,
        "nothing moved"
    );
}
