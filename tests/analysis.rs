//! End to end: `recommend`, `zstd-params`, `reproduce`, dictionaries and reused encoders.
//! Saved runs come from tests/fixtures (a real run of the single payload, see
//! tests/compare.rs); runs made here assert sizes and structure, never speeds.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{bad_input, codecbench, csv_rows, succeed};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(succeed(codecbench().args(args)).stdout).unwrap()
}

#[test]
fn recommend_from_a_saved_run_names_zstd_3_as_dominated_by_zstd_1() {
    let base = fixture("base.json");
    let text = stdout_of(&[
        "recommend",
        "--from",
        base.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let advice: Value = serde_json::from_str(&text).unwrap();
    // 241 bytes of zstd 1 save too little at 100 Mbit/s to pay for compressing.
    let dynamic = &advice["answers"][0]["lines"][0];
    assert_eq!(dynamic["scenario"], "dynamic");
    assert_eq!(dynamic["encodings"].as_array().unwrap().len(), 0);
    let single = &advice["payloads"][0];
    assert_eq!(single["payload"], "single");
    // In this run zstd 3 gave the same 241 bytes as zstd 1, more slowly.
    let dominated = single["dominated"].as_array().unwrap();
    let pair = dominated
        .iter()
        .find(|d| d["dominated"]["key"]["id"]["level"] == 3)
        .expect("zstd 3 is dominated");
    assert_eq!(pair["by"]["key"]["id"]["codec"], "zstd");
    assert_eq!(pair["by"]["key"]["id"]["level"], 1);
    let scenarios: Vec<&str> = single["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(scenarios.len(), 3);
    let mbit: Vec<f64> = single["bandwidths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["mbit"].as_f64().unwrap())
        .collect();
    assert_eq!(mbit, [10.0, 100.0, 1000.0]);

    let table = stdout_of(&["recommend", "--from", base.to_str().unwrap()]);
    assert!(table.contains("Dominated"), "{table}");
    assert!(table.contains("static asset, compressed"), "{table}");
    assert!(table.contains("End-to-end time per response"));
}

#[test]
fn recommend_measures_when_given_no_run() {
    let text = stdout_of(&[
        "recommend",
        "--payload",
        "single",
        "--codecs",
        "zstd,gzip",
        "--zstd-levels",
        "1,3",
        "--gzip-levels",
        "1",
        "--iterations",
        "3",
        "--quiet",
        "--format",
        "markdown",
    ]);
    assert!(text.starts_with("## What to deploy"), "{text}");
    assert!(
        text.contains("- dynamic responses: don't compress (nothing beat sending as is in 100 of 100 redraws)\n"),
        "{text}"
    );
    assert!(text.contains("## single: 290 bytes"), "{text}");
    assert!(text.contains("**Recommendations**"));
}

#[test]
fn recommend_rejects_bad_budgets_and_links() {
    let base = fixture("base.json");
    let base = base.to_str().unwrap();
    let message = bad_input(&["recommend", "--from", base, "--bandwidth", "0"]);
    assert!(message.contains("--bandwidth 0"), "{message}");
    let message = bad_input(&["recommend", "--from", base, "--latency-budget-ms", "-1"]);
    assert!(message.contains("--latency-budget-ms"), "{message}");
    let message = bad_input(&["recommend", "--from", base, "--link", "0"]);
    assert!(message.contains("--link 0"), "{message}");
    let message = bad_input(&["recommend", "--from", base, "--rtt", "-5"]);
    assert!(message.contains("--rtt -5"), "{message}");
    let message = bad_input(&["recommend", "--from", "/no/such/run.json"]);
    assert!(message.contains("/no/such/run.json"), "{message}");
}

#[test]
fn zstd_params_marks_where_the_article_differs() {
    let text = stdout_of(&["zstd-params", "--payload", "small", "--levels", "1..6"]);
    // A known 298,727-byte body caps the window at 2^19; the article prints 21 for level 3.
    assert!(text.contains("19 ≠ 21"), "{text}");
    assert!(text.contains("size unknown"));
    // The unknown-size table matches the article: no mark in it.
    let unknown = text.split("size unknown").nth(1).unwrap();
    assert!(
        !unknown.lines().any(|l| l.contains('≠') && l.contains('┆')),
        "{unknown}"
    );
    let message = bad_input(&["zstd-params", "--levels", "99"]);
    assert!(message.contains("zstd level 99"), "{message}");
}

#[test]
fn a_dictionary_shrinks_one_record() {
    let text = stdout_of(&[
        "run",
        "--payload",
        "single",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1",
        "--zstd-dict",
        "4",
        "--dict-samples",
        "500",
        "--iterations",
        "2",
        "--quiet",
        "--format",
        "csv",
    ]);
    let rows = csv_rows(text.as_bytes());
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["library"], "libzstd");
    assert_eq!(rows[1]["library"], "libzstd");
    assert_eq!(rows[0]["variant"], "fresh");
    assert_eq!(rows[1]["variant"], "dict 4 KiB");
    let bytes = |row: &HashMap<String, String>| -> u64 { row["compressed_bytes"].parse().unwrap() };
    assert_eq!(bytes(&rows[0]), 241);
    assert!(bytes(&rows[1]) * 2 < bytes(&rows[0]), "{rows:?}");
    assert_eq!(rows[1]["status"], "ok");

    let message = bad_input(&["run", "--codecs", "gzip", "--zstd-dict", "4"]);
    assert!(message.contains("zstd is not in --codecs"), "{message}");
}

#[test]
fn both_encoders_give_the_same_bytes_and_brotli_cannot_be_reused() {
    let text = stdout_of(
        &[
            &["run"][..],
            &common::TWO_CELLS,
            &[
                "--encoder",
                "both",
                "--iterations",
                "2",
                "--quiet",
                "--format",
                "csv",
            ],
        ]
        .concat(),
    );
    let rows = csv_rows(text.as_bytes());
    let libraries: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {}", r["library"], r["variant"]))
        .collect();
    assert_eq!(
        libraries,
        [
            "libzstd fresh",
            "libzstd reused",
            "zlib-rs fresh",
            "zlib-rs reused"
        ]
    );
    // One definition of encoder memory: a reused encoder holds about what a fresh one
    // builds, not just its output buffer.
    let memory = |i: usize| -> f64 { rows[i]["encoder_bytes"].parse().unwrap() };
    for (fresh, reused) in [(0, 1), (2, 3)] {
        let ratio = memory(reused) / memory(fresh);
        assert!((0.5..2.0).contains(&ratio), "{rows:?}");
    }
    assert_eq!(rows[0]["compressed_bytes"], rows[1]["compressed_bytes"]);
    assert_eq!(rows[2]["compressed_bytes"], rows[3]["compressed_bytes"]);

    let message = bad_input(&["run", "--encoder", "reused"]);
    assert!(
        message.contains("brotli encoders cannot be reset"),
        "{message}"
    );
}

#[test]
fn reproduce_writes_its_report_and_marks_what_the_run_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("REPRODUCTION.md");
    let base = fixture("base.json");
    let text = stdout_of(&[
        "reproduce",
        "--from",
        base.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(text.contains("one record grows under"), "{text}");
    assert!(text.contains("not measured"));
    let report = std::fs::read_to_string(&out).unwrap();
    assert!(report.starts_with("# Reproducing the article"));
    assert!(report
        .contains("| one record grows under gzip Fastest | 179 → 188 B | 290 → 298 B | holds |"));
    // The 26 claims this run holds no cell for are named once, not rows of blanks.
    assert!(
        report.contains("Not measured, for want of the cells they name: the 1,000-record payload;"),
        "{report}"
    );
    let blank_rows = report
        .lines()
        .filter(|l| l.ends_with("| not measured |"))
        .count();
    assert_eq!(blank_rows, 0, "{report}");

    let message = bad_input(&["reproduce", "--out", "/no/such/dir/REPRODUCTION.md"]);
    assert!(message.contains("/no/such/dir"), "{message}");
}

#[test]
fn plot_writes_an_svg_with_both_panels() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chart.svg");
    let base = fixture("base.json");
    succeed(
        codecbench()
            .args(["plot", base.to_str().unwrap(), "-o"])
            .arg(&out),
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("single (290 bytes): compression"));
    assert!(svg.contains("single (290 bytes): decompression"));
    assert!(
        svg.contains(">zstd (libzstd)</text>"),
        "a legend entry per codec and library"
    );
    assert!(svg.trim_end().ends_with("</svg>"));

    let message = bad_input(&[
        "plot",
        base.to_str().unwrap(),
        "-o",
        "/no/such/dir/chart.svg",
    ]);
    assert!(message.contains("/no/such/dir/chart.svg"), "{message}");
}

#[test]
fn records_generates_bodies_of_each_count_for_the_minimum_size() {
    let text = stdout_of(&[
        "recommend",
        "--records",
        "1,3,10",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1",
        "--iterations",
        "3",
        "--quiet",
        "--format",
        "json",
    ]);
    let advice: Value = serde_json::from_str(&text).unwrap();
    let sizes = common::payload_sizes(&advice);
    assert_eq!(sizes[0], ("1 record", 290));
    assert_eq!(sizes[1].0, "3 records");
    assert_eq!(sizes[2].0, "10 records");
    let answer = &advice["answers"][0];
    assert_eq!(answer["bodies"], 3);
    assert_eq!(answer["smallest_bytes"], 290);
    let message = bad_input(&["run", "--records", "0"]);
    assert!(message.contains("--records 0:"), "{message}");
    let message = bad_input(&["run", "--records", "ten"]);
    assert!(message.contains("--records ten:"), "{message}");
}

#[test]
fn emit_prints_each_servers_configuration_instead_of_the_report() {
    let base = fixture("base.json");
    let base = base.to_str().unwrap();
    let text = stdout_of(&["recommend", "--from", base, "--emit", "nginx,caddy"]);
    // One 290-byte record: nothing pays at 100 Mbit/s, so every encoding is off.
    assert!(
        text.starts_with("# codecbench recommend: dynamic responses: don't compress (nothing beat"),
        "{text}"
    );
    assert!(
        text.contains("zstd off;\nbrotli off;\ngzip off;\n"),
        "{text}"
    );
    assert!(text.contains("no encode"), "{text}");
    assert!(!text.contains("Dominated"), "{text}");
    // On a 1 Mbit/s link the same record is worth compressing.
    let slow = stdout_of(&[
        "recommend",
        "--from",
        base,
        "--emit",
        "nginx",
        "--link",
        "1",
    ]);
    assert!(slow.contains("_comp_level"), "{slow}");
    let message = bad_input(&["recommend", "--from", base, "--emit", "lighttpd"]);
    assert!(message.contains("lighttpd"), "{message}");
}

#[test]
fn recommend_fits_the_terminal_width() {
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/reference.json");
    for run in [fixture("base.json"), reference] {
        for width in [100usize, 72] {
            let output = succeed(
                codecbench()
                    .env("COLUMNS", width.to_string())
                    .args(["recommend", "--from"])
                    .arg(&run),
            );
            let text = String::from_utf8(output.stdout).unwrap();
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
            assert!(
                widest <= width,
                "{}: a {widest}-column line at COLUMNS={width}:\n{text}",
                run.display()
            );
        }
    }
}

#[test]
fn reproduce_measures_the_one_shot_cells_its_ratio_claims_read() {
    let claim_row = |extra: &[&str]| -> String {
        let mut args = vec![
            "reproduce",
            "--payload",
            "large",
            "--codecs",
            "zstd",
            "--zstd-levels",
            "3",
            "--iterations",
            "1",
            "--quiet",
        ];
        args.extend(extra);
        let text = stdout_of(&args);
        let row = text.lines().find(|l| l.contains("large, zstd 3 ratio"));
        row.expect("the 6.66x claim has a row").to_string()
    };
    // By default the claim is read on the one-shot cell, the article's source, and holds.
    let default = claim_row(&[]);
    assert!(default.contains("6.66x (6.662), one-shot"), "{default}");
    assert!(default.contains("holds"), "{default}");
    // Asked for the stream API alone, it reads the streamed cell and says so.
    let streamed = claim_row(&["--api", "stream"]);
    assert!(streamed.contains("streamed"), "{streamed}");
}

#[test]
fn recommend_measures_smaller_bodies_when_its_sizes_do_not_bracket_the_minimum() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("run.json");
    let output = succeed(
        codecbench()
            .args(["recommend", "--payload", "small", "--codecs", "zstd,gzip"])
            .args(["--zstd-levels", "1", "--gzip-levels", "1", "--quick"])
            .args(["--format", "json", "--export-json"])
            .arg(&saved),
    );
    let advice: Value = serde_json::from_slice(&output.stdout).unwrap();
    let all = &advice["answers"][0];
    // The answer is for the traffic, the one payload; the cut bodies only place the
    // minimum, which is now bracketed by measurement, far below 298,727 bytes.
    assert_eq!(all["bodies"], 1, "{all}");
    let first = &all["lines"][0]["encodings"][0];
    assert_eq!(first["min_body"]["evidence"]["kind"], "between", "{first}");
    let bytes = first["min_body"]["bytes"].as_u64().unwrap();
    assert!(bytes > 100 && bytes < 65_536, "{bytes}");
    assert_eq!(advice["payloads"].as_array().unwrap().len(), 1);
    // The saved run keeps the cut bodies, marked, and reads back to the same answer.
    let run: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let cut: Vec<&Value> = run["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["cut_from"] == "small")
        .collect();
    // Bisection: at most 12 bodies, with only the settings the answer names.
    assert!((1..=12).contains(&cut.len()), "{}", cut.len());
    for body in &cut {
        let cells: Vec<String> = body["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{} {}", c["codec"].as_str().unwrap(), c["level"]))
            .collect();
        assert_eq!(cells, ["zstd 1", "gzip 1"], "{}", body["payload"]);
    }
    // The answer says which bodies and settings placed its minimum.
    let placed = &all["placed_by"];
    assert_eq!(placed["cut_from"], serde_json::json!(["small"]), "{all}");
    let mut sizes: Vec<u64> = cut
        .iter()
        .map(|b| b["input_bytes"].as_u64().unwrap())
        .collect();
    sizes.sort_unstable();
    assert_eq!(placed["sizes"], serde_json::json!(sizes));
    assert_eq!(placed["settings"].as_array().unwrap().len(), 2, "{placed}");
    // Progress counts the cut bodies as one span: its count never starts over.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let span = stderr
        .split("placing the minimum body sizes")
        .nth(1)
        .expect("the bracket is announced");
    let done: Vec<u64> = span
        .lines()
        .filter_map(|l| l.split(" cells·rounds").next()?.rsplit(", ").next())
        .filter_map(|counts| counts.split('/').next()?.trim().parse().ok())
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}\n{span}");
    assert!(done.len() >= cut.len(), "{done:?}\n{span}");
}

#[test]
fn a_saved_run_that_cannot_bracket_the_minimum_gives_an_estimate_below_its_sizes() {
    let small_only = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/ci-small.json");
    let text = stdout_of(&["recommend", "--from", small_only.to_str().unwrap()]);
    // The headline, wrapped onto the lines indented under it.
    let start = text.find("dynamic responses:").expect("a dynamic line");
    let dynamic = text[start..].split("  why:").next().unwrap();
    let dynamic = dynamic.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains("298,727 bytes and up"), "{text}");
    assert!(text.contains("(estimated)"), "{text}");
    assert!(
        text.contains("do not") && text.contains("bracket"),
        "{text}"
    );
    assert!(dynamic.contains("fall back to br"), "{dynamic}");
}

/// Between two of the user's files, 387 and 10,075 bytes, the minimum is narrowed by
/// bodies cut from the larger, not left as wide as the files' sizes (issue 45).
#[test]
fn recommend_narrows_a_bracket_between_two_files_with_cuts_of_the_larger() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/payloads/real-json/");
    for name in ["demo.json", "twitter_api_compact_response.json"] {
        std::fs::copy(format!("{corpus}{name}"), dir.path().join(name)).unwrap();
    }
    let output = succeed(
        codecbench()
            .args(["recommend", "--payload"])
            .arg(dir.path())
            .args(["--codecs", "zstd", "--zstd-levels", "1", "--quick"])
            .args(["--format", "json"]),
    );
    let advice: Value = serde_json::from_slice(&output.stdout).unwrap();
    let all = &advice["answers"][0];
    let first = &all["lines"][0]["encodings"][0];
    let evidence = &first["min_body"]["evidence"];
    assert_eq!(evidence["kind"], "between", "{first}");
    let (low, high) = (
        evidence["identity_wins"].as_u64().unwrap(),
        evidence["compression_wins"].as_u64().unwrap(),
    );
    let placed = &all["placed_by"];
    let cuts = placed["sizes"].as_array().unwrap().len();
    // Within an eighth of its lower end (or 32 bytes), unless the 12 bodies ran out.
    assert!(
        high - low <= (low / 8).max(32) || cuts == 12,
        "{low}..{high}: {placed}"
    );
    let root = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let sources = placed["cut_from"].as_array().unwrap();
    let larger = format!("{root}/twitter_api_compact_response.json");
    assert!(
        sources.iter().any(|s| s == &Value::from(larger.clone())),
        "{placed}"
    );
}

/// `--emit nginx` alone is measured as nginx sends (madler zlib, ngx_brotli's feeds), and
/// says so; an answer read from a run of the libraries in one write says that instead.
#[test]
fn an_answer_for_nginx_is_measured_as_nginx_sends() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("run.json");
    let output = succeed(
        codecbench()
            .args([
                "recommend",
                "--emit",
                "nginx",
                "--payload",
                "small",
                "--quick",
            ])
            .args(["--codecs", "brotli,gzip", "--export-json"])
            .arg(&saved),
    );
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(
        config.contains("# Sizes measured as nginx sends them"),
        "{config}"
    );
    let run: Value = serde_json::from_slice(&std::fs::read(&saved).unwrap()).unwrap();
    let cells = run["payloads"][0]["cells"].as_array().unwrap();
    assert!(cells.iter().all(|c| c["variant"] == "nginx"), "{cells:?}");
    let generic = succeed(
        codecbench()
            .args(["recommend", "--emit", "nginx", "--from"])
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/real-json-quick.json"
            )),
    );
    let config = String::from_utf8(generic.stdout).unwrap();
    assert!(config.contains("# Sizes measured in one write"), "{config}");
}

/// A traffic mix weighs the answer: twitter.json served a thousand times for every other
/// body moves the pick from zstd 1 to zstd 3, which it compresses smaller; a name the
/// run lacks is refused.
#[test]
fn weights_weigh_each_body_by_how_often_it_is_served() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/real-json-quick.json"
    );
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("weights.csv");
    let first = |extra: &[&std::ffi::OsStr]| -> (String, String) {
        let output = succeed(
            codecbench()
                .args(["recommend", "--format", "json", "--from", fixture])
                .args(extra),
        );
        let advice: Value = serde_json::from_slice(&output.stdout).unwrap();
        let first = &advice["answers"][0]["lines"][0]["encodings"][0];
        (
            first["id"].to_string(),
            first["min_body"]["bytes"].to_string(),
        )
    };
    std::fs::write(&weights, "payload,weight\nreal-json/twitter.json,1000\n").unwrap();
    let even = first(&[]);
    let mixed = first(&["--weights".as_ref(), weights.as_os_str()]);
    assert_ne!(even, mixed);
    std::fs::write(&weights, "payload,weight\nnope.json,2\n").unwrap();
    let message = crate::common::bad_input(&[
        "recommend",
        "--from",
        fixture,
        "--weights",
        weights.to_str().unwrap(),
    ]);
    assert!(
        message.contains("--weights names \"nope.json\""),
        "{message}"
    );
}
