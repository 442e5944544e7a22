//! Checking the article's claims against a measured matrix, one row per claim.
//!
//! Sizes must match to the byte and ratios to two decimals. Speeds come from another
//! machine, so only their shape is checked: which is faster, and roughly by how much.
//! Each rule is written beside its claim below.

pub(crate) mod aspnetcore;
mod check;
mod claims;
mod matrix;
mod per_body;
mod verdict;

pub(crate) use check::{body_by_body, cells_held, check, ONE_SHOT_ZSTD_LEVELS};
pub(crate) use per_body::{BodyFinding, Speed, Versus, AGAINST};
pub(crate) use verdict::{Claim, ClaimVerdict, Measured, RatioApi};

#[cfg(test)]
mod tests;
