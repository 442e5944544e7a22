//! `codecbench report` and `--export-html` in a real browser: the page loads from
//! `file://` with every host unreachable and logs no error; its table has a row per
//! cell and sorts; the legend hides a series; a comparison lists its regression first.

use crate::browser::{installed, Page};
use crate::common::codecbench;

/// The repository's reference run: the article's full matrix on three payloads.
const REFERENCE: &str = "results/reference.json";

fn report(args: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.html");
    codecbench()
        .arg("report")
        .args(args)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    (dir, out)
}

fn url(path: &std::path::Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

#[test]
fn the_reference_report_sorts_hides_a_series_and_logs_no_error() {
    let (_dir, out) = report(&[REFERENCE]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        !html.contains("src=") && !html.contains("href="),
        "nothing to fetch"
    );
    // The reference run is the article's matrix: its claims are checked on the page.
    assert!(html.contains("<h3>The article's claims</h3>"));
    assert!(html.contains(
        "<td>small, zstd 1 (streaming)</td><td>41,132 B</td><td>41,132 B</td><td>holds</td>"
    ));
    if !installed() {
        return;
    }
    let mut page = Page::open(&url(&out));
    assert!(page.eval("document.documentElement.dataset.readyMs !== undefined") == true);
    // One table per payload, a row per cell: 33 on each of the reference run's three.
    let rows = page.eval("[...document.querySelectorAll('div.lazy table.sortable')].map(t => t.tBodies[0].rows.length)");
    assert_eq!(rows, serde_json::json!([33, 33, 33]), "{rows}");

    // Sorting by bytes, ascending then descending.
    let sorted = page.eval(
        "(() => { const t = document.querySelector('div.lazy table.sortable');
           const b = t.tHead.rows[0].cells[2].querySelector('button');
           const read = () => [...t.tBodies[0].rows].map(r => Number(r.cells[2].textContent.replace(/,/g, '')));
           b.click(); const up = read(); b.click(); const down = read();
           return { up, down, sort: t.tHead.rows[0].cells[2].getAttribute('aria-sort') }; })()",
    );
    let up: Vec<f64> = serde_json::from_value(sorted["up"].clone()).unwrap();
    let down: Vec<f64> = serde_json::from_value(sorted["down"].clone()).unwrap();
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "{up:?}");
    assert!(down.windows(2).all(|w| w[0] >= w[1]), "{down:?}");
    assert_eq!(sorted["sort"], "descending");

    // Hiding gzip in the first chart's legend hides exactly its points.
    let hidden = page.eval(
        "(() => { const f = document.querySelector('figure.chart');
           const button = [...f.querySelectorAll('.legend button')].find(b => b.textContent.includes('gzip'));
           const s = button.dataset.series;
           const shown = () => [...f.querySelectorAll('.pt')].filter(p => getComputedStyle(p).display !== 'none');
           const before = shown().length; const ofIt = f.querySelectorAll(`.pt[data-s=\"${s}\"]`).length;
           button.click(); const after = shown().length;
           const pressed = button.getAttribute('aria-pressed');
           button.click(); const again = shown().length;
           return { before, ofIt, after, again, pressed,
                    tip: f.querySelector(`.pt[data-s=\"${s}\"]`).dataset.t }; })()",
    );
    let count = |k: &str| hidden[k].as_u64().unwrap();
    assert!(count("ofIt") > 0);
    assert_eq!(count("after"), count("before") - count("ofIt"), "{hidden}");
    assert_eq!(count("again"), count("before"));
    assert_eq!(hidden["pressed"], "false");
    // Hovering a point shows what it is.
    let tip = page.eval(
        "(() => { const p = document.querySelector('figure.chart .pt');
           p.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, clientX: 40, clientY: 40 }));
           const tip = document.querySelector('.tip');
           return [tip.hidden, tip.textContent === p.dataset.t, tip.textContent]; })()",
    );
    assert_eq!(tip[0], false, "{tip}");
    assert_eq!(tip[1], true, "{tip}");
    assert!(
        hidden["tip"].as_str().unwrap().starts_with("gzip "),
        "{hidden}"
    );
    assert!(page.errors.is_empty(), "{:?}", page.errors);
}

#[test]
fn a_report_against_a_baseline_lists_the_regression_first() {
    let dir = tempfile::tempdir().unwrap();
    // The candidate: the base run with gzip 1's compression 40% slower.
    let mut run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/fixtures/base.json").unwrap())
            .unwrap();
    for cell in run["payloads"][0]["cells"].as_array_mut().unwrap() {
        if cell["codec"] == "gzip" {
            let compress = cell["compress"].as_object_mut().unwrap();
            for (key, value) in compress.iter_mut() {
                match value {
                    serde_json::Value::Array(samples) => {
                        for s in samples {
                            *s = serde_json::json!(s.as_f64().unwrap() * 1.4);
                        }
                    }
                    serde_json::Value::Number(n) if key.ends_with("_s") => {
                        *value = serde_json::json!(n.as_f64().unwrap() * 1.4);
                    }
                    _ => {}
                }
            }
        }
    }
    let candidate = dir.path().join("slower.json");
    std::fs::write(&candidate, serde_json::to_vec(&run).unwrap()).unwrap();
    let (_out_dir, out) = report(&[
        candidate.to_str().unwrap(),
        "--baseline",
        "tests/fixtures/base.json",
    ]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("slower.json against base.json"), "{html}");
    assert!(
        html.contains(r#"<p><strong>Fails</strong>: 1 regressed</p>"#),
        "{html}"
    );
    if !installed() {
        return;
    }
    let mut page = Page::open(&url(&out));
    let first = page.eval(
        "(() => { const h = [...document.querySelectorAll('section.comparison h3')]
             .find(h => h.textContent === 'Results that changed');
           const r = h.nextElementSibling.querySelector('tbody tr');
           return [...r.cells].map(c => [c.textContent, c.className]); })()",
    );
    let cells = first.as_array().unwrap();
    assert!(
        cells[1][0].as_str().unwrap().starts_with("gzip 1"),
        "{first}"
    );
    assert!(
        cells
            .iter()
            .any(|c| c[1] == "regressed" && c[0].as_str().unwrap().contains("REGRESSED")),
        "{first}"
    );
    assert!(page.errors.is_empty(), "{:?}", page.errors);
}

#[test]
fn every_command_s_export_html_is_a_page_of_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("compare.html");
    codecbench()
        .args([
            "compare",
            "tests/fixtures/base.json",
            "tests/fixtures/base.json",
            "--export-html",
        ])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    #[cfg(unix)]
    {
        // A page is for sharing: an ordinary file's mode, not the temporary file's.
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&page).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{mode:o}");
    }
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<table class=\"sortable"));
    assert!(
        html.contains("default-src 'none'"),
        "the page may fetch nothing"
    );
    // A measuring command keeps its page like its other exports.
    let run = dir.path().join("run.html");
    codecbench()
        .arg("run")
        .args(crate::common::TWO_CELLS)
        .args([
            "--iterations",
            "2",
            "--warmup",
            "0",
            "--quiet",
            "--export-html",
        ])
        .arg(&run)
        .assert()
        .success();
    let html = std::fs::read_to_string(&run).unwrap();
    assert!(html.contains("<title>codecbench run</title>") && html.contains("zstd 1"));
    let recommend = dir.path().join("recommend.html");
    codecbench()
        .args([
            "recommend",
            "--from",
            "tests/fixtures/base.json",
            "--export-html",
        ])
        .arg(&recommend)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&recommend)
        .unwrap()
        .contains("What to deploy"));
    // A page that would overwrite its input is refused before anything is read.
    let message = crate::common::bad_input(&[
        "report",
        "tests/fixtures/base.json",
        "--out",
        "tests/fixtures/base.json",
    ]);
    assert!(message.contains("would overwrite an input"), "{message}");
}

#[test]
fn the_browser_reports_a_page_that_fetches_or_fails() {
    if !installed() {
        return;
    }
    // What the checks above would catch: a fetch that the host rules refuse, and a
    // script error.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><img src=\"http://example.invalid/x.png\"><script>console.error('boom')</script>",
    )
    .unwrap();
    let mut page = Page::open(&url(&page));
    let _ = page.eval("1");
    assert!(
        page.errors.iter().any(|e| e.contains("boom")),
        "{:?}",
        page.errors
    );
}

#[test]
fn without_scripts_the_tables_and_charts_are_all_there() {
    let (_dir, out) = report(&[REFERENCE]);
    if !installed() {
        return;
    }
    let mut page = Page::open_without_scripts(&url(&out));
    assert_eq!(
        page.eval("document.documentElement.dataset.readyMs === undefined"),
        true
    );
    let shown = page.eval(
        "[document.querySelectorAll('table').length, document.querySelectorAll('figure.chart .panels svg').length,
          document.querySelectorAll('div.lazy table')[0].tBodies[0].rows.length]",
    );
    // The answer, three payloads with a chart of two panels and a matrix each (33 rows
    // in the first), then the claims.
    assert_eq!(shown, serde_json::json!([5, 6, 33]), "{shown}");
}

#[test]
fn a_large_report_builds_every_part_before_printing() {
    // 45 payloads of 33 cells: past what the page builds at once.
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(REFERENCE).unwrap()).unwrap();
    let mut run = reference.clone();
    let payloads = run["payloads"].as_array_mut().unwrap();
    for copy in 1..15 {
        for payload in reference["payloads"].as_array().unwrap() {
            let mut payload = payload.clone();
            payload["payload"] = format!("{}-{copy}", payload["payload"].as_str().unwrap()).into();
            payloads.push(payload);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("large.json");
    std::fs::write(&saved, serde_json::to_vec(&run).unwrap()).unwrap();
    let (_out_dir, out) = report(&[saved.to_str().unwrap()]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(html.matches("<div class=\"lazy\"><noscript>").count(), 45);
    if !installed() {
        return;
    }
    let mut page = Page::open(&url(&out));
    let built = page.eval(
        "(() => { window.dispatchEvent(new Event('beforeprint'));
           const tables = [...document.querySelectorAll('div.lazy table.sortable')];
           return [document.querySelectorAll('div.lazy noscript').length, tables.length,
                   tables.filter(t => t.tHead.querySelector('button')).length,
                   document.querySelectorAll('figure.chart .legend button').length > 0]; })()",
    );
    assert_eq!(built, serde_json::json!([0, 45, 45, true]), "{built}");
    let pdf = page.print_to_pdf();
    assert!(pdf.len() > 100_000, "{} bytes of PDF", pdf.len());
    assert!(page.errors.is_empty(), "{:?}", page.errors);
}
