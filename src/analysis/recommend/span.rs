//! The interval a time is known to lie in, and the rule that ranks by intervals.
//!
//! A cell's time is its median's 95% confidence interval (order statistics, see
//! [`crate::stats::Summary`]); with fewer than 6 samples, where there is none, the
//! range from its fastest to its slowest sample; from a CSV without samples, the
//! median alone. Each is then widened at both ends, by [`BETWEEN_RUNS`] or, without an
//! interval of its own, [`BETWEEN_RUNS_FEW`]: one run's
//! interval says where that run's median lies, not where the next run's will, and an
//! answer must hold for both. Sums of intervals add their ends, which bounds the sum at
//! least as widely as each part.
//!
//! Every decision `recommend` makes on time reads the ends of intervals, never a
//! median: a run whose medians fell anywhere else inside their intervals gives the same
//! answer. Two candidates whose intervals overlap are tied; a tie goes to the one that
//! sends fewer bytes (within 1% is even), then to the lower setting in the run's order. This is the rule
//! hyperfine's users apply by eye ("± overlaps, call it even"), made explicit.

use serde::Serialize;

use crate::stats::Summary;
use crate::vocab::CellId;

/// How far a cell's median moves from one run to the next on a shared 2-core VM: one
/// standard deviation of the change, 7 to 10% over 10 runs of the CI settings here
/// ([`crate::results::Timing::judged`]), rounded up.
pub(crate) const BETWEEN_RUNS: f64 = 0.10;

/// The same for a time from fewer than 6 samples, which has no interval of its own: the
/// 95th percentile of the change between four `real-json --quick` runs here, where such
/// cells (one sample of zstd 18 on a 2.2 MB body) moved by up to 25%.
pub(crate) const BETWEEN_RUNS_FEW: f64 = 0.25;

/// Bytes sent that differ by less than this share are even: zstd 16 and 17 differ by
/// 0.4% on a 2.2 MB GeoJSON body, which no link notices, while the higher level takes
/// 13% longer to compress and sits nearer a budget, where noise moves the answer from
/// run to run. An even tie goes to the lower setting.
pub(crate) const BYTES_EVEN: f64 = 0.01;

/// Seconds known to lie between `low_s` and `high_s`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct Span {
    /// The fast end.
    pub low_s: f64,
    /// The slow end.
    pub high_s: f64,
}

impl Span {
    /// An exact time: a transfer the wire model computes.
    pub(crate) fn exactly(seconds: f64) -> Span {
        Span {
            low_s: seconds,
            high_s: seconds,
        }
    }

    /// The interval of one cell's median time, widened by the change between runs (see
    /// the module documentation).
    pub(crate) fn of(summary: &Summary) -> Span {
        let (low_s, high_s, widen) = match (summary.median_ci95_low_s, summary.median_ci95_high_s) {
            (Some(low_s), Some(high_s)) => (low_s, high_s, BETWEEN_RUNS),
            _ if !summary.samples_s.is_empty() => (
                summary.min_s.min(summary.median_s),
                summary.max_s.max(summary.median_s),
                BETWEEN_RUNS_FEW,
            ),
            _ => (summary.median_s, summary.median_s, BETWEEN_RUNS_FEW),
        };
        Span {
            low_s: low_s * (1.0 - widen),
            high_s: high_s * (1.0 + widen),
        }
    }

    /// This interval divided by `count`, for a mean.
    pub(crate) fn per(self, count: f64) -> Span {
        Span {
            low_s: self.low_s / count,
            high_s: self.high_s / count,
        }
    }
}

impl std::ops::Add for Span {
    type Output = Span;

    fn add(self, other: Span) -> Span {
        Span {
            low_s: self.low_s + other.low_s,
            high_s: self.high_s + other.high_s,
        }
    }
}

impl std::iter::Sum for Span {
    fn sum<I: Iterator<Item = Span>>(spans: I) -> Span {
        spans.fold(Span::exactly(0.0), |a, b| a + b)
    }
}

/// A candidate as the ranking sees it.
pub(crate) trait Ranked {
    /// Its time.
    fn span(&self) -> Span;
    /// The bytes it sends, which settle a tie.
    fn bytes(&self) -> f64;
    /// The setting, which settles a tie of bytes.
    fn id(&self) -> CellId;
}

/// The index of the pick among `items` and the settings it tied with. The leader is the
/// candidate whose slow end is the earliest; every candidate whose fast end comes no
/// later is tied with it. Among the tied, those within [`BYTES_EVEN`] of the fewest bytes
/// sent are even, and the first of them in the run's order (the lower level) is the pick.
pub(crate) fn pick<T: Ranked>(items: &[T]) -> Option<(usize, Vec<CellId>)> {
    let leader_high = items.iter().map(|i| i.span().high_s).reduce(f64::min)?;
    let tied: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].span().low_s <= leader_high)
        .collect();
    let fewest = tied.iter().map(|&i| items[i].bytes()).reduce(f64::min)?;
    let &chosen = tied
        .iter()
        .filter(|&&i| items[i].bytes() <= fewest * (1.0 + BYTES_EVEN))
        .min_by_key(|&&i| items[i].id())?;
    let others = tied
        .into_iter()
        .filter(|&i| i != chosen)
        .map(|i| items[i].id())
        .collect();
    Some((chosen, others))
}

/// `items` in the order the ranking prefers them, each with the settings it tied with
/// among those still left when it was picked.
pub(crate) fn order<T: Ranked>(mut items: Vec<T>) -> Vec<(T, Vec<CellId>)> {
    let mut ordered = Vec::with_capacity(items.len());
    while let Some((chosen, tied)) = pick(&items) {
        ordered.push((items.remove(chosen), tied));
    }
    ordered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::{CodecKind, Library, Variant};

    struct Candidate(f64, f64, f64, i32);

    impl Ranked for Candidate {
        fn span(&self) -> Span {
            Span {
                low_s: self.0,
                high_s: self.1,
            }
        }
        fn bytes(&self) -> f64 {
            self.2
        }
        fn id(&self) -> CellId {
            CellId {
                codec: CodecKind::Zstd,
                library: Library::Libzstd,
                variant: Variant::Fresh,
                level: self.3,
            }
        }
    }

    #[test]
    fn overlapping_times_are_a_tie_that_fewer_bytes_settle() {
        // zstd 1 looks faster, but its interval overlaps zstd 3's, which sends less.
        let items = [Candidate(1.0, 1.4, 500.0, 1), Candidate(1.3, 1.6, 400.0, 3)];
        let (chosen, tied) = pick(&items).unwrap();
        assert_eq!(chosen, 1);
        assert_eq!(tied.len(), 1);
        assert_eq!(tied[0].level, 1);
    }

    #[test]
    fn bytes_within_a_percent_are_even_and_the_lower_setting_wins() {
        let items = [
            Candidate(1.0, 1.4, 400.0, 17),
            Candidate(1.1, 1.3, 402.0, 16),
            Candidate(1.2, 1.5, 410.0, 15),
        ];
        let (chosen, tied) = pick(&items).unwrap();
        assert_eq!(items[chosen].3, 16);
        let levels: Vec<i32> = tied.iter().map(|id| id.level).collect();
        assert_eq!(levels, [17, 15]);
    }

    #[test]
    fn a_clear_lead_wins_whatever_it_sends() {
        let items = [Candidate(1.0, 1.2, 500.0, 1), Candidate(1.3, 1.6, 400.0, 3)];
        assert_eq!(pick(&items), Some((0, vec![])));
        assert_eq!(pick::<Candidate>(&[]), None);
    }

    #[test]
    fn each_next_is_picked_again_among_the_rest() {
        // zstd 6 ties zstd 1 and sends less; zstd 9 then trails zstd 1 clearly.
        let items = [
            Candidate(2.0, 3.0, 300.0, 6),
            Candidate(1.0, 2.5, 900.0, 1),
            Candidate(2.6, 2.7, 200.0, 9),
        ];
        let ordered: Vec<i32> = order(items.into_iter().collect())
            .iter()
            .map(|(c, _)| c.3)
            .collect();
        assert_eq!(ordered, [6, 1, 9]);
    }

    #[test]
    fn a_span_is_the_interval_or_range_widened_by_the_change_between_runs() {
        let close = |span: Span, low_s: f64, high_s: f64| {
            (span.low_s - low_s).abs() < 1e-12 && (span.high_s - high_s).abs() < 1e-12
        };
        let few = Summary::from_seconds(vec![3.0, 1.0, 2.0]).unwrap();
        assert!(close(Span::of(&few), 0.75, 3.75), "{:?}", Span::of(&few));
        let one = Summary::from_seconds(vec![2.0]).unwrap();
        assert!(close(Span::of(&one), 1.5, 2.5));
        let many = Summary::from_seconds((1..=20).map(f64::from).collect()).unwrap();
        let span = Span::of(&many);
        assert!(span.low_s > 0.9 && span.high_s < 22.0, "{span:?}");
    }
}
