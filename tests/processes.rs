//! End to end: `run --processes N` on the real binary, its children included.

use crate::common;

use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use common::{bad_input, codecbench, succeed};

/// Runs `codecbench run ARGS --json FILE` and returns the saved document and stderr.
fn run_json(args: &[&str]) -> (serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let output = succeed(codecbench().arg("run").args(args).arg("--json").arg(&path));
    let json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (json, String::from_utf8(output.stderr).unwrap())
}

const CELLS: &[&str] = &[
    "--payload",
    "small",
    "--codecs",
    "zstd,gzip",
    "--zstd-levels",
    "1,3",
    "--gzip-levels",
    "1",
    "--warmup",
    "1",
];

/// Each cell's (codec, level, compressed bytes, compress samples, decompress samples).
fn cells(json: &serde_json::Value) -> Vec<(String, i64, u64, usize, usize)> {
    json["payloads"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let samples = |d: &str| c[d]["samples_s"].as_array().unwrap().len();
            (
                c["codec"].as_str().unwrap().to_string(),
                c["level"].as_i64().unwrap(),
                c["compressed_bytes"].as_u64().unwrap(),
                samples("compress"),
                samples("decompress"),
            )
        })
        .collect()
}

#[test]
fn the_processes_samples_are_pooled_into_one_run() {
    let (pooled, stderr) = run_json(&[CELLS, &["--iterations", "7", "--processes", "3"]].concat());
    let payload = &pooled["payloads"][0];
    assert_eq!(payload["processes"], 3);
    assert_eq!(payload["iterations"], 7);
    assert!(
        stderr.contains("7 timed iterations across 3 processes of 3 rounds, after 1 warm-up"),
        "{stderr}"
    );
    // Step lines name the payload, and count the rounds of every process.
    assert!(stderr.contains("/7, "), "{stderr}"); // 3, 2 and 2 rounds
    assert!(stderr.contains("small zstd 1 (libzstd"), "{stderr}");
    let (single, _) = run_json(&[CELLS, &["--iterations", "2", "--processes", "1"]].concat());
    assert_eq!(single["payloads"][0].get("processes"), None);
    let (pooled, single) = (cells(&pooled), cells(&single));
    assert_eq!(pooled.len(), 3);
    for (p, s) in pooled.iter().zip(&single) {
        assert_eq!(
            (&p.0, p.1, p.2),
            (&s.0, s.1, s.2),
            "the same cells, the same bytes"
        );
        assert_eq!((p.3, p.4), (7, 7), "every process's samples: {p:?}");
    }
}

#[test]
fn by_default_a_fixed_count_takes_a_process_per_three_iterations_up_to_five() {
    let without_warmup = &CELLS[..CELLS.len() - 2];
    let processes = |args: &[&str]| {
        let (json, stderr) = run_json(&[without_warmup, args].concat());
        let payload = &json["payloads"][0];
        (
            payload["processes"].as_u64(),
            payload["rounds"].as_u64(),
            stderr,
        )
    };
    let (two, rounds, stderr) = processes(&["--iterations", "6", "--warmup", "2"]);
    assert_eq!((two, rounds), (Some(2), Some(3)));
    assert!(
        stderr.contains("6 timed iterations across 2 processes of 3 rounds, after 2 warm-up"),
        "{stderr}"
    );
    assert!(stderr.contains("round 6/6"), "{stderr}");
    assert_eq!(processes(&["--iterations", "18"]).0, Some(5));
    assert_eq!(processes(&["--iterations", "5"]).0, None);
    assert_eq!(
        processes(&["--iterations", "18", "--processes", "1"]).0,
        None
    );
    let budget = ["--min-time", "0.005", "--max-iterations", "12"];
    assert_eq!(processes(&budget).0, None);
}

#[test]
fn processes_that_cannot_share_the_iterations_are_refused() {
    let message = bad_input(&["run", "--iterations", "2", "--processes", "3"]);
    assert!(
        message.contains("--processes 3 needs at least 3 --iterations"),
        "{message}"
    );
    let message = bad_input(&["run", "--processes", "2", "--precision", "5"]);
    assert!(
        message.contains("cannot be combined with --precision"),
        "{message}"
    );
    let message = bad_input(&["run", "--processes", "0"]);
    assert!(message.contains("'0' for '--processes <N>'"), "{message}");
}

/// A stop reaches the child in flight (in a process group of its own, so a terminal's
/// Ctrl-C would not) once, through the parent: the run ends soon with 130 and keeps the
/// payload already finished.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_process_in_flight_and_keeps_what_finished() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("run.json");
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["run", "--payload", "single", "--payload", "large"])
        .args(["--codecs", "zstd,brotli", "--zstd-levels", "1"])
        .args(["--brotli-levels", "11", "--brotli-impl", "c"])
        .args([
            "--iterations",
            "60",
            "--processes",
            "2",
            "--rounds",
            "1",
            "--quiet",
        ])
        .arg("--json")
        .arg(&json_path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let saved = || -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(&json_path).ok()?).ok()
    };
    while saved().is_none_or(|json| json["payloads"].as_array().unwrap().is_empty()) {
        assert!(
            Instant::now() < deadline,
            "the first payload not saved within 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    common::ctrl_c(&child);
    let stopping = Instant::now();
    let (status, stderr) = common::wait_with_stderr(&mut child);
    // brotli 11 on the large payload takes seconds an iteration: far less than a share.
    assert!(stopping.elapsed() < Duration::from_secs(60), "{stderr}");
    assert_eq!(status.code(), Some(130), "{stderr}");
    let json = saved().unwrap();
    let first = &json["payloads"][0];
    assert_eq!(first["payload"], "single");
    assert_eq!(first["processes"], 2);
    for cell in first["cells"].as_array().unwrap() {
        assert_eq!(cell["compress"]["samples_s"].as_array().unwrap().len(), 60);
    }
}

#[test]
fn runs_of_one_command_line_pool_into_one_and_others_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for name in ["a.json", "b.json"] {
        succeed(
            codecbench()
                .arg("run")
                .args(CELLS)
                .args(["--iterations", "2", "--quiet"])
                .args(["--json", &path(name)]),
        );
    }
    let output = succeed(
        codecbench()
            .args(["pool", &path("a.json"), &path("b.json")])
            .args(["--format", "markdown", "--json", &path("ab.json")]),
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("4 timed iterations across 2 processes"),
        "{stdout}"
    );
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path(name)).unwrap()).unwrap()
    };
    let (pooled, single) = (read("ab.json"), read("a.json"));
    assert_eq!(pooled["payloads"][0]["processes"], 2);
    for (p, s) in cells(&pooled).iter().zip(&cells(&single)) {
        assert_eq!((&p.0, p.1, p.2, p.3, p.4), (&s.0, s.1, s.2, 4, 4), "{p:?}");
    }
    // Another payload, a CSV, one run alone, and an output that is an input.
    succeed(
        codecbench()
            .args([
                "run",
                "--payload",
                "single",
                "--codecs",
                "gzip",
                "--gzip-levels",
                "1",
                "--iterations",
                "1",
                "--quiet",
            ])
            .args(["--json", &path("single.json"), "--csv", &path("single.csv")]),
    );
    let message = bad_input(&["pool", &path("a.json"), &path("single.json")]);
    assert!(
        message.contains("did not measure the payloads"),
        "{message}"
    );
    let message = bad_input(&["pool", &path("a.json"), &path("single.csv")]);
    assert!(
        message.contains("single.csv is not a JSON run"),
        "{message}"
    );
    let message = bad_input(&["pool", &path("a.json")]);
    assert!(message.contains("2 values required"), "{message}");
    let before = std::fs::read(path("a.json")).unwrap();
    let message = bad_input(&[
        "pool",
        &path("a.json"),
        &path("b.json"),
        "--json",
        &path("a.json"),
    ]);
    assert!(message.contains("would overwrite an input"), "{message}");
    assert_eq!(std::fs::read(path("a.json")).unwrap(), before);
}

/// Stopped after its first body, `recommend --emit` prints no configuration: one from
/// the first body alone would look complete (issue 45 saw zstd 2 from 1,225 B where the
/// whole answer was zstd 1 from 400 B).
#[cfg(unix)]
#[test]
fn an_interrupted_recommend_prints_no_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("run.json");
    let child = StdCommand::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["recommend", "--emit", "nginx", "--payload", "single"])
        .args(["--payload", "large", "--codecs", "zstd,brotli"])
        .args(["--zstd-levels", "1", "--brotli-levels", "11"])
        .args(["--brotli-impl", "c", "--iterations", "30", "--quiet"])
        .arg("--export-json")
        .arg(&json_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let first_done = || -> bool {
        let Ok(bytes) = std::fs::read(&json_path) else {
            return false;
        };
        let saved: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        saved["payloads"].as_array().is_some_and(|p| !p.is_empty())
    };
    while !first_done() {
        assert!(Instant::now() < deadline, "the first body never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    common::ctrl_c(&child);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(stderr.contains("no answer printed"), "{stderr}");
}
