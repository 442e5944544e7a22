//! The minimum body size of a setting: the break-even of the gain (time sent as is less
//! time compressed, see [`super::wire`]) between the two measured sizes where it changes
//! sign, by linear interpolation, with the bracket that places it.
//!
//! The break-even is found from the small bodies up: the first size where compressing
//! wins, wins again at the next size, and wins at most sizes from there up. A large
//! body that compresses badly (or whose time was noisy) can lose to sending it as is,
//! but a minimum size cannot help it: placed above it, it would switch compression off
//! for every smaller body. Such bodies are counted (`losses_above`), never followed.

use serde::Serialize;

/// The body size under which this setting loses to sending bodies as they are.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct MinBody {
    /// Compress bodies of at least this many bytes.
    pub bytes: u64,
    /// What the measured sizes say about it.
    pub evidence: Evidence,
    /// Bodies under the minimum where compressing won anyway: the measured gain is not
    /// monotonic in size there (other content, or noise), so the figure is less sure.
    pub wins_below: usize,
    /// Sizes above the minimum where sending as is won: bodies that compress badly, or
    /// noise. They do not move the minimum (see the module documentation).
    pub losses_above: usize,
}

/// What the measured bodies show about a minimum body size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Evidence {
    /// Identity won at `identity_wins` bytes and compression at `compression_wins`, the
    /// next size measured; the minimum is interpolated between them.
    Between {
        /// The largest size measured where sending the body as it is was faster.
        identity_wins: u64,
        /// The next size measured, where compressing won, and won again above it.
        compression_wins: u64,
    },
    /// Compressing won at every size measured: the break-even is below the smallest,
    /// and the minimum is the wire model's estimate from it.
    AtMost {
        /// The smallest body measured.
        smallest: u64,
    },
}

/// The mean gain per size of `points` (size, gain) sorted by size: bodies of one size
/// (the same response captured twice) count as one point.
fn per_size(points: &[(u64, f64)]) -> Vec<(u64, f64)> {
    let mut merged: Vec<(u64, f64, usize)> = Vec::new();
    for &(bytes, gain) in points {
        match merged.last_mut() {
            Some((size, total, count)) if *size == bytes => {
                *total += gain;
                *count += 1;
            }
            _ => merged.push((bytes, gain, 1)),
        }
    }
    merged
        .into_iter()
        .map(|(size, total, count)| (size, total / count as f64))
        .collect()
}

/// The index of the first size, from the smallest up, where compressing wins, wins at
/// the next size (if any), and wins at no fewer sizes than it loses from there up.
fn first_lasting_win(points: &[(u64, f64)]) -> Option<usize> {
    let wins = |from: usize| points[from..].iter().filter(|p| p.1 > 0.0).count();
    (0..points.len()).find(|&at| {
        let next_wins = points.get(at + 1).is_none_or(|p| p.1 > 0.0);
        points[at].1 > 0.0 && next_wins && 2 * wins(at) >= points.len() - at
    })
}

/// The minimum body size for gains measured at `points` (size, gain), sorted by size;
/// `None` when compressing never wins for good.
pub(super) fn min_body(points: &[(u64, f64)]) -> Option<MinBody> {
    let points = &per_size(points)[..];
    let first_win = first_lasting_win(points)?;
    let (win_bytes, win_gain) = points[first_win];
    let wins_below = points[..first_win].iter().filter(|p| p.1 > 0.0).count();
    let losses_above = points[first_win..].iter().filter(|p| p.1 <= 0.0).count();
    let Some(&(loss_bytes, loss_gain)) = first_win.checked_sub(1).map(|i| &points[i]) else {
        return Some(MinBody {
            bytes: win_bytes,
            evidence: Evidence::AtMost {
                smallest: win_bytes,
            },
            wins_below,
            losses_above,
        });
    };
    let share = -loss_gain / (win_gain - loss_gain);
    let crossing = loss_bytes as f64 + share * (win_bytes - loss_bytes) as f64;
    Some(MinBody {
        bytes: (crossing.ceil() as u64).clamp(loss_bytes + 1, win_bytes),
        evidence: Evidence::Between {
            identity_wins: loss_bytes,
            compression_wins: win_bytes,
        },
        wins_below,
        losses_above,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minimum_is_interpolated_where_the_gain_changes_sign() {
        let points = [(290, -2.0e-6), (870, 6.0e-6), (2900, 40.0e-6)];
        let min = min_body(&points).unwrap();
        // A quarter of the way from 290 to 870.
        assert_eq!(min.bytes, 435);
        assert_eq!(
            min.evidence,
            Evidence::Between {
                identity_wins: 290,
                compression_wins: 870
            }
        );
        assert_eq!(min.wins_below, 0);
    }

    #[test]
    fn a_win_below_a_later_loss_is_counted_not_trusted() {
        let points = [(100, 1.0e-6), (290, -2.0e-6), (870, 6.0e-6)];
        let min = min_body(&points).unwrap();
        assert!(min.bytes > 290 && min.bytes <= 870);
        assert_eq!(min.wins_below, 1);
    }

    #[test]
    fn winning_everywhere_bounds_the_minimum_by_the_smallest_size() {
        let min = min_body(&[(870, 1.0e-6), (2900, 9.0e-6)]).unwrap();
        assert_eq!(min.bytes, 870);
        assert_eq!(min.evidence, Evidence::AtMost { smallest: 870 });
    }

    #[test]
    fn bodies_of_one_size_count_as_one_point() {
        // The same 290-byte response captured twice, winning once and losing once.
        let points = [(290, -3.0e-6), (290, 1.0e-6), (870, 6.0e-6)];
        let min = min_body(&points).unwrap();
        assert!(min.bytes > 290 && min.bytes <= 870);
        assert_eq!(min.wins_below, 0);
        let points = [(290, 3.0e-6), (290, -1.0e-6), (870, 6.0e-6)];
        assert_eq!(min_body(&points).unwrap().bytes, 290);
    }

    proptest::proptest! {
        #[test]
        fn any_gains_give_a_minimum_within_the_measured_sizes(
            mut points in proptest::collection::vec((1u64..5000, -1.0f64..1.0), 0..12)
        ) {
            points.sort_by_key(|p| p.0);
            if let Some(min) = min_body(&points) {
                let (smallest, largest) = (points[0].0, points[points.len() - 1].0);
                proptest::prop_assert!(min.bytes >= smallest && min.bytes <= largest);
                if let Evidence::Between { identity_wins, compression_wins } = min.evidence {
                    proptest::prop_assert!(identity_wins < min.bytes);
                    proptest::prop_assert!(min.bytes <= compression_wins);
                }
            }
        }
    }

    #[test]
    fn losing_everywhere_but_once_gives_no_minimum() {
        assert_eq!(
            min_body(&[(290, -1.0e-6), (870, 1.0e-6), (900, -1.0e-6)]),
            None
        );
        assert_eq!(min_body(&[(290, -1.0e-6), (870, -1.0e-6)]), None);
        assert_eq!(min_body(&[]), None);
    }

    #[test]
    fn a_large_body_that_loses_never_moves_the_minimum_up() {
        // br 1 on 15 public files: a 257 KB body that compresses badly loses at the
        // slow end of its interval; the minimum stays where the small bodies put it.
        let mut points = vec![(285, -3.0e-6), (362, -1.0e-6), (1_020, 4.0e-6)];
        points.extend([(4_100, 3.0e-5), (65_000, 4.0e-4), (256_950, -2.0e-4)]);
        points.extend([(383_169, 3.0e-3), (2_400_000, 2.0e-2)]);
        let min = min_body(&points).unwrap();
        assert!(min.bytes > 362 && min.bytes <= 1_020, "{min:?}");
        assert_eq!(min.losses_above, 1);
        // Losing at the largest size does not move it either.
        points.push((3_000_000, -1.0e-3));
        let min = min_body(&points).unwrap();
        assert!(min.bytes > 362 && min.bytes <= 1_020, "{min:?}");
        assert_eq!(min.losses_above, 2);
    }

    #[test]
    fn one_win_among_small_losses_is_not_the_break_even() {
        let points = [(100, 1.0e-6), (200, -1.0e-6), (300, -1.0e-6), (800, 2.0e-6)];
        let min = min_body(&[points[0], points[1], points[2], points[3], (1_600, 5.0e-6)]);
        let min = min.unwrap();
        assert!(min.bytes > 300 && min.bytes <= 800, "{min:?}");
        assert_eq!(min.wins_below, 1);
    }
}
