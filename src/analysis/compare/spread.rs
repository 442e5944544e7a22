//! The spread between cells that their own samples cannot show: on a shared machine the
//! speed drifts between one cell and the next, so the other cells of a payload and
//! direction give a further standard error (see the folder's [`super`] documentation).

use crate::stats::sample_sd;

/// Fewest other cells on a payload and direction from which a between-cell spread and
/// the reference's drift are estimated.
pub(crate) const MIN_CELLS_FOR_SPREAD: usize = 4;

/// A group's sums of log changes, from which each cell's between-cell spread is found
/// in constant time.
pub(super) struct Spread {
    n: usize,
    sum: f64,
    sum_sq: f64,
    /// The sum of the squared standard errors, and how many cells have one.
    explained: (f64, usize),
}

impl Spread {
    /// The sums over `others`: each cell's log change and its own standard error.
    pub(super) fn of(others: &[(f64, Option<f64>)]) -> Self {
        let mut spread = Spread {
            n: others.len(),
            sum: 0.0,
            sum_sq: 0.0,
            explained: (0.0, 0),
        };
        for (x, se) in others {
            spread.sum += x;
            spread.sum_sq += x * x;
            if let Some(se) = se {
                spread.explained.0 += se * se;
                spread.explained.1 += 1;
            }
        }
        spread
    }

    /// The spread between cells that their own samples cannot show, for judging
    /// a change: over the other cells of its group (itself left out, so that a real
    /// regression does not widen its own band), the variance of their log changes less
    /// the mean variance their own samples explain, when positive. The observed spread
    /// holds both; adding the whole of it to a cell's own standard error would count
    /// the sample noise twice. Without samples (CSV runs) the whole spread stands. Zero
    /// with too few cells.
    pub(super) fn without(&self, log_change: f64, se_own: Option<f64>) -> f64 {
        let x = log_change;
        let (mut n, mut sum, mut sum_sq) = (self.n, self.sum, self.sum_sq);
        let (mut explained, mut with_se) = self.explained;
        if x.is_finite() && n > 0 {
            n -= 1;
            sum -= x;
            sum_sq -= x * x;
            if let Some(se) = se_own {
                explained -= se * se;
                with_se -= 1;
            }
        }
        if n < MIN_CELLS_FOR_SPREAD {
            return 0.0;
        }
        let variance = sample_sd(n, sum, sum_sq).powi(2);
        let explained = if with_se == n {
            explained / n as f64
        } else {
            0.0
        };
        (variance - explained).max(0.0).sqrt()
    }
}
