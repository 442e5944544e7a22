//! End to end: `--api stream,oneshot,flush:SIZE`, the three ways a server hands the body
//! to the encoder. Sizes only, never speeds.

use crate::common;

use common::{bad_input, codecbench, csv_rows, succeed};

/// Compressed bytes per (codec, level, variant) of a CSV run.
fn sizes(args: &[&str]) -> Vec<(String, String, String, u64)> {
    let output = succeed(
        codecbench()
            .args([
                "run",
                "--iterations",
                "1",
                "--warmup",
                "0",
                "--quiet",
                "--format",
                "csv",
            ])
            .args(args),
    );
    csv_rows(&output.stdout)
        .into_iter()
        .map(|row| {
            (
                row["codec"].clone(),
                row["level"].clone(),
                row["variant"].clone(),
                row["compressed_bytes"].parse().unwrap(),
            )
        })
        .collect()
}

fn size_of(rows: &[(String, String, String, u64)], codec: &str, level: &str, variant: &str) -> u64 {
    rows.iter()
        .find(|r| r.0 == codec && r.1 == level && r.2 == variant)
        .unwrap_or_else(|| panic!("no {codec} {level} {variant} in {rows:?}"))
        .3
}

#[test]
fn one_shot_sizes_are_libzstds_with_the_size_known() {
    let rows = sizes(&[
        "--payload",
        "small",
        "--api",
        "stream,oneshot",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1,3",
    ]);
    assert_eq!(size_of(&rows, "zstd", "1", "fresh"), 41_132);
    assert_eq!(size_of(&rows, "zstd", "1", "one-shot"), 41_135);
    assert_eq!(size_of(&rows, "zstd", "3", "one-shot"), 43_647);
    let large = sizes(&[
        "--payload",
        "large",
        "--api",
        "oneshot",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "3",
    ]);
    assert_eq!(large.len(), 1, "no stream rows without stream in --api");
    assert_eq!(size_of(&large, "zstd", "3", "one-shot"), 453_130);
}

#[test]
fn flushing_every_16_kib_costs_ratio() {
    let rows = sizes(
        &[
            &["--payload", "small", "--api", "stream,flush:16KiB"][..],
            &crate::common::EACH_CODEC_AT_1,
            &["--brotli-impl", "c"],
        ]
        .concat(),
    );
    for (codec, level) in [("zstd", "1"), ("brotli", "1"), ("gzip", "1")] {
        let stream = size_of(&rows, codec, level, "fresh");
        let flushed = size_of(&rows, codec, level, "flush 16 KiB");
        assert!(
            flushed > stream,
            "{codec}: {flushed} flushed, {stream} streamed"
        );
    }
}

#[test]
fn bad_apis_are_refused() {
    let message = bad_input(&["run", "--api", "batch"]);
    assert!(
        message.contains("stream, oneshot and flush:SIZE"),
        "{message}"
    );
    let message = bad_input(&["run", "--api", "flush:1"]);
    assert!(message.contains("64 bytes to 64 MiB"), "{message}");
    let message = bad_input(&["run", "--api", "oneshot", "--encoder", "reused"]);
    assert!(message.contains("add stream to --api"), "{message}");
}
