//! Stops and odd inputs leave nothing behind and say what they mean: a stop in the middle
//! of a large write leaves no temporary file, `payloads` ends at the first signal, a
//! FIFO with no writer is given up within a bound, a baseline that cannot run is
//! refused before measuring, and `reproduce` of a run stopped early names what it holds.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::time::{Duration, Instant};

use super::peer::{run, Signal};
use crate::common::{bad_input, codecbench, fifo, succeed};

/// The hidden temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".codecbench"))
        .collect()
}

#[test]
fn a_stop_during_a_large_write_ends_at_once_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    // 800,000 records are 246 MB: the signal goes once the temporary file is there.
    let writing = || !temporaries(Path::new(out)).is_empty();
    let args = ["payloads", "--records", "800000", "--out", out];
    for number in [libc::SIGINT, libc::SIGTERM] {
        let signal = Signal {
            number,
            after: Duration::ZERO,
            ready: &writing,
        };
        let ended = run(&args, Some(signal), Duration::from_secs(120));
        assert!(ended.after_signal.is_some(), "the write was never seen");
        assert!(ended.after_signal.unwrap() < Duration::from_secs(2));
        let expected = if number == libc::SIGINT { 130 } else { 143 };
        assert_eq!(ended.code, Some(expected), "{}", ended.stderr);
        assert_eq!(temporaries(dir.path()), Vec::<String>::new());
        assert!(!dir.path().join("records-800000.json").exists());
        assert_eq!(
            ended.stderr.lines().last(),
            Some(STOPPED),
            "{}",
            ended.stderr
        );
    }
}

/// The line a process stopped at once ends with.
const STOPPED: &str =
    "codecbench: stopped at once; each file already written is whole, none is half-written";

#[test]
fn a_second_stop_request_ends_a_run_at_once_in_one_line_its_file_whole() {
    for (number, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGINT, 130),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("run.json");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_codecbench"))
            // The single record is saved within 2 s. Each iteration on large then takes
            // seconds, which the first stop waits for: the second comes within it.
            .args(["run", "--quick", "--processes", "1", "--payload", "single"])
            .args([
                "--payload",
                "large",
                "--codecs",
                "brotli",
                "--brotli-levels",
                "11",
            ])
            .arg("--export-json")
            .arg(&saved)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !saved.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no cell was saved"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        // Into large's first iteration.
        std::thread::sleep(Duration::from_millis(1500));
        for _ in 0..2 {
            // SAFETY: signalling the child this test started.
            unsafe { libc::kill(child.id() as libc::pid_t, number) };
            std::thread::sleep(Duration::from_millis(10));
        }
        let (status, stderr) = crate::common::wait_with_stderr(&mut child);
        assert_eq!(status.code(), Some(code), "{stderr}");
        assert_eq!(stderr.lines().last(), Some(STOPPED), "{stderr}");
        assert_eq!(stderr.matches(STOPPED).count(), 1, "{stderr}");
        let other_ends = ["FAILED", "interrupted;", "error"];
        assert!(!other_ends.iter().any(|e| stderr.contains(e)), "{stderr}");
        let run: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&saved).unwrap()).expect("the file is whole");
        assert!(run["payloads"][0]["cells"]
            .as_array()
            .is_some_and(|c| !c.is_empty()));
        assert_eq!(temporaries(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn a_weights_fifo_nobody_writes_is_given_up_within_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let weights = fifo(dir.path(), "weights.csv");
    let started = Instant::now();
    let message = bad_input(&[
        "recommend",
        "--from",
        "tests/fixtures/base.json",
        "--weights",
        weights.to_str().unwrap(),
    ]);
    assert!(
        message.contains("sent nothing whole within 10 s"),
        "{message}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_baseline_that_cannot_run_is_refused_before_measuring() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain-file");
    std::fs::write(&plain, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
    let directory = dir.path().to_str().unwrap();
    for (baseline, expected) in [
        (plain.to_str().unwrap(), "not a runnable program"),
        (directory, "not a file"),
    ] {
        let started = Instant::now();
        let message = bad_input(&["ab", "--payload", "single", "--baseline", baseline]);
        assert!(message.contains(expected), "{message}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn reproduce_of_a_run_without_the_articles_cells_names_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("short.json");
    succeed(
        codecbench()
            .args(["run", "--quick", "--quiet", "--payload", "single"])
            .args(["--codecs", "zstd", "--zstd-levels", "2", "--export-json"])
            .arg(&json),
    );
    let shown = succeed(codecbench().arg("reproduce").arg("--from").arg(&json));
    let stdout = String::from_utf8(shown.stdout).unwrap();
    assert!(
        stdout.contains("none of those cells: it holds 1 cell on single"),
        "{stdout}"
    );
}
