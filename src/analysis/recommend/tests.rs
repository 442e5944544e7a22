//! The advice on a matrix with the article's shape.

use super::fixtures::{options, run};
use super::*;

fn names(settings: &[Setting]) -> Vec<String> {
    settings.iter().map(Setting::name).collect()
}

#[test]
fn zstd_3_is_dominated_by_zstd_1() {
    let advice = &advise(&run(), &options())[0];
    let pairs: Vec<(String, String)> = advice
        .dominated
        .iter()
        .map(|d| (d.dominated.name(), d.by.name()))
        .collect();
    assert_eq!(
        pairs,
        [
            (
                "zstd 3 (libzstd)".to_string(),
                "zstd 1 (libzstd)".to_string()
            ),
            ("brotli 1 (libbrotli)".into(), "zstd 1 (libzstd)".into()),
            ("gzip 1 (zlib-rs)".into(), "zstd 1 (libzstd)".into()),
        ]
    );
    assert_eq!(
        names(&advice.compress_frontier),
        [
            "zstd 1 (libzstd)",
            "zstd 19 (libzstd)",
            "brotli 11 (libbrotli)"
        ]
    );
    // On decompression, zstd 19 is both smaller and faster than zstd 1.
    assert_eq!(
        names(&advice.decompress_frontier),
        ["zstd 19 (libzstd)", "brotli 11 (libbrotli)"]
    );
}

#[test]
fn scenarios_pick_the_best_ratio_within_each_budget() {
    let advice = &advise(&run(), &options())[0];
    let picks: Vec<Option<String>> = advice
        .scenarios
        .iter()
        .map(|s| s.choice.as_ref().map(Setting::name))
        .collect();
    assert_eq!(
        picks,
        [
            Some("zstd 1 (libzstd)".into()),
            Some("brotli 11 (libbrotli)".into()),
            Some("brotli 11 (libbrotli)".into()),
        ]
    );
    assert!(advice.scenarios[0].reason.contains("at most 5.00 ms"));
    let tight = AdviceOptions {
        latency_budget_s: 0.0001,
        ..options()
    };
    let advice = &advise(&run(), &tight)[0];
    assert_eq!(advice.scenarios[0].choice, None);
    assert!(advice.scenarios[0].reason.starts_with("nothing compresses"));
}

#[test]
fn end_to_end_adds_compression_transfer_and_decompression() {
    let advice = &advise(&run(), &options())[0];
    let slow = &advice.bandwidths[0];
    // At 10 Mbit/s, 298,727 bytes take 239 ms uncompressed.
    assert!((slow.identity_s - 0.2389816).abs() < 1e-6);
    // zstd 1: 0.7 + 32.9 + 0.17 ms beats brotli 11's 800 ms of compression.
    assert_eq!(slow.best.name(), "zstd 1 (libzstd)");
    assert!((slow.best_s - (0.00087 + transfer_s(41_132, 10.0))).abs() < 1e-12);
    assert_eq!(advice.bandwidths[1].best.name(), "zstd 1 (libzstd)");
}
