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
    assert_eq!(slow.best.as_ref().unwrap().name(), "zstd 1 (libzstd)");
    assert!((slow.best_s - (0.00087 + transfer_s(41_132, 10.0))).abs() < 1e-12);
    assert_eq!(
        advice.bandwidths[1].best.as_ref().unwrap().name(),
        "zstd 1 (libzstd)"
    );
}

/// One 290-byte record: compression saves 49 bytes at best and costs tens of
/// microseconds, so on a fast link sending it as it is wins.
fn one_record() -> LoadedRun {
    use crate::results::Timing;
    let cell = |codec: &str, level: i32, library: &str, bytes: u64, compress_us: f64| {
        let mut key = CellKey::new("single", codec, level);
        key.id.library = library.parse().unwrap();
        RunCell::for_test(
            key,
            290,
            bytes,
            Timing::of(compress_us / 1e6, vec![]),
            Timing::of(9e-6, vec![]),
        )
    };
    LoadedRun {
        label: "single.json".into(),
        machine: None,
        measured_on: None,
        results: crate::results::Results::Codec(vec![
            cell("zstd", 1, "libzstd", 241, 11.5),
            cell("brotli", 1, "libbrotli", 243, 5.0),
            cell("brotli", 11, "libbrotli", 182, 1370.0),
            cell("brotli", 11, "brotli-rs", 181, 1120.0),
            cell("gzip", 1, "zlib-rs", 298, 7.5),
        ]),
    }
}

#[test]
fn identity_wins_where_compressing_costs_more_than_it_saves() {
    let options = AdviceOptions {
        bandwidths_mbit: vec![1.0, 100.0, 1000.0],
        ..options()
    };
    let advice = &advise(&one_record(), &options)[0];
    // At 1 Mbit/s zstd 1 saves 49 bytes (392 µs on the wire) for 20.5 µs of work.
    let slow = &advice.bandwidths[0];
    assert_eq!(slow.best.as_ref().unwrap().name(), "zstd 1 (libzstd)");
    // At 100 Mbit/s and above, 290 bytes take 23 µs or less: nothing beats sending them.
    for row in &advice.bandwidths[1..] {
        assert_eq!(row.best, None, "{} Mbit/s", row.mbit);
        assert_eq!(row.best_s, row.identity_s);
    }
}

#[test]
fn picks_come_from_the_libraries_servers_run_unless_asked() {
    let advice = &advise(&one_record(), &options())[0];
    let names: Vec<String> = advice
        .scenarios
        .iter()
        .filter_map(|s| s.choice.as_ref().map(Setting::name))
        .collect();
    assert!(names.iter().all(|n| !n.contains("brotli-rs")), "{names:?}");
    assert_eq!(names[2], "brotli 11 (libbrotli)");
    // Shown all the same: the port is on the frontier, where it belongs.
    assert!(advice
        .compress_frontier
        .iter()
        .any(|s| s.name() == "brotli 11 (brotli-rs)"));
    let asked = AdviceOptions {
        pick_rust_brotli: true,
        ..options()
    };
    let advice = &advise(&one_record(), &asked)[0];
    let static_pick = advice.scenarios[2].choice.as_ref().unwrap();
    assert_eq!(static_pick.name(), "brotli 11 (brotli-rs)");
}

#[test]
fn each_scenario_names_a_fallback_per_encoding_in_negotiation_order() {
    let advice = &advise(&run(), &options())[0];
    let dynamic = &advice.scenarios[0];
    let codecs: Vec<CodecKind> = dynamic.per_encoding.iter().map(|e| e.codec).collect();
    assert_eq!(codecs, CodecKind::ALL);
    let names: Vec<Option<String>> = dynamic
        .per_encoding
        .iter()
        .map(|e| e.choice.as_ref().map(Setting::name))
        .collect();
    // Within 5 ms: zstd 1 (zstd 19 takes 370 ms), brotli 1, gzip 1.
    assert_eq!(
        names,
        [
            Some("zstd 1 (libzstd)".to_string()),
            Some("brotli 1 (libbrotli)".to_string()),
            Some("gzip 1 (zlib-rs)".to_string()),
        ]
    );
    // Whatever the time, brotli's best is 11; zstd's is 19.
    let static_pick = &advice.scenarios[2].per_encoding;
    assert_eq!(
        static_pick[0].choice.as_ref().unwrap().name(),
        "zstd 19 (libzstd)"
    );
    assert_eq!(
        static_pick[1].choice.as_ref().unwrap().name(),
        "brotli 11 (libbrotli)"
    );
}

#[test]
fn capacity_counts_cores_and_bytes_saved() {
    let advice = &advise(&run(), &options())[0];
    let zstd_1 = advice.scenarios[0].choice.as_ref().unwrap();
    // 0.7 ms per response: 0.7 cores for 1,000 responses a second.
    assert!((zstd_1.cores_per_1000_per_s() - 0.7).abs() < 1e-12);
    // (298,727 − 41,132) bytes × 10^6 = 257.6 GB per million responses.
    assert_eq!(zstd_1.bytes_saved_per_million(298_727), 257_595e6);
}

#[test]
fn a_pool_saves_the_set_up_share_of_each_reused_setting() {
    use crate::results::Timing;
    let mut cells = match one_record().results {
        crate::results::Results::Codec(cells) => cells,
        _ => unreachable!("a codec run"),
    };
    let mut reused = cells[0].clone(); // zstd 1, 11.5 µs fresh
    reused.key.id.variant = Variant::Reused;
    reused.compress = Some(Timing::of(3.2e-6, vec![]));
    cells.push(reused);
    let run = LoadedRun {
        label: "pool.json".into(),
        machine: None,
        measured_on: None,
        results: crate::results::Results::Codec(cells),
    };
    let advice = &advise(&run, &options())[0];
    assert_eq!(advice.pooling.len(), 1);
    let saving = &advice.pooling[0];
    assert_eq!(saving.fresh.name(), "zstd 1 (libzstd)");
    assert!((saving.share_saved() - (1.0 - 3.2 / 11.5)).abs() < 1e-12);
    // Without reused cells, nothing to say.
    assert!(advise(&one_record(), &options())[0].pooling.is_empty());
}
