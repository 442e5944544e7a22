//! Placing the minimum body sizes with as few smaller bodies as it takes: which settings
//! the answers use, which sizes still lie inside an answer's bracket, and which of them
//! to measure next, by bisection.
//!
//! Each encoding of each answer line (the first and its fallbacks) has a minimum body
//! size. The measured sizes leave it in an open interval: between the size where sending
//! the body as it is won and the next size, where compressing won, or below the smallest
//! size measured when compressing won everywhere. A size cut from the smallest payload
//! that falls inside such an interval would narrow it. The gain of compressing grows with
//! the size, so measuring the middle candidate of an interval halves it: a bracket among
//! `n` candidates takes about log2(n + 1) bodies, not `n`.

use super::{Answer, Evidence};
use crate::vocab::CellId;

/// Every setting `answers` name, first encodings and fallbacks, each once: the settings a
/// smaller body is measured with.
pub(crate) fn settings(answers: &[Answer]) -> Vec<CellId> {
    let mut ids: Vec<CellId> = answers
        .iter()
        .flat_map(|a| a.lines.iter())
        .flat_map(|line| line.encodings.iter().map(|e| e.id))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// Each encoding's open interval (exclusive bounds, in bytes) that holds its minimum body
/// size: from the size where sending as is won (0 when none did) to the size where
/// compressing won from.
pub(crate) fn open_intervals(answers: &[Answer]) -> Vec<(u64, u64)> {
    let mut intervals: Vec<(u64, u64)> = answers
        .iter()
        .flat_map(|a| a.lines.iter())
        .flat_map(|line| line.encodings.iter())
        .map(|e| match e.min_body.evidence {
            Evidence::Between {
                identity_wins,
                compression_wins,
            } => (identity_wins, compression_wins),
            Evidence::AtMost { smallest } => (0, smallest),
        })
        .collect();
    intervals.sort_unstable();
    intervals.dedup();
    intervals
}

/// The sizes of `candidates` strictly inside `interval`.
fn inside(interval: (u64, u64), candidates: &[u64]) -> Vec<u64> {
    let mut sizes: Vec<u64> = candidates
        .iter()
        .copied()
        .filter(|&size| interval.0 < size && size < interval.1)
        .collect();
    sizes.sort_unstable();
    sizes
}

/// The size to measure next out of `candidates` (the cut sizes not measured yet): the
/// middle one inside the first interval that holds any, so that measuring it halves
/// that interval. `None` when every interval is as narrow as the candidates allow.
pub(crate) fn next_size(intervals: &[(u64, u64)], candidates: &[u64]) -> Option<u64> {
    intervals
        .iter()
        .map(|&interval| inside(interval, candidates))
        .find(|sizes| !sizes.is_empty())
        .map(|sizes| sizes[sizes.len() / 2])
}

/// The most bodies bisection may still measure: per interval, log2 of its candidates
/// plus one, rounded up, but never more than the candidates inside any interval.
pub(crate) fn most_left(intervals: &[(u64, u64)], candidates: &[u64]) -> usize {
    let steps: usize = intervals
        .iter()
        .map(|&interval| inside(interval, candidates).len())
        .map(|n| (usize::BITS - n.leading_zeros()) as usize)
        .sum();
    let any = candidates
        .iter()
        .filter(|&&size| intervals.iter().any(|&i| !inside(i, &[size]).is_empty()))
        .count();
    steps.min(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_size_examples() {
        let cuts = [290, 580, 1_160, 2_320, 4_640, 9_280];
        assert_eq!(next_size(&[(0, 298_727)], &cuts), Some(2_320));
        assert_eq!(next_size(&[(290, 1_160)], &cuts), Some(580));
        assert_eq!(next_size(&[(290, 580)], &cuts), None);
    }

    #[test]
    fn most_left_examples() {
        let cuts = [290, 580, 1_160, 2_320, 4_640, 9_280, 18_560];
        assert_eq!(most_left(&[(0, 298_727)], &cuts), 3);
        assert_eq!(most_left(&[(290, 1_160), (0, 298_727)], &cuts), 4);
        assert_eq!(most_left(&[(290, 580)], &cuts), 0);
    }

    #[test]
    fn bisection_brackets_every_interval_in_few_bodies() {
        // A gain that turns positive at 3,000 bytes for one setting and 700 for another.
        let cuts: Vec<u64> = (0..10).map(|i| 128 << i).collect();
        let crossings = [3_000u64, 700];
        let mut measured: Vec<u64> = Vec::new();
        loop {
            let intervals: Vec<(u64, u64)> = crossings
                .iter()
                .map(|&crossing| {
                    let below = measured.iter().copied().filter(|&s| s < crossing).max();
                    let above = measured.iter().copied().filter(|&s| s >= crossing).min();
                    (below.unwrap_or(0), above.unwrap_or(100_000))
                })
                .collect();
            let left: Vec<u64> = cuts
                .iter()
                .copied()
                .filter(|s| !measured.contains(s))
                .collect();
            let bound = most_left(&intervals, &left);
            let Some(next) = next_size(&intervals, &left) else {
                assert_eq!(bound, 0);
                break;
            };
            assert!(bound >= 1);
            measured.push(next);
        }
        measured.sort_unstable();
        // 2,048 < 3,000 <= 4,096 and 512 < 700 <= 1,024, from at most 6 bodies of the 10.
        assert!(measured.contains(&2_048) && measured.contains(&4_096));
        assert!(measured.contains(&512) && measured.contains(&1_024));
        assert!(measured.len() <= 6, "{measured:?}");
    }

    #[test]
    fn nothing_is_measured_when_no_cut_size_lies_inside() {
        assert_eq!(next_size(&[], &[290, 580]), None);
        assert_eq!(next_size(&[(290, 298_727)], &[]), None);
        assert_eq!(most_left(&[(0, 290)], &[290, 580]), 0);
    }
}
