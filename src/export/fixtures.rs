//! Fixed, hand-made reports for the reporters' snapshot tests: a run and an A/B run.

use crate::results::ab::{AbCell, AbReport};
use crate::results::environment::{Environment, Pin};
use crate::results::paired_times::{PairFastest, PairedTimes};
use crate::results::run::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};
use crate::stats::Summary;

fn cell(
    codec: &str,
    level: i32,
    dotnet: Option<&str>,
    bytes: u64,
    c: &[f64],
    d: &[f64],
) -> CellResult {
    let codec = codec.parse().expect("a codec name");
    CellResult {
        id: crate::vocab::CellId::reference(codec, level),
        version: "1.0".into(),
        dotnet_level: dotnet.map(Into::into),
        compressed_bytes: bytes,
        encoder_bytes: Some(bytes * 10),
        // The thread ran throughout: CPU time a hair under the wall time.
        compress: Summary::from_seconds(c.to_vec()).map(|s| s.with_cpu(ran(c))),
        decompress: Summary::from_seconds(d.to_vec()).map(|s| s.with_cpu(ran(d))),
        compress_instructions: None,
        decompress_instructions: None,
        precision_met: None,
        status: crate::results::run::Status::Ok,
        failure: None,
    }
}

/// CPU times of a thread that ran throughout: 0.5% under the wall times.
fn ran(wall: &[f64]) -> Vec<f64> {
    wall.iter().map(|s| s * 0.995).collect()
}

/// Two zstd cells, one brotli, one failed gzip cell.
pub(crate) fn report() -> RunReport {
    let mut failed = cell("gzip", 1, Some("Fastest"), 69_832, &[], &[]);
    failed
        .fail("round trip mismatch: decompressed 5 bytes differ from the 298727-byte input".into());
    RunReport {
        schema_version: SCHEMA_VERSION,
        environment: Environment {
            codecbench_version: "0.0.0-test".into(),
            git_commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            git_dirty: Some(true),
            timestamp: "2026-11-30T10:00:00Z".into(),
            cpu: Some("Test CPU @ 1 GHz".into()),
            logical_cores: 2,
            os: "linux".into(),
            arch: "x86_64".into(),
            rustc: Some("rustc 1.95.0".into()),
            pin: Some(Pin {
                cpu: 1,
                pinned: true,
            }),
            calibration: None,
            codecs: [
                ("zstd-lib", "zstd-lib 1.0"),
                ("brotli-lib", "brotli-lib 1.0"),
                ("gzip-lib", "gzip-lib 1.0"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        },
        seed: 42,
        rng: "dotnet".into(),
        instructions: None,
        payloads: vec![PayloadResult {
            payload: "small".into(),
            input_bytes: 298_727,
            sha256: Some("9729ade45b4123a360f345e1d0ba07aac996416fc75817c524070de5d648d578".into()),
            warmup: 3,
            iterations: Some(3),
            min_time_s: None,
            rounds: 3,
            processes: 1,
            precision: None,
            interrupted: false,
            content_type: None,
            cut_from: None,
            cells: vec![
                cell(
                    "zstd",
                    1,
                    Some("Fastest"),
                    41_132,
                    &[0.0005, 0.0004, 0.0006],
                    &[0.0001, 0.0002, 0.00015],
                ),
                cell(
                    "zstd",
                    3,
                    Some("Optimal"),
                    43_644,
                    &[0.001, 0.0009, 0.0011],
                    &[0.0002, 0.0002, 0.0002],
                ),
                cell(
                    "brotli",
                    11,
                    Some("SmallestSize"),
                    34_020,
                    &[0.27, 0.28, 0.26],
                    &[0.0006, 0.0007, 0.0008],
                ),
                failed,
            ],
        }],
    }
}

/// One A/B cell of `ratios` both ways, its verdicts at a 2% threshold: compression
/// on the wall clock alone; decompression also on a CPU clock half as spread about the
/// same centre, with the first pair's candidate batch waiting half as long again.
fn ab_cell(codec: &str, level: i32, ratios: &[f64], bytes: (u64, u64)) -> AbCell {
    let compress = PairedTimes::of(ratios.to_vec());
    let centre = crate::stats::median(&mut ratios.to_vec());
    let pairs: Vec<PairFastest> = (ratios.iter().enumerate())
        .map(|(i, &ratio)| {
            let waited = if i == 0 { 1.5 } else { 1.0 };
            let cpu = centre + (ratio - centre) / 2.0;
            PairFastest {
                candidate: (0.001 * ratio * waited, Some(0.001 * cpu)),
                baseline: (0.001, Some(0.001)),
            }
        })
        .collect();
    let decompress = PairedTimes::of_pairs(&pairs);
    let verdicts = [&compress, &decompress].map(|t| t.steady_verdict(0.02, 1));
    let sight = [&compress, &decompress].map(|t| t.could_see(0.02));
    AbCell {
        payload: "small <b>".into(),
        input_bytes: 298_727,
        id: crate::vocab::CellId::reference(codec.parse().expect("a codec name"), level),
        candidate_bytes: bytes.0,
        baseline_bytes: bytes.1,
        compress,
        decompress,
        verdicts,
        sight,
        failure: None,
    }
}

/// Twelve ratios around `centre`, within ±0.6%.
fn steady(centre: f64) -> Vec<f64> {
    (0..12)
        .map(|i| centre * (1.0 + (i % 4) as f64 * 0.004 - 0.006))
        .collect()
}

/// An A/B run of three cells: zstd 3 slowed 5%, zstd 1 with a size drift, gzip 6 the
/// same; its payload's name holds markup, which every reporter must escape.
pub(crate) fn ab_report() -> AbReport {
    AbReport {
        environment: report().environment,
        baseline: "../base/target/release/codecbench".into(),
        baseline_protocol: 2,
        baseline_build: Some(Environment {
            codecbench_version: "0.0.9".into(),
            git_commit: Some("b4se11ne0000".into()),
            git_dirty: Some(false),
            rustc: Some("rustc 1.94.0".into()),
            ..report().environment
        }),
        threshold: 0.02,
        sight_target: 0.03,
        calibration: Some("zstd:3=1.05".into()),
        seconds: 181.0,
        interrupted: false,
        out_of_time: false,
        cells: vec![
            ab_cell("zstd", 3, &steady(1.05), (41_132, 41_132)),
            ab_cell("zstd", 1, &steady(1.0), (44_000, 44_001)),
            ab_cell("gzip", 6, &steady(1.0), (47_113, 47_113)),
        ],
    }
}

/// An A/B run of one cell with three pairs: too few for any interval.
pub(crate) fn ab_report_without_intervals() -> AbReport {
    AbReport {
        cells: vec![ab_cell("gzip", 6, &[1.0, 1.01, 0.99], (47_113, 47_113))],
        ..ab_report()
    }
}
