//! The article's claims checked on a run, and the per-body findings.

use super::matrix::Matrix;
use super::{BodyFinding, Claim};
use crate::results::LoadedRun;

/// The zstd levels whose ratios on large the article took from native libzstd's one-shot
/// call.
pub(crate) const ONE_SHOT_ZSTD_LEVELS: [i32; 4] = [-5, 1, 3, 19];

/// Every claim, in the order of FIGURES.md.
pub(crate) fn check(run: &LoadedRun) -> Vec<Claim> {
    super::claims::all(&Matrix { run })
}

/// The cells the run holds, payload by payload in file order, as `(payload, cells)`:
/// what a run stopped early has, for the claims to name when they find none of theirs.
pub(crate) fn cells_held(run: &LoadedRun) -> Vec<(String, usize)> {
    let mut held: Vec<(String, usize)> = Vec::new();
    for cell in run.codec_cells() {
        match held.last_mut() {
            Some((payload, count)) if *payload == cell.payload.payload => *count += 1,
            _ => held.push((cell.payload.payload.clone(), 1)),
        }
    }
    held
}

/// The one-line finding on each body of the run (see [`super::per_body`]).
pub(crate) fn body_by_body(run: &LoadedRun) -> Vec<BodyFinding> {
    super::per_body::per_body(&Matrix { run })
}
