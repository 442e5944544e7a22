//! The shift between two builds measured in pairs: the Hodges–Lehmann estimate of the
//! pairs' differences and its Wilcoxon signed-rank confidence interval, or their median
//! and its sign-test interval, whichever interval is narrower.
//!
//! Each pair gives one difference (for `ab`, the log of candidate time ÷ baseline time,
//! both measured seconds apart). The estimate is the median of the Walsh averages (every
//! mean of two differences, each difference with itself included); the interval takes the
//! Walsh averages at the ranks the signed-rank statistic's exact distribution gives. It
//! assumes only that the differences are symmetric about their centre, so one slow batch
//! moves it far less than it would a mean, and it is exact for any count of pairs.
//!
//! Where most differences sit close together and the rest far off on both sides (a
//! worker that runs some 12% slower or faster for its whole life, as Rust brotli's
//! decoder does here), Walsh averages spread the far ones inward and widen the interval
//! threefold; the median's sign-test interval, taken between order statistics at the
//! binomial's ranks, stays within the close ones. Choosing the narrower looks at widths
//! alone; over this machine's own ratios, made symmetric and redrawn, it left out the
//! centre 5.0% of the time at the 95% level, each alone 4% (scripts/interval-coverage.py).
//!
//! References: M. Hollander, D. A. Wolfe and E. Chicken, *Nonparametric Statistical
//! Methods*, 3rd ed. (Wiley, 2014), §3.1–3.3; J. L. Hodges and E. L. Lehmann, "Estimates
//! of location based on rank tests", *Ann. Math. Statist.* 34 (1963).

use super::order::{median, median_ci_rank};

/// The centre of paired differences and its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairedShift {
    /// The estimate: Hodges–Lehmann's or the median, as `centre` says.
    pub estimate: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
    /// Which estimate and interval these are.
    pub centre: Centre,
}

/// The estimate a shift reads, with the interval that goes with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Centre {
    /// The median of Walsh averages, with the signed-rank interval.
    #[default]
    HodgesLehmann,
    /// The median, with the sign-test interval.
    Median,
}

/// The narrower of [`paired_shift`] and [`median_shift`]; `None` with fewer than 6
/// differences at the 95% level.
pub(crate) fn narrower_shift(differences: &[f64], alpha: f64) -> Option<PairedShift> {
    let width = |shift: &PairedShift| shift.high - shift.low;
    match (
        paired_shift(differences, alpha),
        median_shift(differences, alpha),
    ) {
        (Some(ranks), Some(signs)) if width(&signs) < width(&ranks) => Some(signs),
        (ranks, signs) => ranks.or(signs),
    }
}

/// The median of `differences` with its `1 - alpha` sign-test interval: the order
/// statistics at the ranks [`median_ci_rank`] gives, as `run`'s median interval takes
/// them. `None` with fewer than 6 differences at the 95% level.
fn median_shift(differences: &[f64], alpha: f64) -> Option<PairedShift> {
    let n = differences.len();
    let critical = median_ci_rank(n, alpha)?;
    let mut sorted = differences.to_vec();
    let estimate = median(&mut sorted);
    Some(PairedShift {
        estimate,
        low: sorted[critical - 1],
        high: sorted[n - critical],
        centre: Centre::Median,
    })
}

/// The shift of `differences` with its `1 - alpha` interval; `None` with too few pairs
/// for such an interval (fewer than 6 at the 95% level).
fn paired_shift(differences: &[f64], alpha: f64) -> Option<PairedShift> {
    let n = differences.len();
    let critical = signed_rank_critical(n, alpha)?;
    let walsh = walsh_averages(differences);
    let middle = walsh.len() / 2;
    let estimate = match walsh.len() % 2 {
        1 => walsh[middle],
        _ => (walsh[middle - 1] + walsh[middle]) / 2.0,
    };
    Some(PairedShift {
        estimate,
        low: walsh[critical - 1],
        high: walsh[walsh.len() - critical],
        centre: Centre::HodgesLehmann,
    })
}

/// Every mean of two of `values` (each with itself too), sorted.
fn walsh_averages(values: &[f64]) -> Vec<f64> {
    let mut averages = Vec::with_capacity(values.len() * (values.len() + 1) / 2);
    for (i, a) in values.iter().enumerate() {
        averages.extend(values[i..].iter().map(|b| (a + b) / 2.0));
    }
    averages.sort_by(f64::total_cmp);
    averages
}

/// The largest rank `c` (from 1) with P(T+ ≤ c - 1) ≤ `alpha` / 2, where T+ is the
/// signed-rank statistic of `n` pairs with no shift; `None` when even `c` = 1 is too
/// likely, so that no interval at that level exists.
fn signed_rank_critical(n: usize, alpha: f64) -> Option<usize> {
    let most = n * (n + 1) / 2;
    // ways[s]: the subsets of the ranks 1..=n that sum to s; each is equally likely.
    let mut ways = vec![0.0_f64; most + 1];
    ways[0] = 1.0;
    for rank in 1..=n {
        for sum in (rank..=most).rev() {
            ways[sum] += ways[sum - rank];
        }
    }
    let total = 2f64.powi(n as i32);
    let mut below = 0.0;
    let mut critical = 0;
    for (sum, count) in ways.iter().enumerate() {
        below += count / total;
        if below > alpha / 2.0 {
            break;
        }
        critical = sum + 1;
    }
    (critical >= 1).then_some(critical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_ranks_match_the_published_table() {
        // Hollander, Wolfe and Chicken, Table A.4, two-sided 95%: n = 6 → 1, 10 → 9,
        // 20 → 53 (the lower critical value of T+ plus one).
        assert_eq!(signed_rank_critical(5, 0.05), None);
        assert_eq!(signed_rank_critical(6, 0.05), Some(1));
        assert_eq!(signed_rank_critical(10, 0.05), Some(9));
        assert_eq!(signed_rank_critical(20, 0.05), Some(53));
    }

    #[test]
    fn the_estimate_is_the_median_of_walsh_averages_and_ignores_one_outlier() {
        let differences = [0.05, 0.04, 0.06, 0.05, 0.045, 0.055, 0.05, 0.9];
        let shift = paired_shift(&differences, 0.05).unwrap();
        assert!((shift.estimate - 0.05125).abs() < 1e-9, "{shift:?}");
        assert!(shift.low > 0.04 && shift.high < 0.5, "{shift:?}");
        assert!(paired_shift(&differences[..5], 0.05).is_none());
    }

    #[test]
    fn sign_test_ranks_match_the_binomial_table() {
        // Two-sided 95%: n = 6 → ranks 1 and 6, 10 → 2 and 9, 20 → 6 and 15 (the exact
        // binomial, as `super::order`'s test gives them).
        let ranks = |n: usize| {
            let values: Vec<f64> = (1..=n).map(|v| v as f64).collect();
            median_shift(&values, 0.05).map(|s| (s.low, s.high, s.estimate))
        };
        assert_eq!(ranks(5), None);
        assert_eq!(ranks(6), Some((1.0, 6.0, 3.5)));
        assert_eq!(ranks(10), Some((2.0, 9.0, 5.5)));
        assert_eq!(ranks(20), Some((6.0, 15.0, 10.5)));
    }

    #[test]
    fn a_crowd_with_far_ones_on_both_sides_reads_on_the_median() {
        // Rust brotli's decompression of small, this build against itself on CPU time
        // (ab, busy loop on the other core): most pairs within 0.6% of even, the rest
        // with one worker some 12% slower or faster for its whole life.
        let ratios = [
            0.999, 1.154, 0.993, 1.115, 1.0, 1.125, 1.13, 1.004, 1.002, 0.996, 1.001, 1.001, 0.867,
            1.0, 1.006, 0.998, 1.003, 0.997, 1.125, 0.995, 1.115, 1.003, 0.888, 0.991, 1.151,
            0.994, 1.0, 0.893, 1.002, 0.918,
        ];
        let differences: Vec<f64> = ratios.iter().map(|r: &f64| r.ln()).collect();
        let ranks = paired_shift(&differences, 0.05).unwrap();
        let chosen = narrower_shift(&differences, 0.05).unwrap();
        assert_eq!(chosen.centre, Centre::Median);
        assert!(chosen.high - chosen.low < 0.01, "{chosen:?}");
        assert!(
            ranks.high - ranks.low > 3.0 * (chosen.high - chosen.low),
            "{ranks:?}"
        );
        // Spread evenly, the signed-rank interval is the narrower.
        let even: Vec<f64> = (0..24).map(|i| (i as f64 - 11.5) * 0.001).collect();
        assert_eq!(
            narrower_shift(&even, 0.05).unwrap().centre,
            Centre::HodgesLehmann
        );
    }

    #[test]
    fn with_no_shift_the_interval_holds_zero() {
        let differences = [
            0.01, -0.02, 0.015, -0.01, 0.0, 0.005, -0.005, 0.02, -0.015, 0.01,
        ];
        let shift = paired_shift(&differences, 0.05).unwrap();
        assert!(shift.low < 0.0 && shift.high > 0.0, "{shift:?}");
    }
}
