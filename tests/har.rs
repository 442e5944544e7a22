//! End to end: a browser's HAR capture as payloads (tests/fixtures/capture.har: six
//! JSON API responses, one base64-encoded, an HTML page, CSS, JavaScript, an SVG, and
//! a PNG, a font and a 304 without a body, which are skipped). Sizes and structure
//! only, never speeds.

use crate::common;

use std::path::{Path, PathBuf};

use common::{bad_input, codecbench, succeed};
use serde_json::Value;

fn capture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/capture.har")
}

const FEW: [&str; 8] = [
    "--codecs",
    "zstd,gzip",
    "--zstd-levels",
    "1",
    "--gzip-levels",
    "6",
    "--iterations",
    "3",
];

#[test]
fn recommend_answers_per_content_type_and_counts_what_it_skipped() {
    let har = capture();
    let output = succeed(
        codecbench()
            .args([
                "recommend",
                "--payload",
                har.to_str().unwrap(),
                "--format",
                "json",
            ])
            .args(FEW),
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(
            "10 text bodies (application/json 6, image/svg+xml 1, text/css 1, text/html 1, \
             text/javascript 1); skipped 3: 2 already compressed (font/woff2, image/png), \
             1 without a saved body"
        ),
        "{stderr}"
    );
    let advice: Value = serde_json::from_slice(&output.stdout).unwrap();
    let groups: Vec<(&str, u64)> = advice["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["group"].as_str().unwrap(), a["bodies"].as_u64().unwrap()))
        .collect();
    assert_eq!(groups[0], ("all responses", 10));
    assert_eq!(groups[1], ("application/json", 6));
    assert_eq!(groups.len(), 6, "{groups:?}");
    let names = common::payload_sizes(&advice);
    assert!(names.contains(&("GET https://shop.example/api/customers/1", 290)));
    assert!(names.contains(&("GET https://shop.example/api/customers/1 #2", 290)));
    // Saved base64-encoded: measured decoded.
    assert!(names.contains(&(
        "GET https://shop.example/api/customers?page=1&size=30",
        8840
    )));
}

#[test]
fn a_saved_run_keeps_each_bodys_content_type() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("har.json");
    let har = capture();
    succeed(
        codecbench()
            .args([
                "run",
                "--payload",
                har.to_str().unwrap(),
                "--quiet",
                "--format",
                "csv",
            ])
            .args(["--export-json", saved.to_str().unwrap()])
            .args(FEW),
    );
    let output = succeed(codecbench().args([
        "recommend",
        "--from",
        saved.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let advice: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(advice["answers"][1]["group"], "application/json");
    let nginx = succeed(
        codecbench()
            .args(["recommend", "--from", saved.to_str().unwrap()])
            .args(["--emit", "nginx", "--link", "10"]),
    );
    let nginx = String::from_utf8(nginx.stdout).unwrap();
    // The capture's types, but text/html, which nginx always compresses.
    assert!(
        nginx.contains("_types text/css text/javascript image/svg+xml application/json;"),
        "{nginx}"
    );
}

#[test]
fn malformed_captures_are_refused_naming_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(capture()).unwrap()).unwrap();
    let write = |name: &str, value: &Value| {
        let path = dir.path().join(name);
        std::fs::write(&path, value.to_string()).unwrap();
        path.to_str().unwrap().to_string()
    };
    let mut no_request = fixture.clone();
    no_request["log"]["entries"][1]
        .as_object_mut()
        .unwrap()
        .remove("request");
    let mut bad_base64 = fixture.clone();
    let content = &mut bad_base64["log"]["entries"][3]["response"]["content"];
    content["encoding"] = "base64".into();
    content["text"] = "not base64 !".into();
    let cases = [
        (
            write("no-request.har", &no_request),
            "entry 2: missing field `request`",
        ),
        (
            write("bad-base64.har", &bad_base64),
            "entry 4: response.content.text is not valid base64",
        ),
        (
            write("no-log.har", &serde_json::json!({"log": {}})),
            "is not a HAR file",
        ),
        (
            write("empty.har", &serde_json::json!({"log": {"entries": []}})),
            "no text body to measure",
        ),
    ];
    for (path, expected) in cases {
        let message = bad_input(&["run", "--payload", &path]);
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn an_output_over_the_capture_is_refused_and_the_capture_kept() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("capture.har");
    std::fs::copy(capture(), &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let c = copy.to_str().unwrap();
    for args in [
        vec!["run", "--payload", c, "--export-json", c],
        vec!["run", "--payload", c, "--export-csv", c],
        vec!["recommend", "--payload", c, "--export-json", c],
    ] {
        let message = bad_input(&[&args[..], &FEW].concat());
        assert!(message.contains("would overwrite an input"), "{message}");
    }
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the capture is untouched"
    );
}
