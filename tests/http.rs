//! End to end: `codecbench http` against its own loopback server. Counts and sizes only,
//! never speeds.

mod common;

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
        assert!(row.contains("┆       20 ┆"), "20 requests: {row}");
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
