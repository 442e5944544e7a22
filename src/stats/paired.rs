//! The shift between two builds measured in pairs: the Hodges–Lehmann estimate of the
//! pairs' differences and its Wilcoxon signed-rank confidence interval.
//!
//! Each pair gives one difference (for `ab`, the log of candidate time ÷ baseline time,
//! both measured seconds apart). The estimate is the median of the Walsh averages (every
//! mean of two differences, each difference with itself included); the interval takes the
//! Walsh averages at the ranks the signed-rank statistic's exact distribution gives. It
//! assumes only that the differences are symmetric about their centre, so one slow batch
//! moves it far less than it would a mean, and it is exact for any count of pairs.
//!
//! References: M. Hollander, D. A. Wolfe and E. Chicken, *Nonparametric Statistical
//! Methods*, 3rd ed. (Wiley, 2014), §3.1–3.3; J. L. Hodges and E. L. Lehmann, "Estimates
//! of location based on rank tests", *Ann. Math. Statist.* 34 (1963).

/// The centre of paired differences and its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairedShift {
    /// The Hodges–Lehmann estimate.
    pub estimate: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

/// The shift of `differences` with its `1 - alpha` interval; `None` with too few pairs
/// for such an interval (fewer than 6 at the 95% level).
pub(crate) fn paired_shift(differences: &[f64], alpha: f64) -> Option<PairedShift> {
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
    fn with_no_shift_the_interval_holds_zero() {
        let differences = [
            0.01, -0.02, 0.015, -0.01, 0.0, 0.005, -0.005, 0.02, -0.015, 0.01,
        ];
        let shift = paired_shift(&differences, 0.05).unwrap();
        assert!(shift.low < 0.0 && shift.high > 0.0, "{shift:?}");
    }
}
