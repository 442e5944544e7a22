//! A claim's row: what the article says, what was measured here, and whether it holds;
//! and the two exact rules, sizes to the byte and ratios to two decimals.

use serde::Serialize;

/// Whether a claim holds here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClaimVerdict {
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

impl ClaimVerdict {
    /// The word in the table.
    pub(crate) fn word(self) -> &'static str {
        match self {
            ClaimVerdict::Holds => "holds",
            ClaimVerdict::Partly => "partly",
            ClaimVerdict::Fails => "does not hold",
            ClaimVerdict::ChangedUpstream => "changed upstream",
            ClaimVerdict::Unmeasured => "not measured",
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
    pub verdict: ClaimVerdict,
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
        /// e.g. `quality 0 at dotnet/aspnetcore#65479 (11 preview 3)`.
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

/// A claim's row, or one not measured when `measured` is `None`.
pub(super) fn claim(
    claim: &str,
    article: &str,
    measured: Option<(Measured, ClaimVerdict)>,
) -> Claim {
    let (measured, verdict) = measured.unwrap_or((Measured::Missing, ClaimVerdict::Unmeasured));
    Claim {
        claim: claim.to_string(),
        article: article.to_string(),
        measured,
        verdict,
    }
}

/// A size that must match to the byte.
pub(super) fn exact(expected: u64, measured: Option<u64>) -> Option<(Measured, ClaimVerdict)> {
    let measured = measured?;
    let verdict = if measured == expected {
        ClaimVerdict::Holds
    } else {
        ClaimVerdict::Fails
    };
    Some((Measured::Bytes { bytes: measured }, verdict))
}

/// A ratio that must read the same to two decimals, measured through `api` where said.
pub(super) fn two_decimals(
    expected: &str,
    measured: Option<f64>,
    api: Option<RatioApi>,
) -> Option<(Measured, ClaimVerdict)> {
    let ratio = measured?;
    // The article prints ratios to two decimals: a claim holds when they read the same.
    let verdict = if format!("{ratio:.2}") == expected {
        ClaimVerdict::Holds
    } else {
        ClaimVerdict::Fails
    };
    Some((Measured::Ratio { ratio, api }, verdict))
}
