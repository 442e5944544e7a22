//! Unit tests of the comparison.

use super::*;
use crate::results::{CellKey, FixtureCell, LoadedRun};
use crate::stats::Summary;
use crate::vocab::CodecKind;

pub(super) fn cell(codec: &str, level: i32, bytes: u64, samples: &[f64]) -> FixtureCell {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let timing = Summary::for_test(sorted[sorted.len() / 2], samples.to_vec());
    let key = CellKey::new("small", codec, level);
    FixtureCell::new(key, 1_000_000, bytes, timing.clone(), timing)
}

pub(super) fn run(label: &str, cells: Vec<FixtureCell>) -> LoadedRun {
    LoadedRun::of_cells(label, cells)
}

pub(super) fn options(basis: SpeedBasis) -> CompareOptions {
    CompareOptions {
        threshold: 0.10,
        basis,
        allow_size_drift: false,
        allow_missing: false,
        strict: false,
        instructions_threshold: 0.01,
    }
}

pub(super) fn zstd1() -> SpeedBasis {
    let (codec, level) = parse_reference("zstd:1").unwrap();
    SpeedBasis::Normalized { codec, level }
}

/// Samples around `median` with about ±1% spread.
pub(super) fn tight(median: f64) -> Vec<f64> {
    (0..21)
        .map(|i| median * (1.0 + (i as f64 - 10.0) * 0.001))
        .collect()
}

/// zstd 1 and gzip 1 with these median times.
fn pair(label: &str, zstd_s: f64, gzip_s: f64) -> LoadedRun {
    run(
        label,
        vec![
            cell("zstd", 1, 10, &tight(zstd_s)),
            cell("gzip", 1, 20, &tight(gzip_s)),
        ],
    )
}

#[test]
fn a_uniformly_faster_machine_shows_no_change_when_normalised() {
    let base = pair("a", 1.0, 2.0);
    let cand = pair("b", 0.5, 1.0);
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    assert!(!result.failed());
    let gzip = result.rows[1].speed(Direction::Compress).unwrap();
    assert!(gzip.change.abs() < 1e-9);
    // The same runs compared as absolute speeds: everything doubled.
    let absolute = compare(&base, &cand, &options(SpeedBasis::Absolute)).unwrap();
    assert_eq!(
        absolute.rows[1].speed(Direction::Compress).unwrap().verdict,
        Verdict::Improved
    );
}

#[test]
fn a_slower_cell_beyond_threshold_and_noise_regresses() {
    let base = pair("a", 1.0, 2.0);
    let cand = pair("b", 1.0, 2.5);
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    assert!(result.failed());
    let gzip = result.rows[1].speed(Direction::Compress).unwrap().clone();
    assert_eq!(gzip.verdict, Verdict::Regressed);
    assert!(
        (gzip.change + 0.2).abs() < 1e-9,
        "25% more time is 20% less speed"
    );
}

#[test]
fn a_change_inside_the_noise_is_not_a_regression() {
    // ±30% spread: a 20% slowdown is beyond the threshold but inside the noise.
    let noisy =
        |median: f64| -> Vec<f64> { (0..7).map(|i| median * (0.7 + 0.1 * i as f64)).collect() };
    let base = run(
        "a",
        vec![
            cell("zstd", 1, 10, &noisy(1.0)),
            cell("gzip", 1, 20, &noisy(2.0)),
        ],
    );
    let cand = run(
        "b",
        vec![
            cell("zstd", 1, 10, &noisy(1.0)),
            cell("gzip", 1, 20, &noisy(2.5)),
        ],
    );
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    assert_eq!(
        result.rows[1].speed(Direction::Compress).unwrap().verdict,
        Verdict::Inconclusive
    );
    assert!(!result.failed());
}

/// A run of `n` gzip levels plus zstd 1, every cell's time multiplied by `scale`, and
/// zstd 1's by `reference_scale` on top.
fn many(label: &str, scale: f64, reference_scale: f64) -> LoadedRun {
    let mut cells = vec![cell("zstd", 1, 10, &tight(1.0 * scale * reference_scale))];
    cells.extend((1..=8).map(|level| cell("gzip", level, 20, &tight(2.0 * scale))));
    run(label, cells)
}

#[test]
fn the_reference_cells_own_drift_is_removed_when_normalised() {
    // zstd 1 ran 35% slower in the candidate: every other cell looks 35% faster.
    let result = compare(
        &many("a", 1.0, 1.0),
        &many("b", 1.0, 1.35),
        &options(zstd1()),
    )
    .unwrap();
    assert!(!result.failed());
    let gzip = result.rows[1].speed(Direction::Compress).unwrap();
    assert!((gzip.change - 0.35).abs() < 1e-9);
    assert!(gzip.judged_change.abs() < 1e-9);
    assert_eq!(gzip.verdict, Verdict::Unchanged);
    assert!((result.drifts[0].shift - 0.35).abs() < 1e-9);
}

#[test]
fn a_uniform_slowdown_is_caught_in_absolute_mode() {
    let result = compare(
        &many("a", 1.0, 1.0),
        &many("b", 1.3, 1.0),
        &options(SpeedBasis::Absolute),
    )
    .unwrap();
    assert!(result.failed());
    assert_eq!(result.regressions().count(), 9);
}

#[test]
fn one_regressed_cell_among_steady_ones_is_caught() {
    let base = many("a", 1.0, 1.0);
    let mut cand = many("b", 1.0, 1.0);
    let slow = cand.cells_mut().nth(3).unwrap();
    for t in [&mut slow.compress, &mut slow.decompress]
        .into_iter()
        .flatten()
    {
        t.median_s *= 1.3;
        t.samples_s.iter_mut().for_each(|s| *s *= 1.3);
    }
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    let regressed: Vec<i32> = result.regressions().map(|r| level(&r.key)).collect();
    assert_eq!(
        regressed,
        [3],
        "only gzip 3, and its own slowdown does not widen its band"
    );
}

#[test]
fn scattered_changes_widen_the_band() {
    // Eight gzip cells moving between −30% and +30% time: a 25% slowdown in one of
    // them is inside that spread.
    let base = many("a", 1.0, 1.0);
    let mut cand = many("b", 1.0, 1.0);
    for (i, cell) in cand.cells_mut().skip(1).enumerate() {
        let factor = [0.7, 1.3, 0.75, 1.25, 0.8, 1.2, 0.9, 1.25][i];
        for t in [&mut cell.compress, &mut cell.decompress]
            .into_iter()
            .flatten()
        {
            t.median_s *= factor;
            t.samples_s.iter_mut().for_each(|s| *s *= factor);
        }
    }
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    assert!(
        !result.failed(),
        "{:?}",
        result.regressions().map(|c| &c.key).collect::<Vec<_>>()
    );
    assert!(result.drifts[0].spread > 0.2);
}

#[test]
fn size_drift_fails_unless_allowed_and_missing_cells_are_listed() {
    let base = run(
        "a",
        vec![
            cell("zstd", 1, 10, &tight(1.0)),
            cell("zstd", 3, 30, &tight(1.0)),
        ],
    );
    let cand = run(
        "b",
        vec![
            cell("zstd", 1, 11, &tight(1.0)),
            cell("zstd", 19, 5, &tight(1.0)),
        ],
    );
    let mut opts = options(zstd1());
    let result = compare(&base, &cand, &opts).unwrap();
    assert!(result.failed());
    assert_eq!(result.size_drifts().count(), 1);
    assert_eq!(level(&result.missing[0]), 3);
    assert_eq!(level(&result.extra[0]), 19);
    opts.allow_size_drift = true;
    assert_eq!(
        compare(&base, &cand, &opts).unwrap().failures(),
        [(FailReason::Missing, 1)]
    );
    opts.allow_missing = true;
    assert!(!compare(&base, &cand, &opts).unwrap().failed());
}

#[test]
fn a_missing_reference_cell_is_an_error() {
    let base = run("a", vec![cell("gzip", 1, 20, &tight(2.0))]);
    let err = compare(&base, &base, &options(zstd1()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("zstd 1 (libzstd)"), "{err}");
    assert!(parse_reference("zstd").is_err());
    assert!(parse_reference("zstd:x").is_err());
}

/// A codec row's level.
fn level(key: &RowKey) -> i32 {
    match key {
        RowKey::Cell(key) => key.id.level,
        RowKey::Http(_) | RowKey::Probe(_) => panic!("a cell"),
    }
}

/// zstd 1 from libzstd fresh (the reference), reused and with a 4 KiB dictionary, and
/// gzip 1..=6: several libraries and variants at one codec and level.
fn variants(label: &str, reference_s: f64, others_s: f64) -> LoadedRun {
    use crate::vocab::Variant;
    let mut cells = vec![cell("zstd", 1, 10, &tight(reference_s))];
    for variant in [Variant::Reused, Variant::Dictionary { kib: 4 }] {
        let mut c = cell("zstd", 1, 10, &tight(others_s));
        c.cell.id.variant = variant;
        cells.push(c);
    }
    let mut rust_port = cell("brotli", 1, 12, &tight(others_s));
    rust_port.cell.id.library = crate::vocab::Library::BrotliRs;
    cells.push(rust_port);
    cells.extend((1..=6).map(|level| cell("gzip", level, 20, &tight(2.0 * others_s))));
    LoadedRun::of_cells(label, cells)
}

#[test]
fn only_the_exact_reference_identity_is_the_reference() {
    // Only the reference (libzstd, fresh, zstd 1) got 25% faster.
    let result = compare(
        &variants("a", 1.0, 1.0),
        &variants("b", 0.8, 1.0),
        &options(zstd1()),
    )
    .unwrap();
    let references: Vec<String> = result
        .rows
        .iter()
        .filter(|r| r.is_reference)
        .map(|r| r.key.to_string())
        .collect();
    assert_eq!(references, ["small zstd 1 (libzstd)"]);
    assert!(
        !result.failed(),
        "no other cell is flagged: {:?}",
        result.failures()
    );
    for row in result.rows.iter().filter(|r| !r.is_reference) {
        let compress = row.speed(Direction::Compress).unwrap();
        assert!(compress.judged_change.abs() < 1e-9, "{}", row.key);
    }
    // ... and the reference's own change is reported, as a warning.
    let reference = result
        .machine_changes()
        .find(|m| m.what == "reference")
        .expect("the reference's change is reported");
    assert!((reference.change - 0.25).abs() < 1e-9);
    assert_eq!(reference.verdict, Verdict::Improved);
}

#[test]
fn a_uniform_slowdown_warns_when_normalised_and_fails_when_absolute() {
    let base = variants("a", 1.0, 1.0);
    let slower = variants("b", 1.3, 1.3);
    let normalised = compare(&base, &slower, &options(zstd1())).unwrap();
    assert!(!normalised.failed(), "{:?}", normalised.failures());
    let shared = normalised
        .machine_changes()
        .find(|m| m.what == "all cells")
        .expect("the shared change is reported");
    assert!((shared.change - (1.0 / 1.3 - 1.0)).abs() < 1e-9);
    assert_eq!(shared.verdict, Verdict::Regressed);
    let absolute = compare(&base, &slower, &options(SpeedBasis::Absolute)).unwrap();
    let reasons = absolute.failures();
    assert!(
        reasons
            .iter()
            .any(|&(r, _)| r == FailReason::MachineSlowdown),
        "{reasons:?}"
    );
}

#[test]
fn a_failed_or_missing_candidate_cell_fails_and_no_common_cell_is_an_error() {
    let base = variants("a", 1.0, 1.0);
    let mut failed = variants("b", 1.0, 1.0);
    let gzip = failed.cells_mut().nth(5).unwrap();
    gzip.fail("round trip mismatch".into());
    let result = compare(&base, &failed, &options(zstd1())).unwrap();
    assert!(result.failed());
    assert_eq!(result.failed.len(), 1);
    assert_eq!(result.failed[0].reason, "round trip mismatch");

    let mut missing = variants("b", 1.0, 1.0);
    missing.payloads_mut()[0].cells.pop();
    let mut opts = options(zstd1());
    let result = compare(&base, &missing, &opts).unwrap();
    assert_eq!(result.failures(), [(FailReason::Missing, 1)]);
    opts.allow_missing = true;
    assert!(!compare(&base, &missing, &opts).unwrap().failed());

    let mut elsewhere = variants("c", 1.0, 1.0);
    for payload in elsewhere.payloads_mut() {
        payload.payload = "large".into();
    }
    let err = compare(&base, &elsewhere, &options(SpeedBasis::Absolute))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no result in common"), "{err}");
}

#[test]
fn references_parse_in_either_spelling() {
    assert_eq!(parse_reference("br:4").unwrap(), (CodecKind::Brotli, 4));
    assert_eq!(parse_reference("brotli:4").unwrap(), (CodecKind::Brotli, 4));
    assert!(parse_reference("lz4:1").is_err());
}

#[test]
fn a_run_with_samples_and_its_medians_alone_compare_clean() {
    // Each cell's slow tail differs, so its 10th percentile and median differ by a ratio
    // of its own: judging one side by each would show changes that are not there.
    let skewed = |median: f64, tail: f64| -> Vec<f64> {
        let mut samples: Vec<f64> = (0..11).map(|i| median * (1.0 + 0.001 * i as f64)).collect();
        samples[..4].iter_mut().for_each(|s| *s = median / tail);
        samples
    };
    let with_samples = run(
        "a.json",
        (1..=6)
            .map(|level| cell("zstd", level, 10, &skewed(1.0, 1.0 + level as f64 / 10.0)))
            .collect(),
    );
    let mut medians_only = with_samples.clone();
    medians_only.label = "a.csv".into();
    for cell in medians_only.cells_mut() {
        for timing in [&mut cell.compress, &mut cell.decompress]
            .into_iter()
            .flatten()
        {
            timing.samples_s.clear();
        }
    }
    let result = compare(&with_samples, &medians_only, &options(zstd1())).unwrap();
    assert!(!result.failed(), "{:?}", result.failures());
    for row in &result.rows {
        let change = row.speed(Direction::Compress).unwrap().change;
        assert!(change.abs() < 1e-12, "{}: {change}", row.key);
    }
}

#[test]
fn runs_that_only_counted_instructions_are_judged_on_them_alone() {
    let counted = |compress: u64, seconds: f64| {
        let mut cell = cell("gzip", 6, 20, &[seconds]);
        cell.cell.compress_instructions = Some(compress);
        cell.cell.decompress_instructions = Some(500_000);
        cell
    };
    let reference = |seconds: f64| cell("zstd", 1, 10, &[seconds]);
    let base = run("a", vec![reference(1.0), counted(1_000_000, 1.0)]);
    // Twice the time on the one iteration kept for the record, 3% more instructions.
    let cand = run("b", vec![reference(1.0), counted(1_030_000, 2.0)]);
    let result = compare(&base, &cand, &options(zstd1())).unwrap();
    let gzip = &result.rows[1];
    assert!(gzip.speed(Direction::Compress).is_none(), "no speed judged");
    assert!(gzip.instructions_regressed());
    assert_eq!(
        result.failures(),
        [(FailReason::MoreInstructions, 1)],
        "only the instructions fail"
    );
}
