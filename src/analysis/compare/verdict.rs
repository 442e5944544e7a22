//! The verdict on a change: against the threshold and the whole of its noise band, and
//! the fewest samples for which such a band can hold at all.

use serde::Serialize;

use super::options::FAMILY_ERROR_RATE;

/// The verdict on one speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// The whole band lies within the threshold.
    Unchanged,
    /// The band straddles the threshold, or too few samples bound it: more samples
    /// (`--iterations`, `--precision`) would settle it.
    Inconclusive,
    /// Faster: the whole band lies beyond the threshold.
    Improved,
    /// Slower: the whole band lies beyond the threshold.
    Regressed,
}

impl Verdict {
    /// A short word for tables.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Verdict::Unchanged => "",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Improved => "improved",
            Verdict::Regressed => "REGRESSED",
        }
    }
}

/// The fewest samples a timing needs for a verdict when `tests` speeds are judged: a
/// median's distribution-free interval (the sample's minimum to maximum) holds it with
/// confidence 1 − 2 · 2⁻ⁿ, which must reach the Bonferroni share 1 − α / m. Below it no
/// band holds at the family's 5%, so the change is inconclusive: 8 samples for 4
/// speeds, 12 for the 66 of a small-payload run.
pub(super) fn samples_for_a_verdict(tests: usize) -> usize {
    let needed = (2.0 * tests.max(1) as f64 / FAMILY_ERROR_RATE)
        .log2()
        .ceil();
    needed as usize
}

/// The verdict on a log change against the threshold and its band: regressed or
/// improved when the whole band lies beyond the threshold, unchanged when it lies
/// within, inconclusive when it straddles it. Without a band, the change alone.
pub(super) fn verdict(log_change: f64, noise: Option<f64>, threshold: f64) -> Verdict {
    let limit = threshold.ln_1p();
    let band = noise.unwrap_or(0.0);
    if log_change + band < -limit {
        Verdict::Regressed
    } else if log_change - band > limit {
        Verdict::Improved
    } else if log_change - band >= -limit && log_change + band <= limit {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}
