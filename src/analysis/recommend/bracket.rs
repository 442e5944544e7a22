//! Placing the minimum body sizes with as few smaller bodies as it takes: which settings
//! the answers use, which brackets are still wide, and where to cut next, by bisection.
//!
//! Each encoding of each answer line (the first and its fallbacks) has a minimum body
//! size. The measured sizes leave it in an open interval: between the size where sending
//! the body as it is won and the next size, where compressing won, or below the smallest
//! size measured when compressing won everywhere. A body cut from the one at the upper
//! end, at the middle of the interval, halves it: the gain of compressing grows with the
//! size, and a cut keeps the content's kind. Bisection stops when an interval is within
//! an eighth of its lower end (the width the gain's noise leaves, on the runs measured
//! here), when no cut lands inside it, or after [`MOST_CUTS`] bodies.

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

/// The fewest bytes a cut body may have: below it the headers outweigh any body.
pub(crate) const SMALLEST_CUT: u64 = 64;

/// The most smaller bodies one answer measures.
pub(crate) const MOST_CUTS: usize = 12;

/// Whether `interval` is as narrow as it is worth measuring: within an eighth of its
/// lower end, or 32 bytes.
pub(crate) fn narrow((low, high): (u64, u64)) -> bool {
    high - low <= (low / 8).max(32)
}

/// Where the first interval still wide and not `given_up` would be halved: the interval
/// and the size to cut at, its middle. `None` when every interval is narrow enough.
pub(crate) fn next_cut(
    intervals: &[(u64, u64)],
    given_up: &[(u64, u64)],
) -> Option<((u64, u64), u64)> {
    intervals
        .iter()
        .copied()
        .filter(|&i| !narrow(i) && !given_up.contains(&i))
        .find_map(|(low, high)| {
            let middle = low + (high - low) / 2;
            (middle >= SMALLEST_CUT).then_some(((low, high), middle))
        })
}

/// The most bodies bisection may still measure: per interval still to narrow, the
/// halvings it takes to come within the width [`narrow`] accepts; at most what
/// [`MOST_CUTS`] leaves after `done`.
pub(crate) fn most_left(intervals: &[(u64, u64)], given_up: &[(u64, u64)], done: usize) -> usize {
    let halvings = |(low, high): (u64, u64)| {
        let tolerance = (low / 8).max(32);
        let ratio = (high - low) as f64 / tolerance as f64;
        ratio.log2().ceil().max(1.0) as usize
    };
    let steps: usize = intervals
        .iter()
        .copied()
        .filter(|&i| !narrow(i) && !given_up.contains(&i))
        .map(halvings)
        .sum();
    steps.min(MOST_CUTS.saturating_sub(done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_cut_halves_the_first_wide_interval() {
        assert_eq!(
            next_cut(&[(387, 10_075)], &[]),
            Some(((387, 10_075), 5_231))
        );
        assert_eq!(next_cut(&[(0, 204)], &[]), Some(((0, 204), 102)));
        // Within an eighth of 4,000, or given up: nothing to cut.
        assert_eq!(next_cut(&[(4_000, 4_400)], &[]), None);
        assert_eq!(next_cut(&[(387, 10_075)], &[(387, 10_075)]), None);
        // Below 64 bytes headers decide.
        assert_eq!(next_cut(&[(0, 100)], &[]), None);
    }

    #[test]
    fn bisection_narrows_every_interval_in_few_bodies() {
        // A gain that turns positive at 3,000 bytes for one setting and 700 for another,
        // between bodies of 387 and 10,075 bytes.
        let crossings = [3_000u64, 700];
        let mut measured: Vec<u64> = vec![387, 10_075];
        let mut cuts = 0;
        loop {
            let intervals: Vec<(u64, u64)> = crossings
                .iter()
                .map(|&crossing| {
                    let below = measured.iter().copied().filter(|&s| s < crossing).max();
                    let above = measured.iter().copied().filter(|&s| s >= crossing).min();
                    (below.unwrap_or(0), above.unwrap_or(100_000))
                })
                .collect();
            let bound = most_left(&intervals, &[], cuts);
            let Some((_, size)) = next_cut(&intervals, &[]) else {
                assert_eq!(bound, 0);
                break;
            };
            assert!(bound >= 1);
            measured.push(size);
            cuts += 1;
        }
        measured.sort_unstable();
        let around = |crossing: u64| {
            let below = measured
                .iter()
                .copied()
                .filter(|&s| s < crossing)
                .max()
                .unwrap();
            let above = measured
                .iter()
                .copied()
                .filter(|&s| s >= crossing)
                .min()
                .unwrap();
            narrow((below, above))
        };
        assert!(around(3_000) && around(700), "{measured:?}");
        assert!(cuts <= 12, "{cuts} bodies: {measured:?}");
    }
}
