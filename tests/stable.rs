//! End to end: `recommend`'s answer rests on intervals, not on where a median fell, and on
//! the traffic, not on the smaller bodies cut to place the minimum. The fixture is a
//! `recommend --payload real-json --quick` run on this machine, its samples dropped where
//! the file keeps the median's 95% interval (what the answer reads).

use crate::common::{codecbench, succeed};
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real-json-quick.json"
);

/// `recommend --from` the run, as JSON, and its nginx and Caddy configuration.
fn answer_of(run: &Value) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    std::fs::write(&path, serde_json::to_vec(run).unwrap()).unwrap();
    let report = succeed(
        codecbench()
            .args(["recommend", "--format", "json", "--from"])
            .arg(&path),
    );
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    let emitted = succeed(
        codecbench()
            .args(["recommend", "--emit", "nginx,caddy", "--from"])
            .arg(&path),
    );
    (report, String::from_utf8(emitted.stdout).unwrap())
}

/// What each line decides: its settings in order, their minimum sizes, whether each fits
/// the budget and what it tied with; and each payload's picks.
fn decisions(report: &Value) -> Value {
    let lines: Vec<Value> = report["answers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["lines"].as_array().unwrap().iter())
        .map(|line| {
            let encodings: Vec<Value> = line["encodings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    serde_json::json!([e["id"], e["min_body"], e["within_budget"], e["tied_with"]])
                })
                .collect();
            serde_json::json!([line["scenario"], encodings, line["over_budget"]])
        })
        .collect();
    let picks: Vec<Value> = report["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["scenarios"].as_array().unwrap().iter())
        .map(|s| s["choice"]["key"].clone())
        .collect();
    serde_json::json!([lines, picks])
}

/// Every cell summary of `run` that has an interval to move its median in.
fn summaries(run: &mut Value) -> Vec<&mut Value> {
    let mut found = Vec::new();
    for payload in run["payloads"].as_array_mut().unwrap() {
        for cell in payload["cells"].as_array_mut().unwrap() {
            let cell = cell.as_object_mut().unwrap();
            for (direction, summary) in cell.iter_mut() {
                if direction == "compress" || direction == "decompress" {
                    found.push(summary);
                }
            }
        }
    }
    found
}

#[test]
fn medians_moved_anywhere_inside_their_intervals_never_change_the_answer() {
    let run: Value = serde_json::from_slice(&std::fs::read(FIXTURE).unwrap()).unwrap();
    let (report, emitted) = answer_of(&run);
    let expected = decisions(&report);
    // A fixed linear congruential stream: the draws are the same on every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for draw in 0..12 {
        let mut moved = run.clone();
        let mut count = 0;
        for summary in summaries(&mut moved) {
            let (low, high) = match (
                summary["median_ci95_low_s"].as_f64(),
                summary["median_ci95_high_s"].as_f64(),
            ) {
                (Some(low), Some(high)) => (low, high),
                _ => (
                    summary["min_s"].as_f64().unwrap(),
                    summary["max_s"].as_f64().unwrap(),
                ),
            };
            // The ends as often as the inside: they are where a rule on medians breaks.
            let at = match draw % 3 {
                0 => low,
                1 => high,
                _ => low + uniform() * (high - low),
            };
            summary["median_s"] = at.into();
            count += 1;
        }
        assert!(count > 900, "{count} summaries");
        let (report, moved_emitted) = answer_of(&moved);
        assert_eq!(decisions(&report), expected, "draw {draw}");
        assert_eq!(moved_emitted, emitted, "draw {draw}");
    }
}

#[test]
fn the_cut_bodies_narrow_the_minimum_but_never_change_the_settings() {
    let run: Value = serde_json::from_slice(&std::fs::read(FIXTURE).unwrap()).unwrap();
    let mut traffic = run.clone();
    let payloads = traffic["payloads"].as_array_mut().unwrap();
    let before = payloads.len();
    payloads.retain(|p| p["cut_from"].is_null());
    assert!(payloads.len() < before, "the fixture has cut bodies");
    let settings = |report: &Value| -> Vec<Value> {
        let lines = report["answers"][0]["lines"].as_array().unwrap();
        lines
            .iter()
            .map(|l| {
                let ids: Vec<Value> = l["encodings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["id"].clone())
                    .collect();
                Value::from(ids)
            })
            .collect()
    };
    let (with_cuts, _) = answer_of(&run);
    let (without, _) = answer_of(&traffic);
    assert_eq!(settings(&with_cuts), settings(&without));
    assert!(with_cuts["answers"][0]["placed_by"].is_object());
    assert!(without["answers"][0]["placed_by"].is_null());
}

/// The budgets of `recommend --latency-budget-ms 4`, in seconds: dynamic, cached.
const BUDGETS: [f64; 2] = [0.004, 1.0];

#[test]
fn a_time_at_a_budget_from_few_samples_is_measured_again_before_the_answer() {
    // One sample each: 40 settings of zstd, brotli and gzip on 298 KB take from 0.5 ms
    // to half a second, a few percent apart between 2 and 10 ms, so some fall within
    // ±25% of the 4 ms budget, where one sample would decide whether they fit.
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("run.json");
    let done = succeed(
        codecbench()
            .args(["recommend", "--payload", "small", "--brotli-impl", "c"])
            .args(["--zstd-levels", "1..19", "--brotli-levels", "0..11"])
            .args(["--gzip-levels", "1..9", "--iterations", "1"])
            .args(["--latency-budget-ms", "4", "--export-json"])
            .arg(&saved),
    );
    let stderr = String::from_utf8(done.stderr).unwrap();
    assert!(
        stderr.contains(
            "again on small (11 more samples each way): their compression time is at a budget"
        ),
        "{stderr}"
    );
    let run: Value = serde_json::from_slice(&std::fs::read(&saved).unwrap()).unwrap();
    let payload = &run["payloads"][0];
    assert_eq!(payload["payload"], "small");
    let mut settled = 0;
    for cell in payload["cells"].as_array().unwrap() {
        let compress = &cell["compress"];
        let samples = compress["samples_s"].as_array().unwrap().len();
        let (low, high) = (
            compress["min_s"].as_f64().unwrap() * 0.75,
            compress["max_s"].as_f64().unwrap() * 1.25,
        );
        let at_a_budget = BUDGETS.iter().any(|&b| low <= b && b < high);
        match samples {
            12 => settled += 1,
            1 => assert!(!at_a_budget, "{cell}: one sample at a budget"),
            other => panic!("{other} samples: {cell}"),
        }
    }
    assert!(settled > 0);
}
