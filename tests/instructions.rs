//! End to end: `run --measure instructions` under the real valgrind, and `compare`
//! judging the counts exactly.

use crate::common;

use std::path::Path;

use common::{bad_input, codecbench};
use serde_json::Value;

fn valgrind_here() -> bool {
    crate::common::present("valgrind", "--version", "valgrind")
}

/// zstd 1 and 3 on one record, instructions counted, saved as JSON and CSV in `dir`.
fn counted_run(dir: &Path, name: &str) -> Value {
    let json = dir.join(format!("{name}.json"));
    let output = codecbench()
        .args([
            "run",
            "--payload",
            "single",
            "--codecs",
            "zstd",
            "--zstd-levels",
            "1,3",
        ])
        .args(["--iterations", "3", "--measure", "time,instructions", "-q"])
        .arg("--export-json")
        .arg(&json)
        .arg("--export-csv")
        .arg(dir.join(format!("{name}.csv")))
        .arg("--export-github-benchmark")
        .arg(dir.join(format!("{name}-gab.json")))
        .arg("--export-bencher")
        .arg(dir.join(format!("{name}-bencher.json")))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

fn compare(dir: &Path, baseline: &str, candidate: &str) -> (Option<i32>, String) {
    let output = codecbench()
        .args(["compare", baseline, candidate])
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn counts(run: &Value) -> Vec<(u64, u64)> {
    run["payloads"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["compress_instructions"].as_u64().unwrap(),
                c["decompress_instructions"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn instructions_repeat_and_compare_flags_two_percent_more() {
    if !valgrind_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let first = counted_run(dir.path(), "a");
    let second = counted_run(dir.path(), "b");
    assert_eq!(first["instructions"]["tool"], "callgrind");
    for ((c1, d1), (c2, d2)) in counts(&first).into_iter().zip(counts(&second)) {
        for (x, y) in [(c1, c2), (d1, d2)] {
            assert!(x > 1_000, "a real count: {x}");
            let apart = (x as f64 - y as f64).abs() / x as f64;
            assert!(apart < 0.0005, "{x} and {y} are {apart} apart");
        }
    }
    // Two runs of the same build: the instructions pass whatever the times do.
    let (code, stdout) = compare(dir.path(), "a.json", "b.json");
    assert!(
        stdout.contains("instructions compared exactly on 2 cells: 0 with more than +1% per byte"),
        "{stdout}"
    );
    assert!(!stdout.contains("MORE INSTRUCTIONS"), "{stdout}");
    assert_ne!(code, Some(2), "{stdout}");
    // The CSV carries the counts too.
    let (_, stdout) = compare(dir.path(), "a.csv", "b.json");
    assert!(
        stdout.contains("instructions compared exactly on 2 cells"),
        "{stdout}"
    );

    // 2% more instructions in zstd 3's compression fails, naming it.
    let mut more = second.clone();
    let cell = &mut more["payloads"][0]["cells"][1];
    let count = cell["compress_instructions"].as_u64().unwrap();
    cell["compress_instructions"] = (count * 102 / 100).into();
    std::fs::write(dir.path().join("c.json"), more.to_string()).unwrap();
    let (code, stdout) = compare(dir.path(), "a.json", "c.json");
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("MORE INSTRUCTIONS: single zstd 3 (libzstd) compress"),
        "{stdout}"
    );
    assert!(stdout.contains("cell with more instructions"), "{stdout}");

    // The dashboards' files name each cell and direction.
    let gab: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("a-gab.json")).unwrap()).unwrap();
    let names: Vec<&str> = gab
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"single zstd 3 (libzstd) compress instructions"),
        "{names:?}"
    );
    assert!(
        names.contains(&"single zstd 1 (libzstd) decompress time"),
        "{names:?}"
    );
    assert!(
        names.contains(&"single zstd 1 (libzstd) compress bytes"),
        "{names:?}"
    );
    let bencher: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("a-bencher.json")).unwrap()).unwrap();
    let compress = &bencher["single zstd 3 (libzstd) compress"];
    assert_eq!(compress["instructions"]["value"], counts(&first)[1].0);
    assert!(compress["latency"]["value"].as_f64().unwrap() > 0.0);
    let zstd_3 = first["payloads"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"] == 3)
        .unwrap();
    assert_eq!(compress["file-size"]["value"], zstd_3["compressed_bytes"]);
}

#[test]
fn without_valgrind_instructions_are_a_one_line_error_naming_the_package() {
    let empty = tempfile::tempdir().unwrap();
    let output = codecbench()
        .args(["run", "--payload", "single", "--measure", "instructions"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("apt-get install valgrind"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // A bad --measure value is refused by name.
    let message = bad_input(&["run", "--payload", "single", "--measure", "cycles"]);
    assert!(message.contains("cycles"), "{message}");
}
