//! The report's charts and big pages in a real browser: intervals drawn, labels clear
//! of each other and of the frontier at 1400 and 390 px, panels side by side or
//! stacked, a legend that redraws the frontier among the points left, and contents
//! with a summary for many payloads.

use serde_json::{json, Value};

use crate::browser::{installed, Page};
use crate::common::codecbench;
use crate::report_first::{reference_page, url, REFERENCE};

/// Label boxes and the frontier of every chart, in page pixels: overlaps and crossings.
const LABEL_CLASHES: &str = "(() => {
    const clashes = [];
    let labels = 0, bars = 0;
    for (const svg of document.querySelectorAll('figure.chart .panels svg')) {
        const boxes = [...svg.querySelectorAll('g.pt text')].map(t => t.getBoundingClientRect());
        labels += boxes.length;
        bars += svg.querySelectorAll('g.pt path.bar').length;
        const lines = [...svg.querySelectorAll('polyline')].map(l => {
            const m = l.getScreenCTM();
            return [...l.points].map(p => { const q = p.matrixTransform(m); return [q.x, q.y]; });
        });
        const inset = b => ({ l: b.left + 0.5, r: b.right - 0.5, t: b.top + 0.5, b: b.bottom - 0.5 });
        boxes.map(inset).forEach((a, i) => {
            boxes.slice(i + 1).map(inset).forEach(b => {
                if (a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b) clashes.push('labels overlap: ' + JSON.stringify([a, b]));
            });
            for (const line of lines) for (let k = 1; k < line.length; k++) {
                const [p, q] = [line[k - 1], line[k]].sort((u, v) => u[0] - v[0]);
                const x0 = Math.max(p[0], a.l), x1 = Math.min(q[0], a.r);
                if (x0 > x1) continue;
                const y = x => q[0] === p[0] ? p[1] : p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0]);
                const lo = Math.min(y(x0), y(x1), q[0] === p[0] ? q[1] : Infinity);
                const hi = Math.max(y(x0), y(x1), q[0] === p[0] ? q[1] : -Infinity);
                if (lo <= a.b && hi >= a.t) clashes.push('frontier through a label');
            }
        });
    }
    const panels = [...document.querySelector('figure.chart .panels').children].map(p => p.getBoundingClientRect());
    const [a, b] = panels;
    const stacked = Math.abs(a.left - b.left) < 1 && b.top >= a.bottom - 1;
    const beside = Math.abs(a.top - b.top) < 1 && b.left >= a.right - 1;
    return { labels, bars, clashes, stacked, beside, panelWidth: a.width,
             pageWidth: document.documentElement.scrollWidth, view: window.innerWidth };
})()";

#[test]
fn charts_draw_intervals_and_keep_labels_clear_at_1400_and_390_px() {
    let (_dir, page) = reference_page();
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    for width in [1400, 390] {
        browser.set_width(width, 900);
        let seen = browser.eval(LABEL_CLASHES);
        // Kept for a reader when this fails: the screen as the test saw it.
        let shot = std::env::temp_dir().join(format!("codecbench-report-{width}.png"));
        std::fs::write(&shot, browser.screenshot()).unwrap();
        assert!(seen["labels"].as_u64().unwrap() > 50, "{seen}");
        assert!(
            seen["bars"].as_u64().unwrap() > 0,
            "intervals drawn: {seen}"
        );
        assert_eq!(
            seen["clashes"],
            json!([]),
            "at {width} px ({}): {seen}",
            shot.display()
        );
        // A payload's two panels side by side where they fit, else stacked, each as
        // wide as the screen allows.
        let (stacked, beside) = (width < 1000, width >= 1000);
        assert_eq!(seen["stacked"], stacked, "at {width} px: {seen}");
        assert_eq!(seen["beside"], beside, "at {width} px: {seen}");
        if stacked {
            assert!(seen["panelWidth"].as_f64().unwrap() > 300.0, "{seen}");
        }
        // Wide content scrolls inside its box; the page never scrolls sideways.
        assert!(
            seen["pageWidth"].as_f64() <= seen["view"].as_f64(),
            "at {width} px: {seen}"
        );
    }
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

#[test]
fn hiding_a_codec_redraws_the_frontier_among_the_points_left() {
    let (_dir, page) = reference_page();
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let redrawn = browser.eval(
        "(() => { const f = document.querySelector('figure.chart');
           const panel = f.querySelector('g.panel');
           const line = panel.querySelector('polyline.frontier');
           const before = line.getAttribute('points');
           const centre = pt => { const b = pt.querySelector('circle, rect, path:not(.bar)').getBBox();
                                  return [b.x + b.width / 2, b.y + b.height / 2]; };
           for (const b of f.querySelectorAll('.legend button'))
               if (b.textContent.includes('brotli')) b.click();
           const shown = [...panel.querySelectorAll('g.pt')].filter(p => getComputedStyle(p).display !== 'none').map(centre);
           const vertices = line.getAttribute('points').split(' ').map(v => v.split(',').map(Number));
           const onShown = vertices.every(([x, y]) => shown.some(([a, b]) => Math.abs(a - x) < 0.1 && Math.abs(b - y) < 0.1));
           const dominated = vertices.some(([x, y]) => shown.some(([a, b]) => a > x + 0.1 && b < y - 0.1));
           for (const b of f.querySelectorAll('.legend button'))
               if (b.textContent.includes('brotli')) b.click();
           return { changed: before !== vertices.map(v => v.join(',')).join(' '), onShown, dominated,
                    restored: line.getAttribute('points') === before, vertices: vertices.length }; })()",
    );
    assert_eq!(redrawn["changed"], true, "{redrawn}");
    assert_eq!(
        redrawn["onShown"], true,
        "every vertex is a shown point: {redrawn}"
    );
    assert_eq!(
        redrawn["dominated"], false,
        "no shown point beats a vertex: {redrawn}"
    );
    assert_eq!(redrawn["restored"], true, "{redrawn}");
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

#[test]
fn many_payloads_get_contents_and_a_summary_across_them() {
    // The reference run's three payloads twice over, renamed: six payloads.
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(REFERENCE).unwrap()).unwrap();
    let mut run = reference.clone();
    for payload in reference["payloads"].as_array().unwrap() {
        let mut copy = payload.clone();
        copy["payload"] = json!(format!("{}-again", payload["payload"].as_str().unwrap()));
        run["payloads"].as_array_mut().unwrap().push(copy);
    }
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("six.json");
    std::fs::write(&saved, serde_json::to_vec(&run).unwrap()).unwrap();
    let page = dir.path().join("six.html");
    codecbench()
        .arg("report")
        .arg(&saved)
        .arg("--out")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h3>Across payloads</h3>"), "{html}");
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let found = browser.eval(
        "(() => { const links = [...document.querySelectorAll('nav.toc a')];
           const targets = links.map(a => document.querySelector(a.getAttribute('href')));
           const summary = [...document.querySelectorAll('h3')].find(h => h.textContent === 'Across payloads');
           const rows = [...summary.nextElementSibling.querySelectorAll('tbody tr')];
           return { links: links.length, targets: targets.filter(t => t && t.tagName === 'H3').length,
                    fifth: targets[4].textContent, rows: rows.length, first: rows[0].cells[3].textContent }; })()",
    );
    assert_eq!(found["links"], 6, "{found}");
    assert_eq!(found["targets"], 6, "{found}");
    assert!(
        found["fifth"].as_str().unwrap().starts_with("small-again"),
        "{found}"
    );
    assert_eq!(found["rows"], 6, "{found}");
    assert!(
        found["first"].as_str().unwrap().starts_with("brotli 11"),
        "{found}"
    );
}
