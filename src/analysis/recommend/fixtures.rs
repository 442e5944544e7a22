//! A matrix with the shape of the article's small payload, for the tests of the advice
//! and its reporters.

use super::*;
use crate::results::{CellKey, FixtureCell, LoadedRun};
use crate::stats::Summary;

/// A cell of the small payload with these median times in milliseconds.
fn cell(codec: &str, level: i32, bytes: u64, compress_ms: f64, decompress_ms: f64) -> FixtureCell {
    let key = CellKey::new("small", codec, level);
    let (compress, decompress) = (compress_ms / 1e3, decompress_ms / 1e3);
    FixtureCell::new(
        key,
        298_727,
        bytes,
        Summary::for_test(compress, vec![]),
        Summary::for_test(decompress, vec![]),
    )
}

/// The shape of the article's small-payload matrix.
pub(crate) fn run() -> LoadedRun {
    LoadedRun::of_cells(
        "run.json",
        vec![
            cell("zstd", 1, 41_132, 0.7, 0.17),
            cell("zstd", 3, 43_644, 1.0, 0.18),
            cell("zstd", 19, 36_245, 370.0, 0.16),
            cell("brotli", 1, 44_606, 1.0, 0.35),
            cell("brotli", 11, 34_020, 800.0, 0.5),
            cell("gzip", 1, 69_832, 1.0, 0.6),
        ],
    )
}

pub(crate) fn options() -> AdviceOptions {
    AdviceOptions {
        bandwidths_mbit: vec![10.0, 1000.0],
        ..AdviceOptions::default()
    }
}
