//! End to end: `codecbench compare` and `merge` on saved runs.
//!
//! tests/fixtures/base.json and base.csv are one real run of
//! `codecbench run --payload single --iterations 30 --warmup 2 --codecs zstd,gzip
//! --zstd-levels 1,3 --gzip-levels 1 --json base.json --csv base.csv`. Candidates are made
//! from it by editing one cell, so no test depends on the speed of the machine it runs on.

use crate::common;

use std::path::{Path, PathBuf};

use common::{bad_input, codecbench, compare};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn base_json() -> Value {
    serde_json::from_slice(&std::fs::read(fixture("base.json")).unwrap()).unwrap()
}

/// The gzip level-1 cell of the fixture.
fn gzip_cell(run: &mut Value) -> &mut Value {
    run["payloads"][0]["cells"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["codec"] == "gzip")
        .unwrap()
}

/// Multiplies every compression time of the gzip cell by `factor`.
fn slow_down_gzip(run: &mut Value, factor: f64) {
    let compress = &mut gzip_cell(run)["compress"];
    for key in ["median_s", "min_s", "max_s", "mean_s"] {
        compress[key] = (compress[key].as_f64().unwrap() * factor).into();
    }
    for sample in compress["samples_s"].as_array_mut().unwrap() {
        *sample = (sample.as_f64().unwrap() * factor).into();
    }
}

fn write_json(dir: &Path, name: &str, run: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(run).unwrap()).unwrap();
    path
}

#[test]
fn identical_runs_compare_clean_in_every_mode_and_format() {
    let base = fixture("base.json");
    for extra in [
        &[][..],
        &["--absolute"],
        &["--format", "markdown"],
        &["--format", "json"],
    ] {
        let (code, stdout) = compare(&base, &base, extra);
        assert_eq!(code, 0, "{extra:?}: {stdout}");
    }
    let (code, stdout) = compare(&base, &base, &[]);
    assert_eq!(code, 0);
    // A run against itself: no change anywhere, but zstd 3's compress band (±17%) is
    // wider than the threshold, so that cell cannot be called unchanged either.
    assert!(
        stdout.contains(
            "3 cells compared: 0 regressed, 1 inconclusive, 0 size drifts, 0 failed, 0 missing, 0 extra"
        ),
        "{stdout}"
    );
    let (code, stdout) = compare(&base, &base, &["--strict"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("verdict: FAIL (1 inconclusive (--strict))"),
        "{stdout}"
    );
}

#[test]
fn csv_and_json_of_the_same_run_compare_clean() {
    let (code, stdout) = compare(&fixture("base.csv"), &fixture("base.json"), &[]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn an_edited_size_fails_and_names_the_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = base_json();
    gzip_cell(&mut run)["compressed_bytes"] = 297.into();
    let candidate = write_json(dir.path(), "cand.json", &run);
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("size drift (FAILS): single gzip 1"),
        "{stdout}"
    );
    assert!(stdout.contains("298 → 297 DRIFT"), "{stdout}");
    let (code, _) = compare(&fixture("base.json"), &candidate, &["--allow-size-drift"]);
    assert_eq!(code, 0);
}

#[test]
fn a_cell_25_percent_slower_after_normalisation_regresses() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = base_json();
    slow_down_gzip(&mut run, 1.25);
    let candidate = write_json(dir.path(), "slow.json", &run);
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("regression: single gzip 1"), "{stdout}");
    assert!(stdout.contains("25.0% slower ["), "{stdout}");
}

#[test]
fn a_5_percent_change_passes() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = base_json();
    slow_down_gzip(&mut run, 1.05);
    let candidate = write_json(dir.path(), "slower.json", &run);
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &[]);
    assert_eq!(code, 0, "{stdout}");
    // With no threshold at all, a 2% change is still inside these samples' noise.
    let mut run = base_json();
    slow_down_gzip(&mut run, 1.02);
    let candidate = write_json(dir.path(), "slightly.json", &run);
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &["--threshold", "0"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("2.0% slower") && stdout.contains("noise"),
        "{stdout}"
    );
}

#[test]
fn missing_and_extra_cells_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = base_json();
    gzip_cell(&mut run)["level"] = 9.into();
    let candidate = write_json(dir.path(), "other.json", &run);
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &[]);
    assert_eq!(code, 1, "a missing cell fails the gate: {stdout}");
    assert!(
        stdout.contains("MISSING from candidate: single gzip 1"),
        "{stdout}"
    );
    let (code, stdout) = compare(&fixture("base.json"), &candidate, &["--allow-missing"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("only in candidate: single gzip 9"),
        "{stdout}"
    );
}

#[test]
fn malformed_input_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let base = fixture("base.json");
    let text = std::fs::read_to_string(&base).unwrap();
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let message = bad_input(&[
        "compare",
        base.to_str().unwrap(),
        truncated.to_str().unwrap(),
    ]);
    assert!(message.contains("truncated.json"), "{message}");

    let mut run = base_json();
    run["schema_version"] = 99.into();
    let future = write_json(dir.path(), "future.json", &run);
    let message = bad_input(&["compare", base.to_str().unwrap(), future.to_str().unwrap()]);
    assert!(message.contains("schema_version 99"), "{message}");

    let csv = dir.path().join("bad.csv");
    std::fs::write(&csv, "payload,codec\nsmall,zstd\n").unwrap();
    let message = bad_input(&["compare", csv.to_str().unwrap(), base.to_str().unwrap()]);
    assert!(message.contains("bad.csv"), "{message}");

    let message = bad_input(&["compare", base.to_str().unwrap(), "/no/such/run.json"]);
    assert!(message.contains("/no/such/run.json"), "{message}");

    let message = bad_input(&[
        "compare",
        base.to_str().unwrap(),
        base.to_str().unwrap(),
        "--normalize-to",
        "brotli:1",
    ]);
    assert!(message.contains("brotli 1 (libbrotli)"), "{message}");

    let message = bad_input(&[
        "compare",
        base.to_str().unwrap(),
        base.to_str().unwrap(),
        "--threshold",
        "-5",
    ]);
    assert!(message.contains("--threshold"), "{message}");
}

#[test]
fn merge_puts_runs_side_by_side_within_100_columns() {
    for columns in ["100", "80"] {
        let output = codecbench()
            .env("COLUMNS", columns)
            .arg("merge")
            .arg(fixture("base.json"))
            .arg(fixture("base.csv"))
            .output()
            .unwrap();
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(stdout.contains("base.json ┆    base.csv │"), "{stdout}");
        assert!(
            stdout.contains("Compress / decompress MB/s, per run"),
            "{stdout}"
        );
        assert!(stdout.contains("÷ zstd:1"), "{stdout}");
        let widest = stdout.lines().map(|l| l.chars().count()).max().unwrap();
        let limit: usize = columns.parse().unwrap();
        assert!(
            widest <= limit,
            "{widest} columns wide at COLUMNS={columns}: {stdout}"
        );
        assert!(stdout.contains("machine unknown (CSV)"), "{stdout}");
    }
    let output = codecbench()
        .args(["merge", "--format", "csv"])
        .arg(fixture("base.json"))
        .arg(fixture("base.csv"))
        .output()
        .unwrap();
    assert!(output.status.success());
    common::assert_no_float_noise(&output.stdout);
    let message = bad_input(&["merge", "/no/such/run.json"]);
    assert!(message.contains("/no/such/run.json"), "{message}");
}
