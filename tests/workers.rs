//! End to end: a worker process takes its jobs on stdin in the worker protocol
//! (docs/workers.md), never the user's options, and refuses a job it cannot take in one
//! line.

use crate::common::{bad_input, codecbench};
use serde_json::{json, Value};

/// A job for the worker: zstd 1 on `body`, two iterations, in protocol `version`.
fn job(version: u32, path: &std::path::Path, body: &[u8]) -> String {
    let sha256 = codecbench::sha256_hex(body);
    let job = json!({
        "protocol": version,
        "body": {"name": "tiny", "path": path, "bytes": body.len(), "sha256": sha256},
        "work": {"time": {"warmup": 0, "iterations": {"Fixed": 2}, "rounds": 1, "precision": null, "processes": 1}},
        "settings": [{"codec": "zstd", "library": "libzstd", "variant": "fresh", "levels": [1]}],
    });
    format!("{job}\n")
}

/// The worker's answer lines to `stdin`, its stderr and exit code.
fn worker(stdin: String) -> (Vec<Value>, String, Option<i32>) {
    let output = codecbench()
        .arg("time-worker")
        .write_stdin(stdin)
        .output()
        .unwrap();
    let lines = String::from_utf8(output.stdout).unwrap();
    let answers = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        answers,
        String::from_utf8(output.stderr).unwrap(),
        output.status.code(),
    )
}

#[test]
fn a_worker_answers_its_job_with_steps_then_its_samples() {
    let dir = tempfile::tempdir().unwrap();
    let (path, body) = (dir.path().join("body"), br#"{"id":1,"name":"a"}"#);
    std::fs::write(&path, body).unwrap();
    let (answers, stderr, code) = worker(job(2, &path, body));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(answers[0]["step"]["label"], "tiny zstd 1 (libzstd 1.5.7)");
    let result = &answers.last().unwrap()["result"];
    assert_eq!(result["payload"], "tiny");
    let cell = &result["cells"][0];
    assert_eq!(cell["level"], 1);
    assert_eq!(cell["compress"]["samples_s"].as_array().unwrap().len(), 2);
}

#[test]
fn a_worker_takes_jobs_until_stdin_closes() {
    let dir = tempfile::tempdir().unwrap();
    let (path, body) = (dir.path().join("body"), br#"{"id":1,"name":"a"}"#);
    std::fs::write(&path, body).unwrap();
    let (answers, stderr, code) = worker(job(2, &path, body).repeat(3));
    assert_eq!(code, Some(0), "{stderr}");
    let results = answers.iter().filter(|a| a.get("result").is_some()).count();
    assert_eq!(results, 3);
}

#[test]
fn a_worker_refuses_another_protocol_or_body_in_one_line_and_takes_no_option() {
    let dir = tempfile::tempdir().unwrap();
    let (path, body) = (dir.path().join("body"), b"0123456789");
    std::fs::write(&path, body).unwrap();
    let (answers, stderr, code) = worker(job(1, &path, body));
    assert_eq!(code, Some(2));
    let why = "protocol 1 is not spoken here: this build speaks 2";
    assert_eq!(answers, [json!({ "refused": why })]);
    assert_eq!(stderr, format!("codecbench: error: {why}\n"));
    let (answers, _, code) = worker(job(2, &path, b"another body"));
    assert_eq!(code, Some(2));
    let refused = answers[0]["refused"].as_str().unwrap();
    assert!(
        refused.ends_with("is not the 12-byte body the job names"),
        "{refused}"
    );
    // A timing job is not a counting one.
    let output = codecbench()
        .arg("count-instructions")
        .write_stdin(job(2, &path, body))
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr,
        "codecbench: error: count-instructions counts; this job times\n"
    );
    // The user's options cannot reach a worker: it has none to take.
    bad_input(&["time-worker", "--payload", "single"]);
    bad_input(&["count-instructions", "--count-cell", "0"]);
}
