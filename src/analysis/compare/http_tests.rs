//! Unit tests of comparing `http` runs.

use super::tests::{options, tight, zstd1};
use super::*;
use crate::results::http::{EncodingResult, HttpPayloadResult, LoadSettings};
use crate::results::{LoadedRun, Results};

/// An `http` run on the small payload: each encoding with its body size and p50
/// latency in seconds, with 21 samples about ±1% around it.
fn http_run(label: &str, encodings: &[(&str, u64, f64)]) -> LoadedRun {
    let result = |&(encoding, body_bytes, p50_s): &(&str, u64, f64)| EncodingResult {
        encoding: encoding.into(),
        requests: 21,
        requests_per_s: 1.0 / p50_s,
        p50_ms: p50_s * 1e3,
        p90_ms: p50_s * 1e3,
        p99_ms: p50_s * 1e3,
        wire_bytes: body_bytes as f64 + 300.0,
        body_bytes: body_bytes as f64,
        server_cpu_ms: None,
        latencies_ms: tight(p50_s * 1e3),
        errors: 0,
        first_error: None,
    };
    LoadedRun {
        label: label.into(),
        environment: None,
        results: Results::Http {
            load: LoadSettings {
                concurrency: 1,
                requests: None,
                duration_s: None,
                bandwidth_mbit: Some(10.0),
            },
            payloads: vec![HttpPayloadResult {
                payload: "small".into(),
                input_bytes: 298_727,
                sha256: None,
                interrupted: false,
                encodings: encodings.iter().map(result).collect(),
            }],
        },
    }
}

const HTTP_BASE: [(&str, u64, f64); 6] = [
    ("zstd:1", 41_132, 0.033),
    ("zstd:3", 43_644, 0.035),
    ("br:1", 44_606, 0.036),
    ("br:4", 40_000, 0.034),
    ("gzip:1", 69_839, 0.056),
    ("identity", 298_727, 0.239),
];

#[test]
fn http_latency_is_judged_like_a_speed() {
    let base = http_run("a", &HTTP_BASE);
    // A uniformly slower machine: no change once normalised to zstd:1.
    let slower: Vec<_> = HTTP_BASE.iter().map(|&(e, b, t)| (e, b, t * 1.5)).collect();
    let result = compare(&base, &http_run("b", &slower), &options(zstd1())).unwrap();
    assert_eq!(result.rows.len(), 6);
    assert!(!result.failed(), "{result:#?}");
    // ... but a regression in absolute mode.
    let absolute = compare(
        &base,
        &http_run("b", &slower),
        &options(SpeedBasis::Absolute),
    )
    .unwrap();
    assert!(absolute.failed());
    assert!(
        (absolute.rows[0]
            .speed(Direction::HttpLatency)
            .unwrap()
            .change
            - (1.0 / 1.5 - 1.0))
            .abs()
            < 1e-9
    );
    // One encoding twice as slow among steady ones regresses when normalised.
    let mut one_slow = HTTP_BASE.to_vec();
    one_slow[4].2 *= 2.0;
    let result = compare(&base, &http_run("b", &one_slow), &options(zstd1())).unwrap();
    let regressed: Vec<_> = result.regressions().map(|r| r.key.to_string()).collect();
    assert_eq!(
        regressed,
        ["small gzip:1 over HTTP (1 connection, 10 Mbit/s)"]
    );
    assert!(result
        .drifts
        .iter()
        .any(|d| d.direction == Direction::HttpLatency));
}

#[test]
fn http_body_drift_missing_encodings_and_the_brotli_reference() {
    let base = http_run("a", &HTTP_BASE);
    let mut drifted = HTTP_BASE[..5].to_vec();
    drifted[2].1 += 7;
    let result = compare(&base, &http_run("b", &drifted), &options(zstd1())).unwrap();
    assert!(result.failed());
    assert_eq!(result.size_drifts().count(), 1);
    assert!(result.missing[0].to_string().contains("identity"));
    // `brotli:1` and `br:1` name the same reference encoding.
    let (codec, level) = parse_reference("brotli:1").unwrap();
    let basis = SpeedBasis::Normalized { codec, level };
    let result = compare(&base, &base, &options(basis)).unwrap();
    assert_eq!(
        result.rows[2]
            .speed(Direction::HttpLatency)
            .unwrap()
            .candidate,
        1.0
    );
    // No such encoding to normalise to.
    let err = compare(&base, &base, &options(parse_basis("gzip:9")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("gzip:9"), "{err}");
}

fn parse_basis(text: &str) -> SpeedBasis {
    let (codec, level) = parse_reference(text).unwrap();
    SpeedBasis::Normalized { codec, level }
}
