//! Checking the article's claims against a measured matrix, one row per claim.
//!
//! Sizes must match to the byte and ratios to two decimals. Speeds come from another
//! machine, so only their shape is checked: which is faster, and roughly by how much.
//! Each rule is written beside its claim below.

use serde::Serialize;

pub(crate) mod aspnetcore;
mod claims;

use crate::results::{LoadedRun, RunCell};
use crate::vocab::CodecKind::{self, Zstd};
use crate::vocab::{CellId, Variant};

/// The zstd levels whose ratios on large the article took from native libzstd's one-shot
/// call.
pub(crate) const ONE_SHOT_ZSTD_LEVELS: [i32; 4] = [-5, 1, 3, 19];

/// Whether a claim holds here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// It holds as stated.
    Holds,
    /// Its direction holds, its size does not.
    Partly,
    /// It does not hold.
    Fails,
    /// It held for the version the article read; the upstream source has since
    /// changed.
    ChangedUpstream,
    /// The run lacks a cell the claim needs.
    Unmeasured,
}

impl Verdict {
    /// The word in the table.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Partly => "partly",
            Verdict::Fails => "does not hold",
            Verdict::ChangedUpstream => "changed upstream",
            Verdict::Unmeasured => "not measured",
        }
    }
}

/// One claim of the article.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Claim {
    /// What the article says.
    pub claim: String,
    /// The article's figure.
    pub article: String,
    /// The figure measured here.
    pub measured: Measured,
    /// Whether it holds.
    pub verdict: Verdict,
}

/// A figure measured for a claim; `export` writes it as text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Measured {
    /// The run lacks a cell the claim needs.
    Missing,
    /// A size in bytes.
    Bytes {
        /// Bytes.
        bytes: u64,
    },
    /// A body's size before and after compression, in bytes.
    Growth {
        /// Uncompressed bytes.
        input: u64,
        /// Compressed bytes.
        output: u64,
    },
    /// A compression ratio, and the API of the cell it was read from.
    Ratio {
        /// Uncompressed ÷ compressed bytes.
        ratio: f64,
        /// `None` where the claim reads the default cell.
        api: Option<RatioApi>,
    },
    /// One setting against another: CPU time and bytes, each as a multiple.
    CostAndSize {
        /// CPU time ÷ the other's.
        cpu: f64,
        /// Bytes ÷ the other's.
        bytes: f64,
    },
    /// Ratios at consecutive levels.
    Ratios {
        /// The level of the first ratio.
        first_level: i32,
        /// Uncompressed ÷ compressed bytes, level by level.
        ratios: Vec<f64>,
    },
    /// The first level that qualifies, if any up to `last_level` does.
    FirstLevel {
        /// The level; `None` when none did.
        level: Option<i32>,
        /// The highest level looked at.
        last_level: i32,
    },
    /// zstd's and brotli's throughputs, in MB/s (10^6 uncompressed bytes per second).
    Throughputs {
        /// zstd's MB/s.
        zstd: f64,
        /// brotli's MB/s.
        brotli: f64,
    },
    /// How many times as fast.
    Speedup {
        /// The multiple.
        times: f64,
    },
    /// A level's throughput beside the fastest level's, in MB/s.
    Fastest {
        /// The claimed level's MB/s.
        mb_s: f64,
        /// The fastest level.
        fastest_level: i32,
        /// Its MB/s.
        fastest_mb_s: f64,
    },
    /// A time per response, in seconds.
    Seconds {
        /// Seconds.
        seconds: f64,
    },
    /// Sizes of settings compared, the claimed one first, in bytes.
    Sizes {
        /// Bytes, setting by setting.
        sizes: Vec<u64>,
    },
    /// What an upstream source says, with where.
    Source {
        /// e.g. `quality 1 at dotnet/aspnetcore@7a9ec13`.
        text: String,
    },
}

impl Measured {
    /// `41,132 vs 43,644 B` for [`Measured::Sizes`]; empty for the others.
    pub(crate) fn sizes_text(&self) -> String {
        match self {
            Measured::Sizes { sizes } => {
                let each: Vec<String> =
                    sizes.iter().map(|&b| crate::format::thousands(b)).collect();
                format!("{} B", each.join(" vs "))
            }
            _ => String::new(),
        }
    }
}

/// Which API measured a ratio the article took from native libzstd's one-shot call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RatioApi {
    /// The run's one-shot cell.
    OneShot,
    /// The streamed cell, for a run without one-shot cells.
    Streamed,
}

/// The cells of one run, found by payload, codec and level; brotli prefers the C library
/// (what .NET ships) and falls back to the Rust port.
struct Matrix<'a> {
    run: &'a LoadedRun,
}

impl<'a> Matrix<'a> {
    fn cell(&self, payload: &str, codec: CodecKind, level: i32) -> Option<&'a RunCell> {
        let server = CellId::reference(codec, level);
        let fresh = |c: &&'a RunCell| {
            let id = c.key.id;
            c.key.payload == payload
                && id.codec == codec
                && id.level == level
                && id.variant == Variant::Fresh
        };
        let cells = self.run.codec_cells();
        self.run
            .cell_on(payload, &server)
            .or_else(|| cells.iter().find(fresh))
    }

    /// The cell measured through the one-shot API (`--api oneshot`), if the run has it.
    fn one_shot(&self, payload: &str, codec: CodecKind, level: i32) -> Option<&'a RunCell> {
        let id = CellId {
            variant: Variant::OneShot,
            ..CellId::reference(codec, level)
        };
        self.run.cell_on(payload, &id)
    }

    fn bytes(&self, payload: &str, codec: CodecKind, level: i32) -> Option<u64> {
        self.cell(payload, codec, level).map(|c| c.compressed_bytes)
    }

    fn ratio(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        self.cell(payload, codec, level).map(RunCell::ratio)
    }

    fn input(&self, payload: &str) -> Option<u64> {
        self.run
            .codec_cells()
            .iter()
            .find(|c| c.key.payload == payload)
            .map(|c| c.input_bytes)
    }

    fn compress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(
            self.cell(payload, codec, level)?
                .compress
                .as_ref()?
                .median_s,
        )
    }

    fn decompress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(
            self.cell(payload, codec, level)?
                .decompress
                .as_ref()?
                .median_s,
        )
    }

    fn mb_s(&self, payload: &str, seconds: f64) -> Option<f64> {
        Some(crate::stats::mb_per_s(self.input(payload)?, seconds))
    }
}

fn claim(claim: &str, article: &str, measured: Option<(Measured, Verdict)>) -> Claim {
    let (measured, verdict) = measured.unwrap_or((Measured::Missing, Verdict::Unmeasured));
    Claim {
        claim: claim.to_string(),
        article: article.to_string(),
        measured,
        verdict,
    }
}

fn exact(expected: u64, measured: Option<u64>) -> Option<(Measured, Verdict)> {
    let measured = measured?;
    let verdict = if measured == expected {
        Verdict::Holds
    } else {
        Verdict::Fails
    };
    Some((Measured::Bytes { bytes: measured }, verdict))
}

fn two_decimals(
    expected: &str,
    measured: Option<f64>,
    api: Option<RatioApi>,
) -> Option<(Measured, Verdict)> {
    let ratio = measured?;
    // The article prints ratios to two decimals: a claim holds when they read the same.
    let verdict = if format!("{ratio:.2}") == expected {
        Verdict::Holds
    } else {
        Verdict::Fails
    };
    Some((Measured::Ratio { ratio, api }, verdict))
}

/// A ratio the article took from native libzstd's one-shot call: checked on the run's
/// one-shot cell, or on its streamed one, saying so, where it has none.
fn one_shot_ratio(
    m: &Matrix,
    payload: &str,
    level: i32,
    expected: &str,
) -> Option<(Measured, Verdict)> {
    if let Some(cell) = m.one_shot(payload, Zstd, level) {
        return two_decimals(expected, Some(cell.ratio()), Some(RatioApi::OneShot));
    }
    two_decimals(
        expected,
        m.ratio(payload, Zstd, level),
        Some(RatioApi::Streamed),
    )
}

/// The first zstd level above 1 whose ratio beats level 1's on `payload`.
fn first_level_beating_one(m: &Matrix, payload: &str) -> Option<Option<i32>> {
    let one = m.ratio(payload, Zstd, 1)?;
    Some((2..=19).find(|&level| m.ratio(payload, Zstd, level).is_some_and(|r| r > one)))
}

/// Every claim, in the order of FIGURES.md.
pub(crate) fn check(run: &LoadedRun) -> Vec<Claim> {
    claims::all(&Matrix { run })
}

#[cfg(test)]
mod tests;
