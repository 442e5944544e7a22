//! Order statistics: the median, and the ranks that bound its confidence interval
//! (Conover, *Practical Nonparametric Statistics*, 3rd ed., §3.2).

/// The median of `values`, sorting them in place; 0 for none. An even count takes the
/// mean of the two middle values.
pub(crate) fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n.is_multiple_of(2) {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    } else {
        values[n / 2]
    }
}

/// The rank `l` (from 1) such that the `l`-th smallest and `l`-th largest of `n` samples
/// bound a confidence interval of the median at level at least `1 − alpha`; `None` when
/// `n` is too small for any. See [`super::summary`]'s
/// documentation.
pub(crate) fn median_ci_rank(n: usize, alpha: f64) -> Option<usize> {
    // Walk the Binomial(n, ½) CDF in log space, so large n does not underflow 2^-n.
    let log_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut log_choose = 0.0; // ln C(n, k)
    let mut cdf = 0.0; // P(B ≤ k)
    let mut rank = None;
    for k in 0..n.div_ceil(2) {
        cdf += (log_choose + log_half_n).exp();
        if cdf > alpha / 2.0 {
            break;
        }
        // P(B ≤ k) ≤ α/2: the (k+1)-th order statistics still give the coverage.
        rank = Some(k + 1);
        log_choose += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_ci_ranks_match_published_tables() {
        // Conover's table / the exact binomial: n = 6 → ranks 1 and 6 (96.9%),
        // n = 10 → 2 and 9 (97.9%), n = 20 → 6 and 15 (95.9%), n = 60 → 22 and 39.
        assert_eq!(median_ci_rank(5, 0.05), None);
        assert_eq!(median_ci_rank(6, 0.05), Some(1));
        assert_eq!(median_ci_rank(10, 0.05), Some(2));
        assert_eq!(median_ci_rank(20, 0.05), Some(6));
        assert_eq!(median_ci_rank(60, 0.05), Some(22));
        // Large n: close to n/2 − 0.98·√n, with no underflow.
        let l = median_ci_rank(1000, 0.05).unwrap();
        assert!((469..=470).contains(&l), "{l}");
    }
}
