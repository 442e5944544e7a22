//! The report answers first, read in a real browser as its two users would: the
//! reviewer of a failed gate sees the failing cells, both runs and what the comparison
//! could see without scrolling; the chooser reads the answer as a table; three runs draw
//! a history; dark, print and scripting-off readers lose nothing. The charts and big
//! pages are `report_charts.rs`'s.

use serde_json::{json, Value};

use crate::browser::{installed, Page};
use crate::common::codecbench;

const BASE: &str = "tests/fixtures/base.json";
pub(crate) const REFERENCE: &str = "results/reference.json";

/// The base run changed by `change`, saved under `name` in `dir`.
fn variant(dir: &std::path::Path, name: &str, change: impl Fn(&mut Value)) -> String {
    let mut run: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    change(&mut run);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&run).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// Every compression timing of `codec`'s cells `factor` times as long.
fn slow(run: &mut Value, codec: &str, factor: f64) {
    crate::report_screens::slow(run, factor, &["compress"], |cell| cell["codec"] == codec);
}

/// The reference run's report, in a directory of its own.
pub(crate) fn reference_page() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    codecbench()
        .args(["report", REFERENCE, "--out"])
        .arg(&page)
        .assert()
        .success();
    (dir, page)
}

pub(crate) fn url(path: &std::path::Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

/// A regression (gzip 1 40% slower) and a size drift (zstd 3 one byte larger).
fn failing_candidate(dir: &std::path::Path) -> String {
    variant(dir, "candidate.json", |run| {
        slow(run, "gzip", 1.4);
        let cells = run["payloads"][0]["cells"].as_array_mut().unwrap();
        let zstd3 = cells
            .iter_mut()
            .find(|c| c["codec"] == "zstd" && c["level"] == 3)
            .unwrap();
        zstd3["compressed_bytes"] = json!(zstd3["compressed_bytes"].as_u64().unwrap() + 1);
        run["environment"]["git_commit"] = json!("c0ffee0000");
    })
}

/// What the first screen of a comparison page shows, read in the browser.
const ABOVE_THE_FOLD: &str = "(() => {
    const fold = window.innerHeight;
    const seen = e => e && e.getBoundingClientRect().bottom <= fold;
    const fails = [...document.querySelectorAll('section.comparison h3 + .scroll table tbody tr')]
        .slice(0, 2).map(r => [r.cells[0].textContent, r.cells[1].textContent, seen(r)]);
    const quiet = document.querySelector('details.quiet');
    return {
        banner: document.querySelector('.verdict').textContent,
        bannerSeen: seen(document.querySelector('.verdict')),
        fails,
        identitySeen: seen(document.querySelector('table.identity')),
        identity: [...document.querySelectorAll('table.identity tr.differs th')].map(t => t.textContent),
        quietOpen: quiet ? quiet.open : null,
        pageWidth: document.documentElement.scrollWidth,
    };
})()";

#[test]
fn a_failed_gate_names_its_cells_and_both_runs_above_the_fold() {
    let dir = tempfile::tempdir().unwrap();
    let candidate = failing_candidate(dir.path());
    let compare_page = dir.path().join("compare.html");
    codecbench()
        .args(["compare", BASE, &candidate, "--export-html"])
        .arg(&compare_page)
        .assert()
        .code(1);
    let report_page = dir.path().join("report.html");
    codecbench()
        .args(["report", &candidate, "--baseline", BASE, "--out"])
        .arg(&report_page)
        .assert()
        .success();
    for page in [&compare_page, &report_page] {
        let html = std::fs::read_to_string(page).unwrap();
        assert!(
            html.contains("<strong>Fails</strong>: 1 size drift, 1 regressed"),
            "{html}"
        );
        assert!(html.contains("It could see a slowdown of "), "{html}");
        if !installed() {
            continue;
        }
        let mut browser = Page::open(&url(page));
        let first = browser.eval(ABOVE_THE_FOLD);
        assert_eq!(first["bannerSeen"], true, "{first}");
        assert_eq!(first["identitySeen"], true, "{first}");
        // Failing cells by name, at the top, before any scrolling.
        assert_eq!(
            first["fails"],
            json!([
                ["single zstd 3 (libzstd)", "size drift", true],
                ["single gzip 1 (zlib-rs)", "compress slower", true]
            ]),
            "{first}"
        );
        assert_eq!(first["identity"], json!(["codecbench"]), "{first}");
        assert_eq!(
            first["quietOpen"], false,
            "unchanged rows are folded: {first}"
        );
        // The change drawn with its band: gzip's bar lies wholly right of the strip.
        let drawn = browser.eval(
            "(() => { const f = document.querySelector('figure.forest');
               const strip = f.querySelector('rect.strip').getBBox();
               const g = [...f.querySelectorAll('g.change')].find(g => g.textContent.startsWith('single gzip 1'));
               const bar = g.querySelector('line').getBBox();
               return { class: g.getAttribute('class'), right: bar.x > strip.x + strip.width }; })()",
        );
        assert_eq!(
            drawn,
            json!({"class": "change regressed", "right": true}),
            "{drawn}"
        );
        assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    }
    if installed() {
        baseline_overlay(&report_page);
    }
}

/// The report's chart draws where each setting stood in the baseline: gzip 1, now 40%
/// slower to compress, has its grey outline to the right of its point, and only in the
/// compression panel; hiding gzip hides its outline too.
fn baseline_overlay(page: &std::path::Path) {
    let mut browser = Page::open(&url(page));
    let drawn = browser.eval(
        "(() => {
            const panels = [...document.querySelectorAll('figure.chart .panels svg')];
            const gzip = svg => [...svg.querySelectorAll('g.pt')]
                .find(g => g.dataset.t.startsWith('gzip 1 (zlib-rs)'));
            const place = g => { const b = g.querySelector(':scope > path:not(.bar)').getBBox();
                                 return b.x + b.width / 2; };
            const was = g => { const w = g.querySelector('g.was path'); if (!w) return null;
                               const b = w.getBBox(); return b.x + b.width / 2; };
            const [c, d] = panels.map(gzip);
            const right = was(c) > place(c) + 1, decompress = was(d);
            const key = [...document.querySelectorAll('figure.chart .legend button')]
                .find(k => k.textContent.startsWith('gzip'));
            key.click();
            const box = c.querySelector('g.was').getBoundingClientRect();
            const hidden = box.width === 0 && box.height === 0;
            return { right, decompress, panels: panels.length,
                     hidden, caption: document.querySelector('figure.chart figcaption').textContent };
        })()",
    );
    assert_eq!(drawn["right"], true, "{drawn}");
    assert_eq!(drawn["decompress"], Value::Null, "{drawn}");
    assert_eq!(drawn["hidden"], true, "{drawn}");
    assert!(
        drawn["caption"]
            .as_str()
            .unwrap()
            .contains("A grey outline is the same setting in the baseline"),
        "{drawn}"
    );
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

#[test]
fn a_pass_that_could_not_have_seen_a_2x_slowdown_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // Three samples a timing: too few for any verdict, so nothing could be flagged.
    let few = |run: &mut Value| {
        for cell in run["payloads"][0]["cells"].as_array_mut().unwrap() {
            for direction in ["compress", "decompress"] {
                let samples = cell[direction]["samples_s"].as_array_mut().unwrap();
                samples.truncate(3);
            }
        }
    };
    let baseline = variant(dir.path(), "few-base.json", few);
    let candidate = variant(dir.path(), "few-candidate.json", few);
    let page = dir.path().join("compare.html");
    codecbench()
        .args(["compare", &baseline, &candidate, "--export-html"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(r#"<div class="verdict blind" role="status">"#),
        "{html}"
    );
    assert!(
        html.contains("Passes, but could have missed a 2x slowdown"),
        "{html}"
    );
    // The terminal says what the page says.
    let out = codecbench()
        .args(["compare", &baseline, &candidate])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("could see: no slowdown at all"), "{text}");
    if installed() {
        let mut browser = Page::open(&url(&page));
        let banner = browser.eval(ABOVE_THE_FOLD);
        assert_eq!(banner["bannerSeen"], true, "{banner}");
    }
}

#[test]
fn the_chooser_reads_the_answer_as_a_table_with_the_reason_one_click_away() {
    let (_dir, page) = reference_page();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<dt>libraries</dt>") && html.contains("libzstd 1.5.7"),
        "versions in the header"
    );
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let answer = browser.eval(
        "(() => { const t = document.querySelector('table.answer');
           const rows = [...t.tBodies[0].rows];
           const why = rows[0].querySelector('details');
           const closed = !why.open; why.querySelector('summary').click();
           return { header: [...t.tHead.rows[0].cells].map(c => c.textContent),
                    scenarios: rows.map(r => r.cells[0].textContent),
                    setting: rows[2].cells[1].textContent,
                    closed, reason: why.open && why.textContent.includes('per response') }; })()",
    );
    assert_eq!(
        answer["header"],
        json!([
            "scenario",
            "setting",
            "fall back to",
            "compress bodies from",
            "time per response",
            "bytes sent per response",
            "why"
        ]),
        "{answer}"
    );
    assert_eq!(
        answer["scenarios"],
        json!(["dynamic responses", "cached responses", "static assets"])
    );
    assert!(
        answer["setting"].as_str().unwrap().starts_with("zstd "),
        "{answer}"
    );
    assert_eq!(
        (answer["closed"].clone(), answer["reason"].clone()),
        (json!(true), json!(true)),
        "{answer}"
    );
}

#[test]
fn three_runs_draw_each_cell_over_time_labelled_by_commit() {
    let dir = tempfile::tempdir().unwrap();
    let at = |day: u32, commit: &str, factor: f64| {
        let commit = commit.to_string();
        move |run: &mut Value| {
            run["environment"]["timestamp"] = json!(format!("2026-12-0{day}T09:00:00Z"));
            run["environment"]["git_commit"] = json!(commit.clone());
            slow(run, "gzip", factor);
        }
    };
    // Given out of order: the page orders them by when they ran.
    let third = variant(dir.path(), "third.json", at(3, "3333333aaaa", 1.5));
    let first = variant(dir.path(), "first.json", at(1, "1111111aaaa", 1.0));
    let second = variant(dir.path(), "second.json", at(2, "2222222aaaa", 1.2));
    let page = dir.path().join("history.html");
    codecbench()
        .args(["report", &third, &first, &second, "--out"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h2>History over 3 runs</h2>"), "{html}");
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    let history = browser.eval(
        "(() => { const h = document.querySelector('section.history');
           const rows = [...h.querySelectorAll('table.history tbody tr')];
           const gzip = rows.find(r => r.cells[0].textContent.startsWith('gzip 1'));
           const points = [...gzip.cells[2].querySelectorAll('g.pt')];
           const ys = gzip.cells[2].querySelector('polyline').getAttribute('points')
               .split(' ').map(p => Number(p.split(',')[1]));
           return { marks: [...h.querySelectorAll('ol.marks li')].map(l => l.textContent.split(',')[1].trim()),
                    rows: rows.length, points: points.length,
                    rising: ys[0] > ys[1] && ys[1] > ys[2],
                    tip: points[2].dataset.t,
                    steps: [...gzip.cells[2].querySelectorAll('g.step')].map(g => g.dataset.run),
                    bars: gzip.cells[2].querySelectorAll('g.pt line').length }; })()",
    );
    assert_eq!(
        history["marks"],
        json!(["1111111", "2222222", "3333333"]),
        "{history}"
    );
    assert_eq!(history["rows"], 3, "{history}");
    assert_eq!(history["points"], 3, "{history}");
    assert_eq!(history["bars"], 3, "{history}");
    assert_eq!(history["rising"], true, "slower draws higher: {history}");
    // 20% then 25% slower, each past the 10% threshold: both runs marked.
    assert_eq!(history["steps"], json!(["2", "3"]), "{history}");
    assert!(
        history["tip"]
            .as_str()
            .unwrap()
            .starts_with("third.json, 3333333, 2026-12-03"),
        "{history}"
    );
}

#[test]
fn dark_print_and_scripting_off_readers_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let candidate = failing_candidate(dir.path());
    let page = dir.path().join("report.html");
    codecbench()
        .args(["report", &candidate, "--baseline", BASE, "--out"])
        .arg(&page)
        .assert()
        .success();
    if !installed() {
        return;
    }
    let mut browser = Page::open(&url(&page));
    browser.emulate_media("", &[("prefers-color-scheme", "dark")]);
    let dark = browser.eval("getComputedStyle(document.body).backgroundColor");
    assert_eq!(dark, "rgb(18, 20, 22)");
    browser.emulate_media("print", &[]);
    let print = browser.eval(
        "(() => { window.dispatchEvent(new Event('beforeprint'));
           return { header: getComputedStyle(document.querySelector('thead')).display,
                    folded: [...document.querySelectorAll('details')].filter(d => !d.open).length }; })()",
    );
    assert_eq!(
        print,
        json!({"header": "table-header-group", "folded": 0}),
        "{print}"
    );
    let mut plain = Page::open_without_scripts(&url(&page));
    let legend = plain.eval(
        "[document.querySelectorAll('.legend button').length, document.querySelectorAll('.legend .key').length]",
    );
    assert_eq!(legend[0], 0, "no dead buttons: {legend}");
    assert!(legend[1].as_u64().unwrap() > 0, "the key remains: {legend}");
}
