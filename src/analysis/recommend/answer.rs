//! One answer for a group of bodies: per scenario, the setting of each encoding to
//! deploy, the order to prefer them in, and the body size under which sending a body
//! uncompressed is faster.
//!
//! A server sets one level per encoding for every body it serves, so each candidate
//! setting is judged over the whole group: every body at or above the candidate's
//! minimum size is compressed with it, every smaller one is sent as it is, and the
//! candidate with the least mean time per response wins. The minimum size is the
//! break-even of the gain (uncompressed time less compressed time, see [`super::wire`])
//! between the two measured sizes where it changes sign, by linear interpolation; the
//! bracket is reported with it, because the gain is measured only at those sizes. When
//! compression won at every size measured, the minimum is not bracketed: it is then the
//! wire model's estimate from the smallest body (its compression and decompression time
//! held, its saving on the wire scaled down with the size), which lies below every size
//! measured and errs large, never a size at which compression was measured to win.
//!
//! The budget is judged per body: a setting fits it when the slowest body it compresses
//! takes no longer. Each encoding keeps its best setting that beats sending bodies as
//! they are, as a fallback for the clients that do not accept the first: the best within
//! the budget, or where none is, the fastest to compress, marked over budget.

use serde::Serialize;

use super::minimum::{min_body, Evidence, MinBody};
use super::placed::{placed_by, PlacedBy};
use super::{AdviceOptions, Body, Scenario, Setting};
use crate::vocab::CellId;
use crate::vocab::CodecKind;

/// The answer for one group of bodies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Answer {
    /// `all payloads`, or a content type such as `application/json`.
    pub group: String,
    /// How many bodies the group has.
    pub bodies: usize,
    /// The group's share of all the bodies measured.
    pub share: f64,
    /// Its smallest body, in bytes.
    pub smallest_bytes: u64,
    /// Its largest body, in bytes.
    pub largest_bytes: u64,
    /// One line per scenario.
    pub lines: Vec<AnswerLine>,
    /// The smaller bodies measured to place the minimum body sizes, if any were.
    pub placed_by: Option<PlacedBy>,
}

/// What to deploy for one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AnswerLine {
    /// Which scenario.
    pub scenario: Scenario,
    /// One setting per encoding that beats sending bodies uncompressed, the fastest
    /// first: the order to prefer them in. Empty when nothing does.
    pub encodings: Vec<EncodingAnswer>,
    /// Mean seconds per response with every body sent uncompressed.
    pub identity_s: f64,
    /// Encodings whose setting in `encodings` is over the scenario's budget: it beats
    /// sending bodies as they are, but no setting of theirs fits the budget.
    pub over_budget: Vec<CodecKind>,
}

/// One encoding's setting for a scenario, and what it gives over the group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct EncodingAnswer {
    /// The setting.
    pub id: CellId,
    /// Mean seconds per response, with bodies under the minimum sent as they are.
    pub mean_s: f64,
    /// Mean compression seconds per compressed body.
    pub compress_s: f64,
    /// Compression seconds of the slowest body it compresses: what the budget judges.
    pub slowest_compress_s: f64,
    /// Whether `slowest_compress_s` fits the scenario's budget.
    pub within_budget: bool,
    /// Bytes in ÷ bytes out over the bodies it compresses.
    pub ratio: f64,
    /// Where compressing starts to pay.
    pub min_body: MinBody,
}

/// One body with the candidate setting: its size, and seconds per response sent as it
/// is and encoded.
struct Trial<'a> {
    /// Whether the body is traffic, not one cut only to place the minimum.
    traffic: bool,
    input_bytes: u64,
    identity_s: f64,
    cost_s: f64,
    setting: &'a Setting,
}

/// The body size at which compressing like `trial` (its smallest body, where it won)
/// would break even if its compression and decompression took as long as there and its
/// saving on the wire shrank with the size: an estimate that errs large.
fn estimated_floor(trial: &Trial, options: &AdviceOptions) -> u64 {
    let id = trial.setting.key.id;
    let sent_compressed = options
        .link
        .send_s(trial.setting.compressed_bytes, Some(id.codec));
    let overhead = trial.cost_s - sent_compressed;
    let saving = trial.identity_s - sent_compressed;
    if saving <= 0.0 || overhead <= 0.0 {
        return 1;
    }
    let floor = (trial.input_bytes as f64 * overhead / saving).ceil() as u64;
    floor.clamp(1, trial.input_bytes.saturating_sub(1).max(1))
}

/// How `id` does over `bodies`, sorted by size, if it is measured on all of them and
/// wins somewhere; `budget` judges its slowest compressed body.
fn judge(
    bodies: &[&Body],
    id: &CellId,
    scenario: Scenario,
    options: &AdviceOptions,
    budget: f64,
) -> Option<EncodingAnswer> {
    let trials: Vec<Trial> = bodies
        .iter()
        .map(|body| {
            let setting = body.settings.iter().find(|s| s.key.id == *id)?;
            Some(Trial {
                traffic: body.cut_from.is_none(),
                input_bytes: body.input_bytes,
                identity_s: Scenario::identity_s(body.input_bytes, options),
                cost_s: scenario.cost_s(setting, options),
                setting,
            })
        })
        .collect::<Option<_>>()?;
    let points: Vec<(u64, f64)> = trials
        .iter()
        .map(|t| (t.input_bytes, t.identity_s - t.cost_s))
        .collect();
    let mut min_body = min_body(&points)?;
    if let Evidence::AtMost { .. } = min_body.evidence {
        min_body.bytes = estimated_floor(&trials[0], options);
    }
    // Every body places the minimum; the traffic alone weighs the choice.
    let (compressed, sent_as_is): (Vec<&Trial>, Vec<&Trial>) = trials
        .iter()
        .filter(|t| t.traffic)
        .partition(|t| t.input_bytes >= min_body.bytes);
    if compressed.is_empty() {
        return None;
    }
    let compress_s =
        compressed.iter().map(|t| t.setting.compress_s).sum::<f64>() / compressed.len() as f64;
    let slowest_compress_s = compressed
        .iter()
        .map(|t| t.setting.compress_s)
        .fold(0.0, f64::max);
    let total = compressed.iter().map(|t| t.cost_s).sum::<f64>()
        + sent_as_is.iter().map(|t| t.identity_s).sum::<f64>();
    let bytes_in: u64 = compressed.iter().map(|t| t.input_bytes).sum();
    let bytes_out: u64 = compressed.iter().map(|t| t.setting.compressed_bytes).sum();
    Some(EncodingAnswer {
        id: *id,
        mean_s: total / (compressed.len() + sent_as_is.len()) as f64,
        compress_s,
        slowest_compress_s,
        within_budget: slowest_compress_s <= budget,
        ratio: bytes_in as f64 / bytes_out as f64,
        min_body,
    })
}

/// The settings of `codec` measured on any of `bodies` that are `allowed`.
fn candidates(
    bodies: &[&Body],
    codec: CodecKind,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Vec<CellId> {
    let mut ids: Vec<CellId> = bodies
        .iter()
        .flat_map(|b| b.settings.iter())
        .filter(|s| s.key.id.codec == codec && allowed(&s.key.id))
        .map(|s| s.key.id)
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The line for `scenario` over `bodies`, sorted by size: each codec's setting with the
/// least mean time per response among those that beat `identity_s` and fit the budget,
/// or, where none fits, its fastest to compress, marked over budget; those within the
/// budget first, each group fastest first.
fn line(
    bodies: &[&Body],
    scenario: Scenario,
    identity_s: f64,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> AnswerLine {
    let budget = scenario.budget_s(options).unwrap_or(f64::INFINITY);
    let mut encodings = Vec::new();
    let mut over_budget = Vec::new();
    for codec in CodecKind::ALL {
        let (fit, over): (Vec<EncodingAnswer>, Vec<EncodingAnswer>) =
            candidates(bodies, codec, allowed)
                .iter()
                .filter_map(|id| judge(bodies, id, scenario, options, budget))
                .filter(|e| e.mean_s < identity_s)
                .partition(|e| e.within_budget);
        let best = fit.into_iter().min_by(|a, b| a.mean_s.total_cmp(&b.mean_s));
        let fastest = || {
            over.into_iter()
                .min_by(|a, b| a.slowest_compress_s.total_cmp(&b.slowest_compress_s))
        };
        match best {
            Some(best) => encodings.push(best),
            None => {
                if let Some(fastest) = fastest() {
                    over_budget.push(codec);
                    encodings.push(fastest);
                }
            }
        }
    }
    encodings.sort_by(|a, b| {
        b.within_budget
            .cmp(&a.within_budget)
            .then(a.mean_s.total_cmp(&b.mean_s))
    });
    if options.no_fallback {
        encodings.truncate(1);
        over_budget.retain(|c| encodings.iter().any(|e| e.id.codec == *c));
    }
    AnswerLine {
        scenario,
        encodings,
        identity_s,
        over_budget,
    }
}

/// The answer for the bodies of one group, out of `all_bodies` measured, with settings
/// restricted to those `allowed` (e.g. the levels a server can express).
pub(crate) fn answer(
    group: &str,
    bodies: &[&Body],
    all_bodies: usize,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Answer {
    let mut sorted = bodies.to_vec();
    sorted.sort_by_key(|b| b.input_bytes);
    // The traffic: the bodies measured as responses, not those cut to place the minimum.
    let traffic: Vec<&&Body> = sorted.iter().filter(|b| b.cut_from.is_none()).collect();
    let identity_s = traffic
        .iter()
        .map(|b| Scenario::identity_s(b.input_bytes, options))
        .sum::<f64>()
        / traffic.len().max(1) as f64;
    Answer {
        group: group.to_string(),
        bodies: traffic.len(),
        share: traffic.len() as f64 / all_bodies.max(1) as f64,
        smallest_bytes: traffic.first().map_or(0, |b| b.input_bytes),
        largest_bytes: traffic.last().map_or(0, |b| b.input_bytes),
        lines: Scenario::ALL
            .into_iter()
            .map(|scenario| line(&sorted, scenario, identity_s, options, allowed))
            .collect(),
        placed_by: placed_by(&sorted),
    }
}
