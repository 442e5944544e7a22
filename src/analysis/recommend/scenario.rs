//! The three ways a server hands out a compressed body, what each costs the client per
//! response, and the pick for one payload under each.

use serde::Serialize;

use super::span::{self, Ranked, Span};
use super::{AdviceOptions, Setting};
use crate::vocab::{CellId, CodecKind};

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

    /// [`Scenario::cost_s`] as an interval: what decisions read.
    pub(crate) fn cost_span(self, setting: &Setting, options: &AdviceOptions) -> Span {
        let delivery = setting.delivery_span(&options.link);
        match self {
            Scenario::Dynamic => setting.compress_span + delivery,
            Scenario::Cached | Scenario::Static => delivery,
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

/// A setting with the time a ranking judges it by.
pub(crate) struct Scored<'a> {
    /// The setting.
    pub setting: &'a Setting,
    /// Its time for what is ranked.
    pub span: Span,
}

impl Ranked for Scored<'_> {
    fn span(&self) -> Span {
        self.span
    }
    fn bytes(&self) -> f64 {
        self.setting.compressed_bytes as f64
    }
    fn id(&self) -> CellId {
        self.setting.key.id
    }
}

/// The pick among `settings` by `span` (see [`super::span::pick`]), keeping only those
/// `span` surely puts under `limit_s`.
pub(crate) fn fastest<'a>(
    settings: impl Iterator<Item = &'a Setting>,
    span: &dyn Fn(&Setting) -> Span,
    limit_s: f64,
) -> Option<&'a Setting> {
    let scored: Vec<Scored> = settings
        .map(|setting| Scored {
            setting,
            span: span(setting),
        })
        .filter(|s| s.span.high_s < limit_s)
        .collect();
    let (index, _) = span::pick(&scored)?;
    Some(scored[index].setting)
}

/// The pick within the scenario's budget among the settings that surely beat sending
/// `input_bytes` uncompressed, by time per response (ties to fewer bytes).
fn best<'a>(
    settings: &'a [Setting],
    scenario: Scenario,
    input_bytes: u64,
    options: &AdviceOptions,
) -> Option<&'a Setting> {
    let budget = scenario.budget_s(options).unwrap_or(f64::INFINITY);
    let identity = Scenario::identity_s(input_bytes, options);
    let within = settings.iter().filter(|s| s.compress_span.high_s <= budget);
    fastest(within, &|s| scenario.cost_span(s, options), identity)
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
        None if settings.iter().all(|s| s.compress_span.high_s > budget) => {
            Why::NothingWithinBudget
        }
        None => Why::IdentityFastest,
    }
}
