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
