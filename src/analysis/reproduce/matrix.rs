//! The cells of one run, found by payload, codec and level, and the figures the claims
//! read from them.

use super::verdict::{two_decimals, ClaimVerdict, Measured, RatioApi};
use crate::results::{LoadedRun, RunCell};
use crate::vocab::CodecKind::{self, Zstd};
use crate::vocab::{CellId, Variant};

/// The cells of one run, found by payload, codec and level; brotli prefers the C library
/// (what .NET ships) and falls back to the Rust port.
pub(super) struct Matrix<'a> {
    /// The run.
    pub(super) run: &'a LoadedRun,
}

impl<'a> Matrix<'a> {
    /// The fresh cell of `payload`, `codec` and `level`: the library servers run, else
    /// any fresh one (brotli's Rust port where the run has no C brotli).
    pub(super) fn cell(&self, payload: &str, codec: CodecKind, level: i32) -> Option<RunCell<'a>> {
        let server = CellId::reference(codec, level);
        let fresh = |c: &RunCell| {
            let id = c.key.id;
            id.codec == codec && id.level == level && id.variant == Variant::Fresh
        };
        self.run
            .cell_on(payload, &server)
            .or_else(|| self.run.cells_on(payload).find(fresh))
    }

    /// The cell measured through the one-shot API (`--api oneshot`), if the run has it.
    pub(super) fn one_shot(
        &self,
        payload: &str,
        codec: CodecKind,
        level: i32,
    ) -> Option<RunCell<'a>> {
        let id = CellId {
            variant: Variant::OneShot,
            ..CellId::reference(codec, level)
        };
        self.run.cell_on(payload, &id)
    }

    /// The compressed size of [`Matrix::cell`].
    pub(super) fn bytes(&self, payload: &str, codec: CodecKind, level: i32) -> Option<u64> {
        self.cell(payload, codec, level)
            .map(|c| c.cell.compressed_bytes)
    }

    /// The ratio of [`Matrix::cell`].
    pub(super) fn ratio(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        self.cell(payload, codec, level).map(|c| c.ratio())
    }

    /// The uncompressed size of `payload`.
    pub(super) fn input(&self, payload: &str) -> Option<u64> {
        self.run.cells_on(payload).next().map(|c| c.input_bytes())
    }

    /// The median seconds to compress with [`Matrix::cell`].
    pub(super) fn compress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(self.cell(payload, codec, level)?.compress()?.median_s)
    }

    /// The median seconds to decompress with [`Matrix::cell`].
    pub(super) fn decompress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(self.cell(payload, codec, level)?.decompress()?.median_s)
    }

    /// `payload`'s size over `seconds`, in MB/s.
    pub(super) fn mb_s(&self, payload: &str, seconds: f64) -> Option<f64> {
        Some(crate::stats::mb_per_s(self.input(payload)?, seconds))
    }
}

/// A ratio the article took from native libzstd's one-shot call: checked on the run's
/// one-shot cell, or on its streamed one, saying so, where it has none.
pub(super) fn one_shot_ratio(
    m: &Matrix,
    payload: &str,
    level: i32,
    expected: &str,
) -> Option<(Measured, ClaimVerdict)> {
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
pub(super) fn first_level_beating_one(m: &Matrix, payload: &str) -> Option<Option<i32>> {
    let one = m.ratio(payload, Zstd, 1)?;
    Some((2..=19).find(|&level| m.ratio(payload, Zstd, level).is_some_and(|r| r > one)))
}
