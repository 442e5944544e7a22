//! Comparing two saved runs of the same kind: exact sizes, failures, missing results,
//! and speeds judged against a threshold and the runs' own noise.
//!
//! Sizes are deterministic for a given payload, library, variant and level, so any
//! difference is a drift in a library or in the payload generator. A cell that failed in
//! the candidate, or a baseline cell the candidate lacks, fails the comparison: a gate
//! must not pass what it could not check.
//!
//! Speeds are compared by default as *shapes*: each cell's throughput is divided by the
//! same run's reference cell on the same payload, which is exactly `--normalize-to`'s
//! codec and level with a fresh encoder from the library servers run (libzstd, fresh,
//! zstd 1 by default); a dictionary, reused-encoder or Rust-port cell is never taken for
//! it. `--absolute` compares raw MB/s instead, for runs on the same kind of machine.
//!
//! A speed change is a regression only when it is larger than the threshold *and* larger
//! than the noise. The noise has two parts, added in quadrature:
//!
//! - **within cells:** each median's standard error from its own samples (see
//!   [`crate::stats::median_relative_standard_error`]), for both runs and, with
//!   normalisation, for both reference cells. Runs read from CSV carry no samples.
//! - **between cells:** on a shared machine the speed drifts between one cell and the
//!   next, in slow and fast periods that last longer than a cell, which the samples of one
//!   cell cannot show. With at least [`spread::MIN_CELLS_FOR_SPREAD`] other cells on the same
//!   payload and direction, the standard deviation of their log changes is a further
//!   standard error; the cell being judged is left out of it.
//!
//! The band is `z` of these combined standard errors, where `z` = Φ⁻¹(1 − α/m): a
//! Bonferroni correction over the m speeds compared, for a 5% chance
//! ([`FAMILY_ERROR_RATE`]) that noise alone flags anything.
//!
//! With normalisation, the reference's own drift moves every other cell alike, so the
//! median log change of the other cells is taken as that drift and removed before
//! judging. What normalisation hides is then reported on its own ([`MachineChange`]):
//! the reference's absolute change and the change shared by all cells, each with its
//! noise band. They warn by default and fail with `--absolute`.
//!
//! Results of `codecbench http` compare the same way: each encoding's body size must
//! match exactly, and its p50 latency is judged as a speed (uncompressed bytes delivered
//! per second of p50), normalised to the same run's reference encoding (`zstd:1`) under
//! the same payload and load.
//!
//! Results of `codecbench probe` compare as `http`'s do, row by URL and `Accept-Encoding`:
//! the body size exactly (so a change of what the server sends fails), the p50 time to
//! the last byte as a speed, normalised to the same probe's `identity` request of the
//! same URL.

mod comparison;
mod direction;
mod entry;
#[cfg(test)]
mod http_tests;
mod instructions;
mod judge;
mod matching;
mod options;
mod pair;
mod row;
mod sight;
mod spread;
#[cfg(test)]
mod tests;
mod verdict;

pub(crate) use comparison::{Comparison, MachineChange};
pub(crate) use direction::Direction;
pub(crate) use options::{parse_reference, CompareOptions, SpeedBasis};
pub(crate) use pair::compare;
pub(crate) use row::{FailReason, Row, RowKey, SpeedChange};
pub(crate) use sight::MUST_SEE;
pub(crate) use verdict::Verdict;
