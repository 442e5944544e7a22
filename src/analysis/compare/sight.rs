//! What a comparison could have seen: for each speed, the smallest slowdown its verdict
//! would have called a regression, given its threshold and noise band. A pass whose
//! cells could only flag a 2x slowdown says so, rather than reading as a clean pass.
//!
//! A speed is regressed when its log change lies below −(ln(1 + threshold) + band)
//! (see [`super::verdict`]), so the smallest slowdown it could flag, as a time ratio
//! minus one, is (1 + threshold) · e^band − 1: the same reading as `ab`'s.

use super::comparison::Comparison;

/// The slowdown a passing verdict should be able to see, as a time ratio: past it, a
/// pass that could have missed it says so (compare's page, `ab`'s report).
pub(crate) const MUST_SEE: f64 = 2.0;
use super::row::SpeedChange;

impl SpeedChange {
    /// Whether its timings had samples, but fewer than `fewest`: too few for any verdict.
    pub(crate) fn too_few_samples(&self, fewest: usize) -> bool {
        (1..fewest).contains(&self.samples)
    }

    /// The smallest slowdown (time ratio − 1) this speed's verdict could have flagged;
    /// `None` when it had too few samples for any verdict (`fewest`).
    pub(crate) fn could_see(&self, threshold: f64, fewest: usize) -> Option<f64> {
        if self.too_few_samples(fewest) {
            return None;
        }
        Some((1.0 + threshold) * self.noise.unwrap_or(0.0).exp() - 1.0)
    }
}

/// How much a whole comparison could see, over its speeds other than the reference.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sight {
    /// Speeds judged.
    pub speeds: usize,
    /// Speeds that could flag no slowdown at all: too few samples.
    pub blind: usize,
    /// The median speed's smallest flaggable slowdown; `None` without one.
    pub median: Option<f64>,
    /// The least sensitive speed's; `None` without one.
    pub worst: Option<f64>,
}

impl Sight {
    /// Whether a slowdown of `factor` − 1 (e.g. 1.0 for 2x) might have passed unseen.
    pub(crate) fn could_miss(&self, factor: f64) -> bool {
        self.blind > 0 || self.worst.is_some_and(|w| w >= factor - 1.0)
    }
}

impl Comparison {
    /// What the comparison could have seen: see [`Sight`].
    pub(crate) fn sight(&self) -> Sight {
        let mut seen = Vec::new();
        let mut speeds = 0;
        for row in self.rows.iter().filter(|r| !r.is_reference) {
            for change in row.speeds.iter().filter_map(|(_, s)| s.as_ref()) {
                speeds += 1;
                seen.extend(change.could_see(self.threshold, self.samples_for_a_verdict));
            }
        }
        seen.sort_by(f64::total_cmp);
        Sight {
            speeds,
            blind: speeds - seen.len(),
            median: (!seen.is_empty()).then(|| seen[seen.len() / 2]),
            worst: seen.last().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::verdict::{verdict, Verdict};
    use super::*;

    fn change(noise: Option<f64>, samples: usize) -> SpeedChange {
        SpeedChange {
            baseline: 100.0,
            candidate: 100.0,
            change: 0.0,
            judged_change: 0.0,
            se_within: None,
            se_own: None,
            noise,
            samples,
            processes: None,
            verdict: Verdict::Unchanged,
        }
    }

    #[test]
    fn the_smallest_flaggable_slowdown_is_where_the_verdict_turns() {
        let (threshold, band) = (0.05, 0.1);
        let seen = change(Some(band), 20).could_see(threshold, 12).unwrap();
        // Just past it the verdict is regressed; just short of it, not.
        let slower = |factor: f64| verdict(-(factor.ln()), Some(band), threshold);
        assert_eq!(slower(1.0 + seen * 1.001), Verdict::Regressed);
        assert_ne!(slower(1.0 + seen * 0.999), Verdict::Regressed);
        let bare = change(None, 0).could_see(0.05, 12).unwrap();
        assert!(
            (bare - 0.05).abs() < 1e-12,
            "no band: the threshold alone, {bare}"
        );
        assert_eq!(change(Some(band), 5).could_see(threshold, 12), None);
    }

    #[test]
    fn sight_counts_blind_speeds_and_reads_median_and_worst() {
        let sight = Sight {
            speeds: 3,
            blind: 0,
            median: Some(0.1),
            worst: Some(1.2),
        };
        assert!(sight.could_miss(2.0));
        assert!(!sight.could_miss(2.5));
        let blind = Sight { blind: 1, ..sight };
        assert!(blind.could_miss(10.0));
    }
}
