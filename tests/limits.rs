//! End to end: bounds are checked before anything is expanded or allocated, and inputs
//! that would make a command spin, panic or say nothing are refused.

use crate::common;

use std::time::{Duration, Instant};

use common::{bad_input, codecbench, csv_rows, succeed};

#[test]
fn huge_counts_and_ranges_are_refused_at_once() {
    let start = Instant::now();
    for (args, expected) in [
        (
            &["run", "--iterations", "1", "--rounds", "4294967295"][..],
            "--rounds",
        ),
        (&["run", "--iterations", "4294967295"], "--iterations"),
        (
            &["run", "--quick", "--max-iterations", "4294967295"],
            "--max-iterations",
        ),
        (
            &["run", "--brotli-levels", "0..100000000"],
            "brotli level 100000000 is out of range",
        ),
        (
            &["run", "--zstd-levels=-2000000000..2000000000"],
            "out of range",
        ),
        (&["http", "--bandwidth", "1e-300"], "--bandwidth"),
        (
            &["zstd-params", "--levels", "1..99999999"],
            "zstd level 99999999 is out of range",
        ),
    ] {
        let message = bad_input(args);
        assert!(message.contains(expected), "{args:?}: {message}");
    }
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "no expansion before the check"
    );
}

#[test]
fn a_codec_named_twice_is_measured_once() {
    let output = succeed(codecbench().args([
        "run",
        "--payload",
        "single",
        "--codecs",
        "gzip,zstd,gzip",
        "--zstd-levels",
        "1",
        "--gzip-levels",
        "1",
        "--iterations",
        "3",
        "--quiet",
        "--format",
        "csv",
    ]));
    let codecs: Vec<String> = csv_rows(&output.stdout)
        .iter()
        .map(|r| r["codec"].clone())
        .collect();
    assert_eq!(codecs, ["gzip", "zstd"]);
}

#[test]
fn recommend_on_a_run_whose_cells_all_failed_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("failed.json");
    let output = codecbench()
        .env("CODECBENCH_TEST_CORRUPT", "gzip")
        .args([
            "run",
            "--payload",
            "single",
            "--codecs",
            "gzip",
            "--gzip-levels",
            "1,9",
        ])
        .args(["--iterations", "3", "--quiet", "--format", "csv", "--json"])
        .arg(&run)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = bad_input(&["recommend", "--from", run.to_str().unwrap()]);
    assert!(message.contains("every cell failed"), "{message}");
}

#[test]
fn a_throttled_request_past_the_duration_fails_and_the_run_ends() {
    // At 0.01 Mbit/s the small payload would take four minutes per response.
    let start = Instant::now();
    let output = codecbench()
        .args(["http", "--payload", "small", "--encodings", "identity"])
        .args(["--bandwidth", "0.01", "--duration", "1", "--format", "csv"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "bounded by the duration"
    );
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no response within"), "{stderr}");
    let rows = csv_rows(&output.stdout);
    assert_eq!(rows[0]["http_errors"], "1", "{rows:?}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_throttled_request_at_once() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["http", "--payload", "small", "--encodings", "identity"])
        .args(["--bandwidth", "0.01", "--requests", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let stopped = Instant::now();
    // SAFETY: kill with a live child's pid has no other effect.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(
        stopped.elapsed() < Duration::from_secs(10),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(status.code(), Some(130));
}

#[test]
fn sixty_four_connections_complete_every_request() {
    // Before each request waited for its connection to be ready, 5 of 6 such runs lost
    // requests to "connection was not ready".
    let output = codecbench()
        .args([
            "http",
            "--payload",
            "small",
            "--encodings",
            "zstd:1,zstd:3,gzip:1",
        ])
        .args(["--concurrency", "64", "--duration", "1", "--format", "csv"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    for row in csv_rows(&output.stdout) {
        assert_eq!(row["http_errors"], "0", "{row:?}");
    }
}

#[cfg(unix)]
#[test]
fn sigterm_right_after_start_exits_143() {
    // The handler is installed first thing: a SIGTERM that lands while the payload is
    // still being generated stops the run, which exits 143 itself, rather than the
    // signal's default action killing the process (no exit code at all).
    for _ in 0..5 {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_codecbench"))
            .args(["run", "--payload", "large", "--quiet", "--format", "csv"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        // SAFETY: kill with a live child's pid has no other effect.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        assert_eq!(child.wait().unwrap().code(), Some(143));
    }
}
