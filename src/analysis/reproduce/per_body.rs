//! The article's one-line finding, body by body: on each body of a run, is zstd 1 smaller
//! and faster to compress than zstd 3, brotli 1 and gzip 1? Sizes are exact. Speeds are
//! decided on the 95% intervals of the compression times (see
//! [`crate::analysis::recommend::span`]): faster when zstd 1's interval ends before the
//! other's begins, slower the other way round, and a tie when they overlap.

use serde::Serialize;

use super::matrix::Matrix;
use crate::analysis::recommend::span::Span;
use crate::results::RunCell;
use crate::vocab::CodecKind::{self, Brotli, Gzip, Zstd};

/// The settings the finding sets zstd 1 against: the other providers' defaults and
/// zstd's own.
pub(crate) const AGAINST: [(CodecKind, i32); 3] = [(Zstd, 3), (Brotli, 1), (Gzip, 1)];

/// How zstd 1's compression time compares, on intervals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Speed {
    /// zstd 1's interval ends before the other's begins.
    Faster,
    /// The intervals overlap.
    Tie,
    /// zstd 1's interval begins after the other's ends.
    Slower,
}

/// zstd 1 against one other setting on one body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct Versus {
    /// zstd 1's bytes over the other's.
    pub bytes_ratio: f64,
    /// The other's median compression time over zstd 1's.
    pub speedup: f64,
    /// The verdict on the intervals.
    pub speed: Speed,
}

/// One body and the finding on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BodyFinding {
    /// Payload name.
    pub payload: String,
    /// Its size.
    pub input_bytes: u64,
    /// Against each of [`AGAINST`], in order; `None` where the run lacks the cell.
    pub versus: Vec<Option<Versus>>,
}

/// The compression time's interval and median of `cell`, if it has timings.
fn timing(cell: &RunCell) -> Option<(Span, f64)> {
    let summary = cell
        .cell
        .compress
        .as_ref()
        .filter(|_| !cell.cell.failed())?;
    Some((Span::of(summary), summary.median_s))
}

/// zstd 1 against `other` on one body.
fn versus(one: &RunCell, other: &RunCell) -> Option<Versus> {
    let ((one_span, one_s), (other_span, other_s)) = (timing(one)?, timing(other)?);
    let speed = if one_span.high_s < other_span.low_s {
        Speed::Faster
    } else if one_span.low_s > other_span.high_s {
        Speed::Slower
    } else {
        Speed::Tie
    };
    Some(Versus {
        bytes_ratio: one.cell.compressed_bytes as f64 / other.cell.compressed_bytes as f64,
        speedup: other_s / one_s,
        speed,
    })
}

/// The finding on every body of the run that has zstd 1, in run order; bodies cut only
/// to place a minimum are left out.
pub(super) fn per_body(m: &Matrix) -> Vec<BodyFinding> {
    let mut names: Vec<&str> = Vec::new();
    for cell in m.run.codec_cells() {
        if cell.payload.cut_from.is_none() && !names.contains(&cell.payload.payload.as_str()) {
            names.push(&cell.payload.payload);
        }
    }
    names
        .into_iter()
        .filter_map(|payload| {
            let one = m.cell(payload, Zstd, 1)?;
            let versus = AGAINST
                .iter()
                .map(|&(codec, level)| versus(&one, &m.cell(payload, codec, level)?))
                .collect();
            Some(BodyFinding {
                payload: payload.to_string(),
                input_bytes: one.input_bytes(),
                versus,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{CellKey, FixtureCell, LoadedRun};
    use crate::stats::Summary;

    fn cell(codec: &str, level: i32, bytes: u64, samples: Vec<f64>) -> FixtureCell {
        let compress = Summary::from_seconds(samples).unwrap();
        let decompress = Summary::for_test(0.001, vec![]);
        FixtureCell::new(
            CellKey::new("body", codec, level),
            10_000,
            bytes,
            compress,
            decompress,
        )
    }

    #[test]
    fn sizes_are_exact_and_speeds_are_judged_on_intervals() {
        let spread = |base: f64| (0..20).map(|i| base + f64::from(i) * 1e-6).collect();
        let run = LoadedRun::of_cells(
            "run.json",
            vec![
                cell("zstd", 1, 1_000, spread(1e-4)),
                // zstd 3: smaller, and its interval overlaps zstd 1's.
                cell("zstd", 3, 900, spread(1.05e-4)),
                cell("brotli", 1, 1_100, spread(3e-4)),
            ],
        );
        let found = per_body(&Matrix { run: &run });
        assert_eq!(found.len(), 1);
        let [zstd3, brotli1, gzip1] = &found[0].versus[..] else {
            panic!("{found:?}");
        };
        let zstd3 = zstd3.unwrap();
        assert!((zstd3.bytes_ratio - 1_000.0 / 900.0).abs() < 1e-12);
        assert_eq!(zstd3.speed, Speed::Tie);
        assert_eq!(brotli1.unwrap().speed, Speed::Faster);
        assert_eq!(*gzip1, None);
    }
}
