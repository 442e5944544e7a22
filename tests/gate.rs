//! End to end: `compare` as a CI gate that a failed, missing or mislabelled run cannot
//! pass. Runs are measured by the real binary on the single record; candidates are made
//! by scaling a measured run's samples, so no verdict depends on this machine's noise.

use crate::common;

use std::path::{Path, PathBuf};

use common::{codecbench, compare, succeed};
use serde_json::Value;

/// Measures the single record with `args` into `dir/name`, returning the path.
fn measure(dir: &Path, name: &str, args: &[&str], corrupt: Option<&str>) -> PathBuf {
    let path = dir.join(name);
    let mut cmd = codecbench();
    cmd.args(["run", "--payload", "single", "--quiet", "--format", "csv"])
        .args(args)
        .arg("--json")
        .arg(&path);
    match corrupt {
        Some(codec) => {
            let output = cmd.env("CODECBENCH_TEST_CORRUPT", codec).output().unwrap();
            assert_eq!(output.status.code(), Some(1), "a failed cell exits 1");
        }
        None => {
            succeed(&mut cmd);
        }
    }
    path
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn write(dir: &Path, name: &str, run: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(run).unwrap()).unwrap();
    path
}

/// Multiplies every time of the cells `pick` chooses by `factor`.
fn scale(run: &mut Value, factor: f64, pick: impl Fn(&Value) -> bool) {
    for cell in run["payloads"][0]["cells"].as_array_mut().unwrap() {
        if !pick(cell) {
            continue;
        }
        for direction in ["compress", "decompress"] {
            let summary = &mut cell[direction];
            for key in ["median_s", "min_s", "max_s", "mean_s"] {
                summary[key] = (summary[key].as_f64().unwrap() * factor).into();
            }
            for sample in summary["samples_s"].as_array_mut().unwrap() {
                *sample = (sample.as_f64().unwrap() * factor).into();
            }
        }
    }
}

/// Every timing of the picked cells at its median, without spread: a verdict on them then
/// hangs on the change made to them, not on how noisy the machine was when measured.
fn steady(run: &mut Value, pick: impl Fn(&Value) -> bool) {
    for cell in run["payloads"][0]["cells"].as_array_mut().unwrap() {
        if !pick(cell) {
            continue;
        }
        for direction in ["compress", "decompress"] {
            let summary = &mut cell[direction];
            let median = summary["median_s"].clone();
            for key in ["min_s", "max_s", "mean_s"] {
                summary[key] = median.clone();
            }
            for sample in summary["samples_s"].as_array_mut().unwrap() {
                *sample = median.clone();
            }
        }
    }
}

/// libzstd, fresh, zstd 1: the reference.
fn is_reference(cell: &Value) -> bool {
    cell["codec"] == "zstd"
        && cell["library"] == "libzstd"
        && cell["variant"] == "fresh"
        && cell["level"] == 1
}

const SMALL: [&str; 8] = [
    "--codecs",
    "zstd,gzip",
    "--zstd-levels",
    "1,3",
    "--gzip-levels",
    "1",
    "--iterations",
    "100",
];

#[test]
fn a_candidate_whose_round_trip_failed_fails_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let base = measure(dir.path(), "base.json", &SMALL, None);
    let failed = measure(dir.path(), "cand.json", &SMALL, Some("gzip"));
    let (code, stdout) = compare(&base, &failed, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED in the candidate: single gzip 1 (zlib-rs): round trip mismatch"),
        "{stdout}"
    );
    // The other cells of two real runs may or may not move by noise; the failure is named.
    assert!(stdout.contains("1 failed in the candidate"), "{stdout}");
}

#[test]
fn runs_with_no_cell_in_common_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let base = measure(dir.path(), "base.json", &SMALL, None);
    let mut other = read(&base);
    other["payloads"][0]["payload"] = "elsewhere.json".into();
    let other = write(dir.path(), "other.json", &other);
    let message = common::bad_input(&["compare", base.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(message.contains("no result in common"), "{message}");
}

#[test]
fn the_reference_alone_moving_flags_no_dictionary_or_reused_cell_and_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        &SMALL[..],
        &[
            "--zstd-dict",
            "4",
            "--dict-samples",
            "200",
            "--encoder",
            "both",
        ],
    ]
    .concat();
    let measured = measure(dir.path(), "measured.json", &args, None);
    // The reference's own band decides whether its move is reported: keep this machine's
    // noise out of it (on a busy machine its band once reached the 23% move).
    let mut base = read(&measured);
    steady(&mut base, is_reference);
    let base = write(dir.path(), "base.json", &base);
    let cells = read(&base)["payloads"][0]["cells"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(
        cells, 8,
        "zstd 1 and 3: fresh, reused, dictionary; gzip 1: fresh, reused"
    );

    // Only the reference got faster: nothing else may be flagged.
    let mut faster = read(&base);
    scale(&mut faster, 0.75, is_reference);
    let faster = write(dir.path(), "faster.json", &faster);
    let (code, stdout) = compare(&base, &faster, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("REGRESSED"), "{stdout}");

    // Only the reference got slower: reported with its size, a warning by default ...
    let mut slower = read(&base);
    scale(&mut slower, 1.3, is_reference);
    let slower = write(dir.path(), "slower.json", &slower);
    let (code, stdout) = compare(&base, &slower, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("REGRESSED"), "{stdout}");
    let flat = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "machine-level change (FAILS): single compress: the reference itself 30.0% slower ["
        ),
        "{stdout}"
    );
    // ... and a failure with --absolute.
    let (code, stdout) = compare(&base, &slower, &["--absolute"]);
    assert_eq!(code, 1, "{stdout}");
}

#[test]
fn a_uniform_30_percent_slowdown_fails_with_absolute() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&SMALL[..], &["--encoder", "both"]].concat();
    let base = measure(dir.path(), "base.json", &args, None);
    let mut slower = read(&base);
    scale(&mut slower, 1.3, |_| true);
    let slower = write(dir.path(), "slower.json", &slower);
    let (code, stdout) = compare(&base, &slower, &[]);
    assert_eq!(code, 0, "normalised, a uniform change only warns: {stdout}");
    // Notes wrap to the terminal's width: match them with the line breaks folded.
    let flat = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("all 6 cells together (median) 30.0% slower ["),
        "{stdout}"
    );
    // The exit follows normalised speeds; the verdict line gives both, with one weight.
    assert!(
        flat.contains("verdict: pass; in absolute time: FAIL ("),
        "{stdout}"
    );
    let (code, stdout) = compare(&base, &slower, &["--absolute"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("machine-level slowdowns (--absolute)"),
        "{stdout}"
    );
}
