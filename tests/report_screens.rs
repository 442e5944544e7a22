//! The report on every screen, read in a real browser: from 320 to 1400 px the page
//! never scrolls sideways (one run, a comparison, a history of four); a run every cell of
//! which is 30% slower opens with that change as a failing verdict; and a history shows
//! the run in which one cell became 35% slower, where it happened.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::browser::{installed, Page};
use crate::common::codecbench;
use crate::report_first::{url, REFERENCE};

/// The widths a page is laid out at: two phones, a tablet, a laptop, a desktop.
pub(crate) const WIDTHS: [u32; 5] = [320, 390, 768, 1024, 1400];

fn reference() -> Value {
    serde_json::from_str(&std::fs::read_to_string(REFERENCE).unwrap()).unwrap()
}

fn save(dir: &Path, name: &str, run: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(run).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// Every timing in `directions` of the cells `pick` takes `factor` times as long.
pub(crate) fn slow(
    run: &mut Value,
    factor: f64,
    directions: &[&str],
    pick: impl Fn(&Value) -> bool,
) {
    for payload in run["payloads"].as_array_mut().unwrap() {
        for cell in payload["cells"].as_array_mut().unwrap() {
            if !pick(cell) {
                continue;
            }
            for direction in directions {
                for (key, value) in cell[direction].as_object_mut().unwrap().iter_mut() {
                    match value {
                        Value::Array(samples) => samples
                            .iter_mut()
                            .for_each(|s| *s = json!(s.as_f64().unwrap() * factor)),
                        Value::Number(n) if key.ends_with("_s") => {
                            *value = json!(n.as_f64().unwrap() * factor)
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

/// `report` of `args`, written to `name` in `dir`.
fn report(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let page = dir.join(name);
    codecbench()
        .arg("report")
        .args(args)
        .arg("--out")
        .arg(&page)
        .assert()
        .success();
    page
}

/// The reference run with every cell 30% slower, as `report --baseline` shows it.
fn every_cell_slower(dir: &Path) -> PathBuf {
    let mut run = reference();
    slow(&mut run, 1.3, &["compress", "decompress"], |_| true);
    let candidate = save(dir, "slower.json", &run);
    report(dir, "slower.html", &[&candidate, "--baseline", REFERENCE])
}

/// Four runs of the reference a day apart, zstd 3's compression 35% slower from the
/// third on.
fn four_runs(dir: &Path) -> PathBuf {
    let runs: Vec<String> = (1..=4)
        .map(|day| {
            let mut run = reference();
            run["environment"]["timestamp"] = json!(format!("2026-12-0{day}T09:00:00Z"));
            run["environment"]["git_commit"] =
                json!(format!("{day}{day}{day}{day}{day}{day}{day}abc"));
            if day >= 3 {
                slow(&mut run, 1.35, &["compress"], |c| {
                    // A version 1 run: a fresh libzstd cell is `libzstd 1.5.7`.
                    c["codec"] == "zstd"
                        && c["level"] == 3
                        && c["implementation"]
                            .as_str()
                            .unwrap()
                            .starts_with("libzstd ")
                });
            }
            save(dir, &format!("day{day}.json"), &run)
        })
        .collect();
    let args: Vec<&str> = runs.iter().map(String::as_str).collect();
    report(dir, "history.html", &args)
}

/// The page's layout width at each of [`WIDTHS`], scrolled to its end so that every
/// lazily built part is built: it must never exceed the window's. `SHOW_WIDE=1` prints
/// the outermost elements that stick out, to find what widened a page.
pub(crate) fn widths(browser: &mut Page) -> Vec<(u32, u64)> {
    WIDTHS
        .iter()
        .map(|&width| {
            browser.set_width(width, 900);
            let wide = browser.eval(
                "new Promise(done => { window.scrollTo(0, document.body.scrollHeight);
                   setTimeout(() => done(document.documentElement.scrollWidth), 300); })",
            );
            if std::env::var("SHOW_WIDE").is_ok() {
                let who = browser.eval("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !(e.parentElement.getBoundingClientRect().right > window.innerWidth + 1)).slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' ' + (e.textContent || '').slice(0, 60))");
                eprintln!("{width}: {who}");
            }
            (width, wide.as_u64().unwrap())
        })
        .collect()
}

#[test]
fn every_cell_30_percent_slower_opens_the_report_with_a_failing_absolute_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let page = every_cell_slower(dir.path());
    let html = std::fs::read_to_string(&page).unwrap();
    let first = html.find(r#"<div class="verdict"#).unwrap();
    assert!(
        html[first..].starts_with(
            r#"<div class="verdict fail" role="status"><p><strong>Fails in absolute time</strong>"#
        ),
        "{}",
        &html[first..first + 400]
    );
    assert!(
        html[first..].contains("cells together 30.0% slower ["),
        "{html}"
    );
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let banner = browser.eval(
        "(() => { const v = document.querySelector('.verdict');
           return { text: v.textContent, class: v.className,
                    seen: v.getBoundingClientRect().bottom <= window.innerHeight }; })()",
    );
    assert_eq!(banner["class"], "verdict fail", "{banner}");
    assert_eq!(banner["seen"], true, "{banner}");
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

#[test]
fn a_cell_35_percent_slower_in_run_3_is_marked_in_run_3() {
    let dir = tempfile::tempdir().unwrap();
    let page = four_runs(dir.path());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("zstd 3 (libzstd) compress: 35.0% slower in run 3 (day3.json, 3333333,"),
        "{html}"
    );
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let marked = browser.eval(
        "new Promise(done => {
           const h = document.querySelector('section.history');
           h.querySelector('h3').scrollIntoView();
           setTimeout(() => {
             const rows = [...h.querySelector('table.history').tBodies[0].rows];
             const zstd3 = rows.find(r => r.cells[0].textContent === 'zstd 3 (libzstd)');
             const steps = [...h.querySelector('table.history').querySelectorAll('g.step')];
             const box = zstd3.cells[2].querySelector('g.step path').getBoundingClientRect();
             done({ steps: steps.map(g => [g.closest('tr').cells[0].textContent,
                                           g.closest('td').cellIndex, g.dataset.run]),
                    drawn: box.width > 3 && box.height > 3,
                    tip: zstd3.cells[2].querySelector('g.step').dataset.t });
           }, 300); })",
    );
    // One mark in the first payload's table: zstd 3's compression (column 2), run 3.
    assert_eq!(
        marked["steps"],
        json!([["zstd 3 (libzstd)", 2, "3"]]),
        "{marked}"
    );
    assert_eq!(marked["drawn"], true, "{marked}");
    assert!(
        marked["tip"]
            .as_str()
            .unwrap()
            .contains("35.0% slower than run 2"),
        "{marked}"
    );
}

#[test]
fn the_report_never_scrolls_sideways_from_320_to_1400_px() {
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        report(dir.path(), "one.html", &[REFERENCE]),
        every_cell_slower(dir.path()),
        four_runs(dir.path()),
    ];
    if !installed() {
        return;
    }
    for page in pages {
        let mut browser = Page::open(&url(&page));
        let laid_out = widths(&mut browser);
        let wider: Vec<_> = laid_out
            .iter()
            .filter(|(window, wide)| wide > &u64::from(*window))
            .collect();
        assert!(
            wider.is_empty(),
            "{}: {wider:?} (window, page)",
            page.display()
        );
        assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    }
}

/// The lowest contrast of any text on the page against the ground it sits on (WCAG 2's
/// ratio), with the element that has it; SVG text is left to the charts' own tests.
const LOWEST_CONTRAST: &str = "(() => {
    const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ground = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
    let lowest = [99, ''];
    for (const e of document.querySelectorAll('body *:not(svg):not(svg *):not(style):not(script)')) {
        if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
        const box = e.getBoundingClientRect(); if (!box.width) continue;
        const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(ground(e))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < lowest[0]) lowest = [Math.round(ratio * 100) / 100, e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 40)];
    }
    return lowest; })()";

#[test]
fn every_text_keeps_4_5_to_1_in_both_themes() {
    let dir = tempfile::tempdir().unwrap();
    let pages = [every_cell_slower(dir.path()), four_runs(dir.path())];
    if !installed() {
        return;
    }
    for page in pages {
        let mut browser = Page::open(&url(&page));
        let links = browser.eval("document.querySelectorAll('a').length");
        for theme in ["light", "dark"] {
            browser.emulate_media("screen", &[("prefers-color-scheme", theme)]);
            let lowest = browser.eval(LOWEST_CONTRAST);
            assert!(
                lowest[0].as_f64().unwrap() >= 4.5,
                "{theme}: {lowest} ({links} links)"
            );
        }
    }
}
