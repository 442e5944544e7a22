//! What `recommend` needs to know besides the run: the budgets, the link, and what it
//! may pick.

use super::wire::Link;
use crate::vocab::{CellId, Library, Variant};

/// What `recommend` needs to know besides the run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AdviceOptions {
    /// The compression time one dynamic response may take, in seconds.
    pub latency_budget_s: f64,
    /// The compression time a response compressed once and cached may take, in seconds.
    pub cache_budget_s: f64,
    /// The link the picks are for: its bandwidth and round-trip time.
    pub link: Link,
    /// Link speeds for the end-to-end table, in Mbit/s (10^6 bits per second), at the
    /// same round-trip time.
    pub bandwidths_mbit: Vec<f64>,
    /// Pick the brotli crate's Rust port too, which no common web server runs.
    pub pick_rust_brotli: bool,
    /// Answer with the first encoding only, without fallbacks.
    pub no_fallback: bool,
    /// How often each body is served, by payload name (`--weights`); 1 for a body not
    /// named.
    pub weights: Vec<(String, f64)>,
}

impl Default for AdviceOptions {
    /// `recommend`'s defaults (5 ms per dynamic response, 1 s to cache, 100 Mbit/s with
    /// no round-trip time), with no end-to-end table: what `plot` draws its frontiers from.
    fn default() -> Self {
        AdviceOptions {
            latency_budget_s: 0.005,
            cache_budget_s: 1.0,
            link: Link {
                mbit: 100.0,
                rtt_s: 0.0,
            },
            bandwidths_mbit: Vec::new(),
            pick_rust_brotli: false,
            no_fallback: false,
            weights: Vec::new(),
        }
    }
}

impl AdviceOptions {
    /// How often the body `payload` is served, relative to a body not named.
    pub(crate) fn weight(&self, payload: &str) -> f64 {
        let named = self.weights.iter().find(|(name, _)| name == payload);
        named.map_or(1.0, |(_, weight)| *weight)
    }

    /// Whether a setting may be recommended, not only shown: not a trained dictionary,
    /// nor libzstd's one-shot call, which no server can be set to use.
    pub(crate) fn may_pick(&self, id: &CellId) -> bool {
        !matches!(id.variant, Variant::Dictionary { .. } | Variant::OneShot)
            && (self.pick_rust_brotli || id.library != Library::BrotliRs)
    }
}
