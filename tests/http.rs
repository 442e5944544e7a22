//! End to end: `codecbench http` against its own loopback server. Counts and sizes only,
//! never speeds.

use crate::common;

use common::{bad_input, codecbench, succeed};

#[test]
fn each_encoding_gets_a_row_of_verified_requests() {
    let output = succeed(codecbench().args([
        "http",
        "--payload",
        "small",
        "--encodings",
        "zstd:1,br:1,gzip:1,identity,auto",
        "--requests",
        "20",
        "--concurrency",
        "2",
    ]));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with("small: 298,727 bytes over HTTP/1.1"),
        "{stdout}"
    );
    for (encoding, body) in [
        ("zstd:1", "41,132"),
        ("gzip:1", ""),
        ("br:1", ""),
        ("identity", "298,727"),
        // A browser's Accept-Encoding gets zstd at level 1: the same bytes as zstd:1.
        ("auto", "41,132"),
    ] {
        let row = stdout
            .lines()
            .find(|l| l.contains(&format!("│ {encoding} ")))
            .unwrap_or_else(|| panic!("no row for {encoding}: {stdout}"));
        assert!(row.contains("┆   20 ┆"), "20 requests: {row}");
        assert!(row.contains(body), "{row}");
    }
}

#[test]
fn bad_encodings_and_loads_are_refused() {
    let message = bad_input(&["http", "--encodings", "lz4:1"]);
    assert!(message.contains("unknown coding 'lz4'"), "{message}");
    let message = bad_input(&["http", "--encodings", "br:12"]);
    assert!(message.contains("br levels here are 0..=11"), "{message}");
    let message = bad_input(&["http", "--duration", "0"]);
    assert!(message.contains("--duration 0"), "{message}");
    let message = bad_input(&["http", "--bandwidth", "-10"]);
    assert!(message.contains("--bandwidth -10"), "{message}");
    let message = bad_input(&["http", "--requests", "0"]);
    assert!(message.contains("'0' for '--requests <N>'"), "{message}");
}

/// `http --json` and `--csv` write files that `compare` and `merge` read; the other
/// analysis commands refuse them with one line.
#[test]
fn saved_http_results_compare_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("h.json");
    let csv = dir.path().join("h.csv");
    let output = succeed(codecbench().args([
        "http",
        "--payload",
        "single",
        "--encodings",
        "zstd:1,gzip:1,identity",
        "--requests",
        "12",
        "--format",
        "csv",
        "--json",
        json.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]));
    // stdout and the file hold the same rows.
    let rows = common::csv_rows(&output.stdout);
    common::assert_no_float_noise(&output.stdout);
    assert_eq!(rows, common::csv_rows(&std::fs::read(&csv).unwrap()));
    let encodings: Vec<&str> = rows.iter().map(|r| r["http_encoding"].as_str()).collect();
    assert_eq!(encodings, ["zstd:1", "gzip:1", "identity"]);
    for row in &rows {
        assert_eq!(row["http_requests"], "12");
        assert_eq!(row["payload"], "single");
    }
    assert_eq!(rows[2]["http_body_bytes"], rows[2]["input_bytes"]);

    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(document["kind"], "http");
    let zstd = &document["payloads"][0]["encodings"][0];
    assert_eq!(zstd["latencies_ms"].as_array().unwrap().len(), 12);

    let compare = |candidate: &std::path::Path| {
        codecbench()
            .args([
                "compare",
                json.to_str().unwrap(),
                candidate.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    for candidate in [&json, &csv] {
        let output = compare(candidate);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        assert!(
            stdout.contains("3 HTTP encodings compared: 0 regressed, ")
                && stdout.contains(" inconclusive, 0 size drifts"),
            "{stdout}"
        );
    }

    // A body that changed size is a drift, named, and fails the comparison.
    let mut edited = document.clone();
    let body = &mut edited["payloads"][0]["encodings"][1]["body_bytes"];
    *body = serde_json::json!(body.as_f64().unwrap() + 7.0);
    let edited_path = dir.path().join("edited.json");
    std::fs::write(&edited_path, serde_json::to_vec(&edited).unwrap()).unwrap();
    let output = compare(&edited_path);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("size drift (FAILS): single gzip:1 over HTTP (1 connection, unshaped)"),
        "{stdout}"
    );

    let merged_csv = succeed(
        codecbench()
            .args(["merge", "--format", "csv"])
            .args([&json, &csv]),
    );
    common::assert_no_float_noise(&merged_csv.stdout);
    assert_eq!(common::csv_rows(&merged_csv.stdout).len(), 6);
    let output =
        succeed(codecbench().args(["merge", json.to_str().unwrap(), csv.to_str().unwrap()]));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("p50 ms / requests per second"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("│ payload ")
            && l.contains(" h.json ┆ ")
            && l.ends_with(" h.csv │")),
        "a column per run: {stdout}"
    );
    // Three encodings, in the raw table and the normalised one.
    assert_eq!(
        stdout.matches("1 connection, unshaped").count(),
        6,
        "{stdout}"
    );

    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/base.json");
    let message = bad_input(&["merge", "--format", "csv", json.to_str().unwrap(), fixture]);
    assert!(message.contains("takes runs of one kind"), "{message}");
    let message = bad_input(&["compare", fixture, json.to_str().unwrap()]);
    assert!(
        message.contains("base.json holds `run` results and h.json holds `http` results"),
        "{message}"
    );
    let message = bad_input(&["recommend", "--from", json.to_str().unwrap()]);
    assert!(message.contains("holds HTTP results"), "{message}");
}

#[test]
fn an_unwritable_output_fails_before_any_request() {
    let message = bad_input(&["http", "--json", "/no/such/dir/h.json"]);
    assert!(
        message.contains("cannot write /no/such/dir/h.json"),
        "{message}"
    );
}

/// `http ARGS` with 5 requests per encoding: the JSON of its one payload.
fn one_payload(args: &[&str]) -> serde_json::Value {
    let output = succeed(
        codecbench()
            .args(["http", "--requests", "5", "--quiet", "--format", "json"])
            .args(args),
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["payloads"][0].clone()
}

#[test]
fn dcz_and_dcb_against_the_previous_version_send_far_fewer_bytes_than_zstd() {
    let payload = one_payload(&[
        "--payload",
        "small",
        "--encodings",
        "zstd:1,zstd:3,dcz:3,dcb:5",
        "--dictionary",
        "previous",
        "--change",
        "5",
    ]);
    let encodings = payload["encodings"].as_array().unwrap();
    let body = |label: &str| {
        let result = encodings.iter().find(|e| e["encoding"] == label).unwrap();
        assert_eq!(result["errors"], 0, "{result}");
        assert_eq!(result["requests"], 5, "{result}");
        result["body_bytes"].as_f64().unwrap()
    };
    // Every dcz body was decoded against the dictionary and checked byte for byte; with
    // 5% of the records updated it is a small fraction of plain zstd's.
    let (zstd, dcz, dcb) = (body("zstd:1"), body("dcz:3"), body("dcb:5"));
    assert!(
        body("zstd:3") > zstd,
        "zstd 3 is the larger of the two here"
    );
    assert!(dcz * 10.0 < zstd, "dcz {dcz} B against zstd {zstd} B");
    assert!(dcb * 10.0 < zstd, "dcb {dcb} B against zstd {zstd} B");
}

#[test]
fn a_dictionary_adds_dcz_and_dcb_to_the_default_encodings() {
    for change in ["5", "5%"] {
        let payload = one_payload(&[
            "--payload",
            "single",
            "--dictionary",
            "previous",
            "--change",
            change,
        ]);
        let labels: Vec<&str> = payload["encodings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["encoding"].as_str().unwrap())
            .collect();
        assert_eq!(
            labels,
            ["zstd:1", "zstd:3", "br:1", "br:4", "gzip:1", "identity", "dcz:3", "dcb:5"],
            "--change {change}"
        );
    }
    // A list given is measured as given.
    let payload = one_payload(&[
        "--payload",
        "single",
        "--dictionary",
        "previous",
        "--encodings",
        "dcz:1",
    ]);
    assert_eq!(payload["encodings"].as_array().unwrap().len(), 1);
}

#[test]
fn dictionaries_are_checked_before_any_request() {
    for change in ["five%", "150", "-1%", "%"] {
        let message = bad_input(&["http", "--dictionary", "previous", "--change", change]);
        assert!(message.contains("percentage from 0 to 100"), "{message}");
    }
    let message = bad_input(&["http", "--encodings", "dcz:3", "--requests", "1"]);
    assert!(message.contains("add --dictionary previous"), "{message}");
    let message = bad_input(&["http", "--dictionary", "shared", "--requests", "1"]);
    assert!(
        message.contains("modes are previous and trained:KIB"),
        "{message}"
    );
    let message = bad_input(&["http", "--dictionary", "trained:0", "--requests", "1"]);
    assert!(message.contains("1 to 1024 KiB"), "{message}");
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not JSON records").unwrap();
    let message = bad_input(&[
        "http",
        "--payload",
        text.to_str().unwrap(),
        "--encodings",
        "dcz:3",
        "--dictionary",
        "previous",
        "--requests",
        "1",
    ]);
    assert!(message.contains("JSON array of records"), "{message}");
}

#[test]
fn a_trained_dictionary_shrinks_one_record() {
    let payload = one_payload(&[
        "--payload",
        "single",
        "--encodings",
        "zstd:3,dcz:3",
        "--dictionary",
        "trained:4",
    ]);
    let encodings = payload["encodings"].as_array().unwrap();
    assert_eq!(payload["input_bytes"], 290, "the payload as it is");
    let body = |i: usize| encodings[i]["body_bytes"].as_f64().unwrap();
    assert_eq!(encodings[1]["errors"], 0);
    // 241 bytes of plain zstd 3; against records the dictionary learned from, under half
    // of that even with the 40-byte dcz header.
    assert_eq!(body(0), 241.0);
    assert!(body(1) * 2.0 < body(0), "{} against {}", body(1), body(0));
}

#[test]
fn run_server_tower_http_predicts_the_bodies_the_loopback_server_sends() {
    let payload = one_payload(&["--payload", "single", "--encodings", "zstd:3,br:4,gzip:6"]);
    let output = succeed(codecbench().args([
        "run",
        "--server",
        "tower-http",
        "--payload",
        "single",
        "--zstd-levels",
        "3",
        "--brotli-levels",
        "4",
        "--gzip-levels",
        "6",
        "--iterations",
        "2",
        "--quiet",
        "--format",
        "csv",
    ]));
    let rows = common::csv_rows(&output.stdout);
    for (row, encoding) in rows.iter().zip(payload["encodings"].as_array().unwrap()) {
        assert_eq!(row["variant"], "tower-http");
        assert_eq!(
            row["compressed_bytes"].parse::<f64>().unwrap(),
            encoding["body_bytes"].as_f64().unwrap(),
            "{} against {}",
            row["codec"],
            encoding["encoding"]
        );
    }
    assert_eq!(rows.len(), 3);
}
