//! Outputs that are not regular files: a FIFO is opened once and written once, at the
//! end, and a run waiting on one ends promptly on SIGTERM or SIGINT.
#![cfg(unix)]

use crate::common::{self, fifo};

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUN: [&str; 9] = [
    "run",
    "--payload",
    "single",
    "--codecs",
    "zstd",
    "--zstd-levels",
    "1,3",
    "--iterations",
    "3",
];

#[test]
fn a_fifo_gets_one_whole_document_and_the_run_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "results.json");
    let reader_path = path.clone();
    // The reader reads to the end of file, as `cat` does: a second open would find none.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    });
    let output = common::codecbench()
        .args(RUN)
        .args(["--quiet", "--format", "csv", "--export-json"])
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let document: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(
        document["payloads"][0]["cells"].as_array().unwrap().len(),
        2
    );
}

/// Starts a run whose JSON goes to a FIFO nobody reads, signals it, and returns its
/// exit code, stderr and how long it took to end after the signal.
fn stopped_by(signal: libc::c_int) -> (Option<i32>, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "nobody-reads.json");
    let binary = assert_cmd::cargo::cargo_bin("codecbench");
    let mut child = Command::new(binary)
        .args(RUN)
        .args(["--quiet", "--export-json"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handlers to be installed and the tiny matrix to be measured.
    std::thread::sleep(Duration::from_millis(1500));
    let signalled = Instant::now();
    // SAFETY: kill sends a signal to the child's pid.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let deadline = signalled + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the run did not end within 10 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = signalled.elapsed();
    (status.code(), common::stderr_of(&mut child), took)
}

#[test]
fn a_run_waiting_on_a_fifo_ends_on_sigterm_with_143() {
    let (code, stderr, took) = stopped_by(libc::SIGTERM);
    assert_eq!(code, Some(143), "{stderr}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("codecbench: interrupted;"), "{stderr}");
    assert!(stderr.contains("nobody-reads.json"), "{stderr}");
}

#[test]
fn a_run_waiting_on_a_fifo_ends_on_sigint_with_130() {
    let (code, stderr, took) = stopped_by(libc::SIGINT);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
