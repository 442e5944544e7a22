//! End to end: `codecbench payloads` writes the golden files byte for byte.

use crate::common;

use codecbench::sha256_hex;
use common::{bad_input, codecbench};

/// The committed payloads/SHA256SUMS as (hash, file name) pairs.
fn golden_sums() -> Vec<(String, String)> {
    let sums = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/payloads/SHA256SUMS"))
        .unwrap();
    sums.lines()
        .map(|line| {
            let (hash, name) = line.split_once("  ").expect("sha256sum format");
            (hash.to_string(), name.to_string())
        })
        .collect()
}

#[test]
fn regenerated_payloads_match_the_golden_sums_and_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p");
    codecbench()
        .args(["payloads", "--out"])
        .arg(&out)
        .assert()
        .success();
    let sums = golden_sums();
    assert_eq!(sums.len(), 3);
    for (hash, name) in &sums {
        let generated = std::fs::read(out.join(name)).unwrap();
        assert_eq!(
            &sha256_hex(&generated),
            hash,
            "{name} drifted from SHA256SUMS"
        );
        let committed =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/payloads/").to_string() + name)
                .unwrap();
        assert_eq!(
            generated, committed,
            "{name} differs from the committed file"
        );
        let expected_len = match name.as_str() {
            "single.json" => 290,
            "small.json" => 298_727,
            "large.json" => 3_018_756,
            other => panic!("unexpected golden file {other}"),
        };
        assert_eq!(generated.len(), expected_len, "{name}");
    }
}

#[test]
fn records_option_writes_one_file() {
    let dir = tempfile::tempdir().unwrap();
    codecbench()
        .args([
            "payloads",
            "--records",
            "3",
            "--rng",
            "chacha",
            "--seed",
            "5",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["records-3.json"]);
    let records: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("records-3.json")).unwrap()).unwrap();
    assert_eq!(records.as_array().unwrap().len(), 3);
}

#[test]
fn unwritable_output_directory_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let message = bad_input(&["payloads", "--out", file.join("sub").to_str().unwrap()]);
    assert!(message.contains("cannot create directory"), "{message}");
}

#[test]
fn real_json_is_the_committed_corpus_byte_for_byte() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/payloads/real-json/");
    let sums = std::fs::read_to_string(format!("{folder}SHA256SUMS")).unwrap();
    let mut expected: Vec<(String, u64)> = Vec::new();
    for line in sums.lines() {
        let (hash, name) = line.split_once("  ").expect("sha256sum format");
        let bytes = std::fs::read(format!("{folder}{name}")).unwrap();
        assert_eq!(sha256_hex(&bytes), hash, "{name} drifted from SHA256SUMS");
        expected.push((format!("real-json/{name}"), bytes.len() as u64));
    }
    assert_eq!(expected.len(), 15);
    let output = codecbench()
        .args(["run", "--payload", "real-json", "--codecs", "gzip"])
        .args(["--gzip-levels", "1", "--iterations", "1", "--warmup", "0"])
        .args(["--quiet", "--format", "csv"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let mut measured: Vec<(String, u64)> = csv::Reader::from_reader(&output.stdout[..])
        .deserialize::<std::collections::HashMap<String, String>>()
        .map(|row| {
            let row = row.unwrap();
            (row["payload"].clone(), row["input_bytes"].parse().unwrap())
        })
        .collect();
    measured.sort();
    expected.sort();
    assert_eq!(measured, expected);
}
