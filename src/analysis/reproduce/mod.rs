//! Checking the article's claims against a measured matrix, one row per claim.
//!
//! Sizes must match to the byte and ratios to two decimals. Speeds come from another
//! machine, so only their shape is checked: which is faster, and roughly by how much.
//! Each rule is written beside its claim below.

pub(crate) mod aspnetcore;
mod claims;
mod matrix;
mod per_body;
mod verdict;

use crate::results::LoadedRun;
use matrix::Matrix;
pub(crate) use per_body::{BodyFinding, Speed, Versus, AGAINST};
pub(crate) use verdict::{Claim, Measured, RatioApi, Verdict};

/// The zstd levels whose ratios on large the article took from native libzstd's one-shot
/// call.
pub(crate) const ONE_SHOT_ZSTD_LEVELS: [i32; 4] = [-5, 1, 3, 19];

/// Every claim, in the order of FIGURES.md.
pub(crate) fn check(run: &LoadedRun) -> Vec<Claim> {
    claims::all(&Matrix { run })
}

/// The one-line finding on each body of the run (see [`per_body`]).
pub(crate) fn body_by_body(run: &LoadedRun) -> Vec<BodyFinding> {
    per_body::per_body(&Matrix { run })
}

#[cfg(test)]
mod tests;
