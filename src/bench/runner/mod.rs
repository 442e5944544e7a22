//! The runner: round-trip check, warm-up, then timed iterations for each direction.
//!
//! A cell's timed iterations are split into rounds, and each round visits every cell in
//! turn, in the manner of Google Benchmark's `--benchmark_enable_random_interleaving`
//! (Google's "Random interleaving" design note). A shared machine has slow and fast
//! periods lasting seconds; when one cell's iterations all run back to back, a slow period
//! moves that cell's median by up to 1.5× with no sign of it in the samples. Spreading
//! them over the run puts the machine's drift into every cell's spread instead. Each
//! round starts with untimed warm-up, so every timed iteration still runs hot, as in a
//! server that compresses response after response.

mod cell;
mod clock;

pub(crate) use cell::CellRun;
pub(crate) use clock::{Clock, SystemClock};
