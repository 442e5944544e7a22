//! Unit tests of the claims.

use super::*;
use crate::results::{CellKey, FixtureCell, LoadedRun};
use crate::stats::Summary;
use crate::vocab::Variant;

fn cell(payload: &str, codec: &str, level: i32, input: u64, bytes: u64, ms: f64) -> FixtureCell {
    let timing = Summary::for_test(ms / 1e3, vec![]);
    let key = CellKey::new(payload, codec, level);
    FixtureCell::new(key, input, bytes, timing.clone(), timing)
}

fn verdict_of(claims: &[Claim], start: &str) -> ClaimVerdict {
    claims
        .iter()
        .find(|c| c.claim.starts_with(start))
        .unwrap_or_else(|| panic!("no claim {start}"))
        .verdict
}

#[test]
fn exact_sizes_hold_and_a_missing_cell_is_unmeasured() {
    let run = LoadedRun::of_cells(
        "run",
        vec![
            cell("small", "zstd", 1, 298_727, 41_132, 0.7),
            cell("small", "zstd", 3, 298_727, 43_645, 1.0),
        ],
    );
    let claims = check(&run);
    assert_eq!(verdict_of(&claims, "the 1,000-record"), ClaimVerdict::Holds);
    assert_eq!(
        verdict_of(&claims, "small, zstd 1 (streaming)"),
        ClaimVerdict::Holds
    );
    assert_eq!(
        verdict_of(&claims, "small, zstd 3 (streaming)"),
        ClaimVerdict::Fails
    );
    assert_eq!(
        verdict_of(&claims, "the 10,000-record"),
        ClaimVerdict::Unmeasured
    );
    assert_eq!(
        verdict_of(&claims, "small: zstd 3 is worse"),
        ClaimVerdict::Holds,
        "larger and slower"
    );
}

#[test]
fn shape_claims_follow_the_matrix() {
    // Ratios 7.3, 7.2, 7.0, 6.9, 7.1, then level 6 and beyond beat level 1 from 16 on.
    let input = 3_000_000;
    let mut cells: Vec<FixtureCell> = [7.3, 7.2, 7.0, 6.9, 7.1]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            cell(
                "large",
                "zstd",
                i as i32 + 1,
                input,
                (input as f64 / r) as u64,
                5.0,
            )
        })
        .collect();
    for level in 6..=19 {
        let ratio = if level >= 16 { 7.5 } else { 7.2 };
        cells.push(cell(
            "large",
            "zstd",
            level,
            input,
            (input as f64 / ratio) as u64,
            50.0,
        ));
    }
    let run = LoadedRun::of_cells("run", cells);
    let claims = check(&run);
    assert_eq!(
        verdict_of(&claims, "large: the zstd ratio falls"),
        ClaimVerdict::Holds
    );
    let first = claims
        .iter()
        .find(|c| c.claim.starts_with("large: the first zstd level"))
        .unwrap();
    let level_16 = Measured::FirstLevel {
        level: Some(16),
        last_level: 19,
    };
    assert_eq!(
        (&first.measured, first.verdict),
        (&level_16, ClaimVerdict::Fails)
    );
}

#[test]
fn large_ratios_are_checked_on_the_one_shot_cell_when_the_run_has_one() {
    // The reference run: zstd 3 on large streams to 454,007 B (6.649x) and one-shot to
    // 453,130 B (6.662x), which is the article's 6.66x.
    let streamed = cell("large", "zstd", 3, 3_018_756, 454_007, 13.0);
    let mut one_shot = cell("large", "zstd", 3, 3_018_756, 453_130, 12.0);
    one_shot.cell.id.variant = Variant::OneShot;
    let run = |cells: Vec<FixtureCell>| LoadedRun::of_cells("run", cells);
    let find = |claims: &[Claim]| {
        claims
            .iter()
            .find(|c| c.claim.starts_with("large, zstd 3 ratio"))
            .unwrap()
            .clone()
    };
    let without = find(&check(&run(vec![streamed.clone()])));
    assert_eq!(without.verdict, ClaimVerdict::Fails);
    assert!(
        matches!(
            without.measured,
            Measured::Ratio {
                api: Some(RatioApi::Streamed),
                ..
            }
        ),
        "{:?}",
        without.measured
    );
    let with = find(&check(&run(vec![streamed, one_shot])));
    assert_eq!(with.verdict, ClaimVerdict::Holds, "{:?}", with.measured);
    assert!(
        matches!(
            with.measured,
            Measured::Ratio {
                api: Some(RatioApi::OneShot),
                ..
            }
        ),
        "{:?}",
        with.measured
    );
    assert!(with.claim.contains("(one-shot, native libzstd)"));
}

#[test]
fn the_default_level_claim_takes_its_verdict_from_the_cited_source() {
    let run = LoadedRun::of_cells("run", vec![]);
    let claims = check(&run);
    let default = claims
        .iter()
        .find(|c| c.claim.contains("zstd provider runs level 3"))
        .unwrap();
    // The merged source sets quality 0, which libzstd runs as its default 3.
    assert_eq!(aspnetcore::UPSTREAM_ZSTD_QUALITY, 0);
    assert_eq!(default.verdict, ClaimVerdict::Holds);
    assert_eq!(
        default.measured,
        Measured::Source {
            text: "quality 0 at dotnet/aspnetcore#65479 (11 preview 3)".into()
        }
    );
}

#[test]
fn the_conclusions_on_the_wire_read_the_minimal_api_cells() {
    let wire = |codec: &str, level: i32, bytes: u64| {
        let mut c = cell("small", codec, level, 298_727, bytes, 1.0);
        c.cell.id.variant = Variant::Aspnetcore {
            writer: crate::vocab::AspnetcoreWriter::Minimal,
        };
        c
    };
    let one_write = vec![
        cell("small", "zstd", 1, 298_727, 41_132, 0.7),
        cell("small", "zstd", 3, 298_727, 43_644, 1.0),
        cell("small", "brotli", 1, 298_727, 44_606, 0.7),
        cell("small", "gzip", 1, 298_727, 69_832, 0.7),
    ];
    let run = |cells: Vec<FixtureCell>| LoadedRun::of_cells("run", cells);
    let claims = check(&run(one_write.clone()));
    let first = "small as ASP.NET Core sends it (minimal APIs): zstd 1 is smaller";
    assert_eq!(verdict_of(&claims, first), ClaimVerdict::Unmeasured);
    let mut cells = one_write;
    cells.extend([
        wire("zstd", 1, 42_267),
        wire("zstd", 3, 44_811),
        wire("brotli", 1, 42_000),
        wire("gzip", 1, 70_059),
    ]);
    let claims = check(&run(cells));
    let zstd = claims.iter().find(|c| c.claim.starts_with(first)).unwrap();
    assert_eq!(zstd.verdict, ClaimVerdict::Holds);
    assert_eq!(zstd.article, "41,132 vs 43,644 B in one write");
    assert_eq!(zstd.measured.sizes_text(), "42,267 vs 44,811 B");
    // A brotli 1 body smaller than zstd 1's on the wire breaks the second conclusion.
    let others = "small as ASP.NET Core sends it: zstd 1 is smaller than brotli";
    assert_eq!(verdict_of(&claims, others), ClaimVerdict::Fails);
}
