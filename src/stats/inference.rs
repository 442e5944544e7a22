//! Inference from samples: the standard errors of a median and of a low quantile, the
//! normal quantile for significance bands, a sample standard deviation from running
//! sums, and nearest-rank percentiles for latencies.
//!
//! A quantile's standard error is √(p(1 − p)/n) ÷ f(Q(p)), the density at the quantile
//! estimated by the difference quotient of two neighbouring sample quantiles,
//! (Q(p + h) − Q(p − h)) ÷ 2h: Siddiqui (1960) and Bloch & Gastwirth (1968); see also
//! Koenker, *Quantile Regression* (2005), §3.4.
//!
//! The normal quantile is Acklam's rational approximation, written here rather than
//! taken from `statrs`: forty lines, tested to 1e-6 against tabulated values, against a
//! dependency tree for one function.

use super::order::median;

/// The `p`-quantile (0 ≤ p ≤ 1) of `sorted` samples, interpolating linearly between the
/// two nearest (Hyndman & Fan's type 7, as R and NumPy compute it by default).
pub(crate) fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let position = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let low = position.floor() as usize;
    let high = (low + 1).min(sorted.len() - 1);
    sorted[low] + (sorted[high] - sorted[low]) * (position - low as f64)
}

/// Relative standard error of the `p`-quantile of `sorted` samples, with the density
/// estimated over `p ± h` (clamped to 0..1); `None` with fewer than 3 samples or a
/// quantile of 0.
pub(crate) fn quantile_relative_standard_error(sorted: &[f64], p: f64, h: f64) -> Option<f64> {
    let n = sorted.len();
    let value = quantile(sorted, p);
    if n < 3 || value <= 0.0 {
        return None;
    }
    let (low, high) = ((p - h).max(0.0), (p + h).min(1.0));
    let spread_per_probability = (quantile(sorted, high) - quantile(sorted, low)) / (high - low);
    Some((p * (1.0 - p) / n as f64).sqrt() * spread_per_probability / value)
}

/// Relative standard error of the median of `samples`, whose median is `median`; `None`
/// with fewer than 3 samples.
///
/// The spread is the median absolute deviation scaled by 1.4826, which estimates the
/// standard deviation robustly (a preempted iteration does not inflate it). The median's
/// standard error is then about 1.2533 σ / √n (its asymptotic efficiency against the
/// mean, √(π/2)). Both are textbook: Rousseeuw & Croux (1993) for the MAD, Kendall &
/// Stuart for the median's variance.
pub(crate) fn median_relative_standard_error(samples: &[f64], median_value: f64) -> Option<f64> {
    let n = samples.len();
    if n < 3 || median_value <= 0.0 {
        return None;
    }
    let mut deviations: Vec<f64> = samples.iter().map(|s| (s - median_value).abs()).collect();
    let mad = median(&mut deviations);
    Some(1.2533 * 1.4826 * mad / median_value / (n as f64).sqrt())
}

/// Sample standard deviation (n − 1) from a count, a sum and a sum of squares.
pub(crate) fn sample_sd(n: usize, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    ((sum_sq - sum * sum / n) / (n - 1.0)).max(0.0).sqrt()
}

/// The standard normal quantile function Φ⁻¹(p), for 0 < p < 1, by Acklam's rational
/// approximation (relative error below 1.15 × 10⁻⁹): P. J. Acklam, "An algorithm for
/// computing the inverse normal cumulative distribution function" (2003).
pub(crate) fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let p = p.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The `p`-th percentile (0 < p ≤ 100) of sorted `values` by the nearest-rank method.
pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles() {
        assert!((normal_quantile(0.5)).abs() < 1e-9);
        assert!((normal_quantile(0.975) - 1.959_963_985).abs() < 1e-6);
        assert!((normal_quantile(0.95) - 1.644_853_627).abs() < 1e-6);
        assert!((normal_quantile(1.0 - 0.05 / 60.0) - 3.143_980).abs() < 1e-4);
        assert!((normal_quantile(0.001) + 3.090_232_306).abs() < 1e-6);
    }

    #[test]
    fn standard_error_of_the_median_from_the_mad() {
        let tight = [9.0, 10.0, 11.0, 10.0, 10.0, 9.0, 11.0, 10.0, 10.0];
        // Deviations 1,0,1,0,0,1,1,0,0: MAD 0.
        assert_eq!(median_relative_standard_error(&tight, 10.0), Some(0.0));
        // Deviations 2,2,0,1,1: MAD 1.
        let se = median_relative_standard_error(&[8.0, 12.0, 10.0, 9.0, 11.0], 10.0).unwrap();
        assert!((se - 1.2533 * 1.4826 * 0.1 / 5f64.sqrt()).abs() < 1e-12);
        assert_eq!(median_relative_standard_error(&[1.0, 2.0], 1.0), None);
    }

    #[test]
    fn interpolated_quantiles_and_their_standard_error() {
        let sorted: Vec<f64> = (1..=11).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.0), 1.0);
        assert_eq!(quantile(&sorted, 0.1), 2.0);
        assert_eq!(quantile(&sorted, 0.15), 2.5);
        assert_eq!(quantile(&sorted, 1.0), 11.0);
        // Uniform spacing: density 1 / 10 per unit of p, so Q(0.2) − Q(0.0) = 2 over 0.2.
        let se = quantile_relative_standard_error(&sorted, 0.1, 0.1).unwrap();
        let expected = (0.1 * 0.9 / 11.0_f64).sqrt() * 10.0 / 2.0;
        assert!((se - expected).abs() < 1e-12, "{se} vs {expected}");
        assert_eq!(
            quantile_relative_standard_error(&[1.0, 2.0], 0.1, 0.1),
            None
        );
    }

    #[test]
    fn nearest_rank_percentiles() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!(percentile(&sorted, 50.0), 5.0);
        assert_eq!(percentile(&sorted, 90.0), 9.0);
        assert_eq!(percentile(&sorted, 99.0), 10.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
