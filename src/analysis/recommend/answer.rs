//! One answer for a group of bodies: per scenario, the setting of each encoding to
//! deploy, the order to prefer them in, and the body size under which sending a body
//! uncompressed is faster.
//!
//! A server sets one level per encoding for every body it serves, so each candidate
//! setting is judged over the traffic: every body at or above the candidate's minimum
//! size is compressed with it, every smaller one is sent as it is. Times are intervals
//! (see [`super::span`]): the candidate whose mean time per response is surely least
//! wins, and candidates whose intervals overlap are tied, the one that sends fewer bytes
//! first (1% is even, see [`super::span::BYTES_EVEN`]); on a redraw, whose times have
//! no width, the fastest wins. A candidate must be measured on
//! every body of the traffic; the bodies cut to place the minimum narrow it and never
//! remove a candidate.
//!
//! The minimum size is the break-even of the gain (uncompressed time less compressed
//! time at the slow end of its interval, see [`super::wire`]), found from the small
//! bodies up ([`super::minimum`]); the bracket is reported with it.
//! When compression won at every size measured, the minimum is not bracketed: it is then
//! the wire model's estimate from the smallest body (its compression and decompression
//! time held, its saving on the wire scaled down with the size), which errs large.
//!
//! The budget is judged per body: a setting fits it when the slow end of its slowest
//! compressed body does. Each encoding keeps its best setting that surely beats sending
//! bodies as they are, as a fallback for the clients that do not accept the first: the
//! best within the budget, or where none fits, the best by time per response, marked
//! over budget. A setting whose slowest body's interval holds the budget is at its edge:
//! on the run as measured it is never picked, but it is named beside the pick it would
//! beat, since another run may find it fits.
//!
//! This is one decision on one set of times ([`line_once`]); the answer itself is
//! decided over redraws of the run (see [`super::decided`]).

use serde::Serialize;

use super::draws::Alternative;
use super::minimum::{min_body, Evidence, MinBody};
use super::placed::PlacedBy;
use super::span::{order, pick, Ranked, Span};
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
    /// Every body's size and name, traffic and cut, smallest first: what names the
    /// bodies at a bracket's ends.
    #[serde(skip)]
    pub named_sizes: Vec<(u64, String)>,
}

impl Answer {
    /// The name of a body of `bytes` measured for this answer, if there is one.
    pub(crate) fn body_named(&self, bytes: u64) -> Option<&str> {
        let found = self.named_sizes.iter().find(|(size, _)| *size == bytes);
        found.map(|(_, name)| name.as_str())
    }
}

/// What to deploy for one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AnswerLine {
    /// Which scenario.
    pub scenario: Scenario,
    /// The most compression time one body may take, if the scenario has a limit.
    pub budget_s: Option<f64>,
    /// One setting per encoding that beats sending bodies uncompressed, the fastest
    /// first: the order to prefer them in. Empty when nothing does.
    pub encodings: Vec<EncodingAnswer>,
    /// Mean seconds per response with every body sent uncompressed.
    pub identity_s: f64,
    /// Encodings whose setting in `encodings` is over the scenario's budget: it beats
    /// sending bodies as they are, but no setting of theirs fits the budget.
    pub over_budget: Vec<CodecKind>,
    /// Settings at the budget's edge that the ranking would prefer to their encoding's
    /// pick: the fast end of their slowest body fits, the slow end does not, so another
    /// run may find they fit. Named, never picked.
    pub at_edge: Vec<EncodingAnswer>,
    /// How many redraws of the run decided the line (see [`super::draws`]).
    pub draws: u32,
    /// The redraws in which no setting beat sending the bodies as they are.
    pub uncompressed_in: u32,
    /// Bodies every setting lost on though smaller ones won: they compress badly, no
    /// minimum size can spare them, and they weigh in no choice of this line.
    pub left_out: Vec<String>,
}

/// One encoding's setting for a scenario, and what it gives over the group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct EncodingAnswer {
    /// The setting.
    pub id: CellId,
    /// Mean seconds per response, with bodies under the minimum sent as they are: from
    /// the medians, as shown.
    pub mean_s: f64,
    /// The interval of `mean_s`, from the intervals of the times: what decides.
    pub mean_span: Span,
    /// Mean bytes sent per response, bodies under the minimum as they are: what settles
    /// a tie.
    pub bytes_sent: f64,
    /// Mean compression seconds per compressed body.
    pub compress_s: f64,
    /// Compression seconds of the slowest body it compresses, at the slow end of its
    /// interval: what the budget judges.
    pub slowest_compress_s: f64,
    /// The fast end of the same interval, over the bodies it compresses: under the budget
    /// while `slowest_compress_s` is over it, the setting is at the budget's edge.
    pub slowest_compress_fast_s: f64,
    /// Whether `slowest_compress_s` fits the scenario's budget.
    pub within_budget: bool,
    /// Bytes in ÷ bytes out over the bodies it compresses.
    pub ratio: f64,
    /// Where compressing starts to pay.
    pub min_body: MinBody,
    /// The body whose compression took longest: what breaks a budget.
    pub slowest_body: String,
    /// The redraws that picked it (see [`super::draws`]): as the first setting for the
    /// line's first encoding, as its encoding's setting for the others.
    pub picked_in: u32,
    /// Out of how many redraws: all of them for the first encoding, those that named
    /// its encoding for the others.
    pub draws: u32,
    /// No setting was picked in most redraws: the fewest bytes settled it.
    pub near_tie: bool,
    /// The other settings the redraws picked, with how often.
    pub alternatives: Vec<Alternative>,
    /// Settings whose picks counted as this one's: they send within 1% of its bytes in
    /// times whose intervals overlap its own, a difference no second run keeps.
    pub standing_for: Vec<CellId>,
}

/// One body with the candidate setting: its size, and seconds per response sent as it
/// is and encoded (the median, shown, and the interval, which decides).
struct Trial<'a> {
    /// How often the body is served (`--weights`), on the traffic's scale.
    weight: f64,
    payload: &'a str,
    input_bytes: u64,
    identity_s: f64,
    cost_s: f64,
    cost: Span,
    setting: &'a Setting,
}

impl<'a> Trial<'a> {
    /// `body` with the setting `id`, if it was measured there.
    fn of(
        body: &'a Body,
        id: &CellId,
        scenario: Scenario,
        options: &AdviceOptions,
    ) -> Option<Self> {
        let setting = body.settings.iter().find(|s| s.key.id == *id)?;
        Some(Trial {
            weight: body.weight,
            payload: &body.payload,
            input_bytes: body.input_bytes,
            identity_s: Scenario::identity_s(body.input_bytes, options),
            cost_s: scenario.cost_s(setting, options),
            cost: scenario.cost_span(setting, options),
            setting,
        })
    }

    /// What compressing saves, at the slow end of the interval: a minimum placed on it
    /// holds wherever in their intervals the times fell.
    fn gain_s(&self) -> f64 {
        self.identity_s - self.cost.high_s
    }

    /// What compressing saves, from the medians.
    fn median_gain_s(&self) -> f64 {
        self.identity_s - self.cost_s
    }
}

/// The body size at which compressing like `trial` (its smallest body, where it won)
/// would break even if its compression and decompression took as long as there and its
/// saving on the wire shrank with the size: an estimate that errs large.
fn estimated_floor(trial: &Trial, options: &AdviceOptions) -> u64 {
    let id = trial.setting.key.id;
    let sent_compressed = options
        .link
        .send_s(trial.setting.compressed_bytes, Some(id.codec));
    let overhead = trial.cost.high_s - sent_compressed;
    let saving = trial.identity_s - sent_compressed;
    if saving <= 0.0 || overhead <= 0.0 {
        return 1;
    }
    let floor = (trial.input_bytes as f64 * overhead / saving).ceil() as u64;
    floor.clamp(1, trial.input_bytes.saturating_sub(1).max(1))
}

/// The minimum body size the gains of `trials` place, smallest body first: at the slow
/// end of each interval, or where compressing never wins for good there (a setting the
/// redraws picked), from the medians.
fn minimum(trials: &[&Trial], options: &AdviceOptions) -> Option<MinBody> {
    let points = |gain: &dyn Fn(&Trial) -> f64| -> Vec<(u64, f64)> {
        trials.iter().map(|t| (t.input_bytes, gain(t))).collect()
    };
    let mut min_body =
        min_body(&points(&|t| t.gain_s())).or_else(|| min_body(&points(&|t| t.median_gain_s())))?;
    if let (Evidence::AtMost { .. }, Some(smallest)) = (min_body.evidence, trials.first()) {
        min_body.bytes = estimated_floor(smallest, options);
    }
    Some(min_body)
}

/// How `id` does over the `traffic`, sorted by size, if it is measured on all of it and
/// wins somewhere; `budget` judges its slowest compressed body. The traffic alone
/// decides; the `cuts` (smaller bodies, sorted) only narrow the minimum it reports.
fn judge(
    traffic: &[&Body],
    cuts: &[&Body],
    id: &CellId,
    scenario: Scenario,
    options: &AdviceOptions,
    budget: f64,
) -> Option<EncodingAnswer> {
    let trials: Vec<Trial> = traffic
        .iter()
        .map(|body| Trial::of(body, id, scenario, options))
        .collect::<Option<_>>()?;
    let deciding = minimum(&trials.iter().collect::<Vec<_>>(), options)?;
    let cut_trials: Vec<Trial> = cuts
        .iter()
        .filter_map(|body| Trial::of(body, id, scenario, options))
        .collect();
    let mut placing: Vec<&Trial> = trials.iter().chain(&cut_trials).collect();
    placing.sort_by_key(|t| t.input_bytes);
    let min_body = minimum(&placing, options).unwrap_or_else(|| deciding.clone());
    let (compressed, sent_as_is): (Vec<&Trial>, Vec<&Trial>) =
        trials.iter().partition(|t| t.input_bytes >= deciding.bytes);
    if compressed.is_empty() {
        return None;
    }
    Some(over_traffic(
        *id,
        &compressed,
        &sent_as_is,
        min_body,
        budget,
    ))
}

/// What `id` gives over the traffic, `compressed` with it and `sent_as_is`: means per
/// response, each body counted as often as it is served.
fn over_traffic(
    id: CellId,
    compressed: &[&Trial],
    sent_as_is: &[&Trial],
    min_body: MinBody,
    budget: f64,
) -> EncodingAnswer {
    let weighted = |f: &dyn Fn(&Trial) -> f64, of: &[&Trial]| -> f64 {
        of.iter().map(|t| t.weight * f(t)).sum()
    };
    let count = weighted(&|_| 1.0, compressed) + weighted(&|_| 1.0, sent_as_is);
    let as_is_s = weighted(&|t| t.identity_s, sent_as_is);
    let cost = Span {
        low_s: weighted(&|t| t.cost.low_s, compressed),
        high_s: weighted(&|t| t.cost.high_s, compressed),
    };
    let bytes_out = weighted(&|t| t.setting.compressed_bytes as f64, compressed);
    let slowest = compressed.iter().max_by(|a, b| {
        a.setting
            .compress_span
            .high_s
            .total_cmp(&b.setting.compress_span.high_s)
    });
    let slowest_compress_s = slowest.map_or(0.0, |t| t.setting.compress_span.high_s);
    let slowest_compress_fast_s = compressed
        .iter()
        .map(|t| t.setting.compress_span.low_s)
        .fold(0.0, f64::max);
    EncodingAnswer {
        id,
        mean_s: (weighted(&|t| t.cost_s, compressed) + as_is_s) / count,
        mean_span: (cost + Span::exactly(as_is_s)).per(count),
        bytes_sent: (bytes_out + weighted(&|t| t.input_bytes as f64, sent_as_is)) / count,
        compress_s: weighted(&|t| t.setting.compress_s, compressed)
            / weighted(&|_| 1.0, compressed),
        slowest_compress_s,
        slowest_compress_fast_s,
        within_budget: slowest_compress_s <= budget,
        ratio: weighted(&|t| t.input_bytes as f64, compressed) / bytes_out,
        min_body,
        slowest_body: slowest.map_or(String::new(), |t| t.payload.to_string()),
        picked_in: 1,
        draws: 1,
        near_tie: false,
        alternatives: Vec::new(),
        standing_for: Vec::new(),
    }
}

impl Ranked for EncodingAnswer {
    fn span(&self) -> Span {
        self.mean_span
    }
    fn bytes(&self) -> f64 {
        self.bytes_sent
    }
    fn id(&self) -> CellId {
        self.id
    }
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

/// The pick among `judged` (see [`super::span::pick`]).
fn chosen(mut judged: Vec<EncodingAnswer>) -> Option<EncodingAnswer> {
    let (index, _) = pick(&judged)?;
    Some(judged.swap_remove(index))
}

/// The settings at the budget's edge among `others` that the ranking would prefer to
/// `best`, lowest first.
fn preferred_at_edge(
    best: &EncodingAnswer,
    others: &[EncodingAnswer],
    budget: f64,
) -> Vec<EncodingAnswer> {
    others
        .iter()
        .filter(|e| e.slowest_compress_fast_s <= budget)
        .filter(|e| matches!(pick(&[best.clone(), (*e).clone()]), Some((1, _))))
        .cloned()
        .collect()
}

/// Every setting `allowed` on the `traffic` (sorted by size) judged for `scenario`, the
/// `cuts` placing each minimum (see [`judge`]), codec by codec.
pub(super) fn judged_all(
    traffic: &[&Body],
    cuts: &[&Body],
    scenario: Scenario,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Vec<EncodingAnswer> {
    let budget = scenario.budget_s(options).unwrap_or(f64::INFINITY);
    CodecKind::ALL
        .into_iter()
        .flat_map(|codec| candidates(traffic, codec, allowed))
        .filter_map(|id| judge(traffic, cuts, &id, scenario, options, budget))
        .collect()
}

/// The line for `scenario` over the traffic as it was measured, or as one redraw moved
/// it: [`line_of`] the settings [`judged_all`] gives.
pub(super) fn line_once(
    traffic: &[&Body],
    cuts: &[&Body],
    scenario: Scenario,
    identity_s: f64,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> AnswerLine {
    let judged = judged_all(traffic, cuts, scenario, options, allowed);
    line_of(judged, scenario, identity_s, options)
}

/// The line for `scenario` from the `judged` settings: each codec's pick among those
/// that surely beat `identity_s` and fit the budget, or, where none fits, among those
/// over it, marked so; those within the budget first, each group in the order the
/// ranking prefers. Settings at the budget's edge that would beat a pick are named
/// beside it.
pub(super) fn line_of(
    judged: Vec<EncodingAnswer>,
    scenario: Scenario,
    identity_s: f64,
    options: &AdviceOptions,
) -> AnswerLine {
    let budget = scenario.budget_s(options).unwrap_or(f64::INFINITY);
    let (mut fits, mut over, mut at_edge) = (Vec::new(), Vec::new(), Vec::new());
    let winning: Vec<EncodingAnswer> = judged
        .into_iter()
        .filter(|e| e.mean_span.high_s < identity_s)
        .collect();
    for codec in CodecKind::ALL {
        let (fit, over_it): (Vec<EncodingAnswer>, Vec<EncodingAnswer>) = winning
            .iter()
            .filter(|e| e.id.codec == codec)
            .cloned()
            .partition(|e| e.within_budget);
        match chosen(fit) {
            Some(best) => {
                at_edge.extend(preferred_at_edge(&best, &over_it, budget));
                fits.push(best);
            }
            None => over.extend(chosen(over_it)),
        }
    }
    let over_budget: Vec<CodecKind> = over.iter().map(|e| e.id.codec).collect();
    let encodings: Vec<EncodingAnswer> = order(fits)
        .into_iter()
        .chain(order(over))
        .map(|(encoding, _)| encoding)
        .collect();
    let mut line = AnswerLine {
        scenario,
        budget_s: scenario.budget_s(options),
        encodings,
        identity_s,
        over_budget,
        at_edge,
        draws: 1,
        uncompressed_in: 0,
        left_out: Vec::new(),
    };
    if options.no_fallback {
        line.encodings.truncate(1);
        let kept: Vec<CodecKind> = line.encodings.iter().map(|e| e.id.codec).collect();
        line.over_budget.retain(|c| kept.contains(c));
        line.at_edge.retain(|e| kept.contains(&e.id.codec));
    }
    line
}
