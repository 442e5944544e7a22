//! The three ways a server hands out a compressed body, what each costs the client per
//! response, and the pick for one payload under each.

use serde::Serialize;

use super::{AdviceOptions, Setting};
use crate::vocab::CodecKind;

/// How often a body is compressed, relative to how often it is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Scenario {
    /// Compressed for every response, while the client waits.
    Dynamic,
    /// Compressed once, kept, and sent many times.
    Cached,
    /// Compressed at build time, with no limit on the time it takes.
    Static,
}

impl Scenario {
    /// The three, in the order reports show them.
    pub(crate) const ALL: [Scenario; 3] = [Scenario::Dynamic, Scenario::Cached, Scenario::Static];

    /// e.g. `per-request dynamic response`.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Scenario::Dynamic => "per-request dynamic response",
            Scenario::Cached => "compress once and cache",
            Scenario::Static => "static asset, compressed at build time",
        }
    }

    /// The short name the one-answer block uses, e.g. `dynamic responses`.
    pub(crate) fn short(self) -> &'static str {
        match self {
            Scenario::Dynamic => "dynamic responses",
            Scenario::Cached => "cached responses",
            Scenario::Static => "static assets",
        }
    }

    /// The most compression time one body may take, if the scenario has a limit.
    pub(crate) fn budget_s(self, options: &AdviceOptions) -> Option<f64> {
        match self {
            Scenario::Dynamic => Some(options.latency_budget_s),
            Scenario::Cached => Some(options.cache_budget_s),
            Scenario::Static => None,
        }
    }

    /// Seconds the client waits for one response encoded with `setting`, beyond what it
    /// waits anyway: compression when it happens per response, sending, decompression.
    pub(crate) fn cost_s(self, setting: &Setting, options: &AdviceOptions) -> f64 {
        let end_to_end = setting.end_to_end_s(&options.link);
        match self {
            Scenario::Dynamic => end_to_end,
            Scenario::Cached | Scenario::Static => end_to_end - setting.compress_s,
        }
    }

    /// Seconds to send `input_bytes` uncompressed.
    pub(crate) fn identity_s(input_bytes: u64, options: &AdviceOptions) -> f64 {
        options.link.send_s(input_bytes, None)
    }
}

/// The pick for one scenario and one payload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ScenarioPick {
    /// Which scenario.
    pub scenario: Scenario,
    /// The setting the client gets its body soonest with, if one beats sending it
    /// uncompressed within the scenario's budget.
    pub choice: Option<Setting>,
    /// Seconds per response with the choice, or uncompressed without one.
    pub cost_s: f64,
    /// Seconds per response sent uncompressed.
    pub identity_s: f64,
    /// Why the choice, or why none.
    pub why: Why,
    /// The scenario's compression budget per body, in seconds; `None` without one.
    pub budget_s: Option<f64>,
    /// The link speed the costs are at, in Mbit/s.
    pub link_mbit: f64,
    /// The same rule within each codec, in the order servers prefer them (zstd, then
    /// br, then gzip, as ASP.NET Core 11 negotiates): what a client that does not accept
    /// the first gets.
    pub per_encoding: Vec<EncodingPick>,
}

/// Why a scenario's pick is what it is; `export` writes it as a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Why {
    /// A setting beat sending the body uncompressed within the budget.
    Chosen,
    /// Every setting took longer than the budget to compress the body.
    NothingWithinBudget,
    /// Sending the body uncompressed was the fastest.
    IdentityFastest,
}

/// The best setting of one codec for a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct EncodingPick {
    /// The codec.
    pub codec: CodecKind,
    /// Its best setting under the scenario's rule, if one beats identity.
    pub choice: Option<Setting>,
}

/// The settings within the scenario's budget, cheapest per response first, keeping only
/// those that beat sending `input_bytes` uncompressed.
fn best<'a>(
    settings: &'a [Setting],
    scenario: Scenario,
    input_bytes: u64,
    options: &AdviceOptions,
) -> Option<&'a Setting> {
    let budget = scenario.budget_s(options).unwrap_or(f64::INFINITY);
    let identity = Scenario::identity_s(input_bytes, options);
    settings
        .iter()
        .filter(|s| s.compress_s <= budget)
        .filter(|s| scenario.cost_s(s, options) < identity)
        .min_by(|a, b| {
            let (cost_a, cost_b) = (scenario.cost_s(a, options), scenario.cost_s(b, options));
            cost_a
                .total_cmp(&cost_b)
                .then(a.compressed_bytes.cmp(&b.compressed_bytes))
        })
}

/// The pick for `scenario` on one payload, why, and the same within each codec.
pub(crate) fn pick(
    settings: &[Setting],
    scenario: Scenario,
    input_bytes: u64,
    options: &AdviceOptions,
) -> ScenarioPick {
    let choice = best(settings, scenario, input_bytes, options);
    let per_encoding = CodecKind::ALL
        .into_iter()
        .map(|codec| {
            let own: Vec<Setting> = settings
                .iter()
                .filter(|s| s.key.id.codec == codec)
                .cloned()
                .collect();
            EncodingPick {
                codec,
                choice: best(&own, scenario, input_bytes, options).cloned(),
            }
        })
        .collect();
    let identity_s = Scenario::identity_s(input_bytes, options);
    let cost_s = choice.map_or(identity_s, |s| scenario.cost_s(s, options));
    ScenarioPick {
        scenario,
        why: why(settings, choice, scenario.budget_s(options)),
        budget_s: scenario.budget_s(options),
        link_mbit: options.link.mbit,
        choice: choice.cloned(),
        cost_s,
        identity_s,
        per_encoding,
    }
}

fn why(settings: &[Setting], choice: Option<&Setting>, budget_s: Option<f64>) -> Why {
    let budget = budget_s.unwrap_or(f64::INFINITY);
    match choice {
        Some(_) => Why::Chosen,
        None if settings.iter().all(|s| s.compress_s > budget) => Why::NothingWithinBudget,
        None => Why::IdentityFastest,
    }
}
