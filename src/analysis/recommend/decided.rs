//! The answer for a group of bodies, decided over redraws of the run (see
//! [`super::draws`]): each scenario's line computed on every redraw ([`line_once`]), then
//! each choice in it taken by how often the redraws made it.
//!
//! - The first setting: the one the redraws put first most often, or the near-tie's
//!   settlement. Where most redraws compress nothing, nothing is named.
//! - Each other encoding: kept when most redraws name it, at the setting they name for it
//!   most often (or the near-tie's settlement), out of the redraws that name it.
//! - Their order: those that fit the budget in most of the redraws that picked them
//!   first, then by their mean place in the redraws, then in codec order.
//!
//! The figures shown for each setting (its mean time per response, its minimum body size
//! and its bracket) are those of the run as measured, the minimum at the slow end of each
//! interval: a figure, not a decision, so redraws would only blur it.

use super::answer::{judged_all, line_of, line_once, Answer, AnswerLine, EncodingAnswer};
use super::draws::{decide, tally, Decision, Redraws, Settle, TieBreak, DRAWS};
use super::placed::placed_by;
use super::span::BYTES_EVEN;
use super::{AdviceOptions, Body, Scenario};
use crate::vocab::{CellId, CodecKind};

/// The answer for the bodies of one group, out of `all_bodies` measured, with settings
/// restricted to those `allowed` (e.g. the levels a server can express).
pub(crate) fn answer(
    group: &str,
    bodies: &[&Body],
    all_bodies: usize,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Answer {
    let mut sorted: Vec<Body> = bodies.iter().map(|b| (*b).clone()).collect();
    sorted.sort_by_key(|b| b.input_bytes);
    scale_weights(&mut sorted, options);
    // The traffic: the bodies measured as responses, not those cut to place the minimum.
    let (traffic, cuts): (Vec<&Body>, Vec<&Body>) =
        sorted.iter().partition(|b| b.cut_from.is_none());
    let identity_s = identity_mean(&traffic, options);
    let redrawn = Redraws::new(&traffic, DRAWS);
    let group_of = Group {
        traffic: &traffic,
        cuts: &cuts,
        redrawn: &redrawn,
        kept: &|_| true,
        identity_s,
        options,
        allowed,
    };
    Answer {
        group: group.to_string(),
        bodies: traffic.len(),
        share: traffic.len() as f64 / all_bodies.max(1) as f64,
        smallest_bytes: traffic.first().map_or(0, |b| b.input_bytes),
        largest_bytes: traffic.last().map_or(0, |b| b.input_bytes),
        lines: Scenario::ALL.map(|s| group_of.line(s)).to_vec(),
        placed_by: placed_by(&sorted.iter().collect::<Vec<_>>()),
        named_sizes: sorted
            .iter()
            .map(|b| (b.input_bytes, b.payload.clone()))
            .collect(),
    }
}

/// Each body's `--weights`, divided by the largest among `bodies`: scaling every weight
/// by one factor gives the same answer, and no sum of weights overflows or vanishes.
fn scale_weights(bodies: &mut [Body], options: &AdviceOptions) {
    let raw: Vec<f64> = bodies.iter().map(|b| options.weight(&b.payload)).collect();
    let largest = raw.iter().copied().fold(0.0, f64::max);
    for (body, weight) in bodies.iter_mut().zip(raw) {
        body.weight = match largest > 0.0 {
            true => weight / largest,
            false => 1.0,
        };
    }
}

/// What every line of one answer is decided on.
struct Group<'a> {
    traffic: &'a [&'a Body],
    cuts: &'a [&'a Body],
    redrawn: &'a Redraws<'a>,
    /// The bodies of each redraw the line is decided on.
    kept: &'a dyn Fn(&Body) -> bool,
    identity_s: f64,
    options: &'a AdviceOptions,
    allowed: &'a dyn Fn(&CellId) -> bool,
}

/// Mean seconds per response with every body of `traffic` sent as it is.
fn identity_mean(traffic: &[&Body], options: &AdviceOptions) -> f64 {
    let served: f64 = traffic.iter().map(|b| b.weight).sum();
    let sent: f64 = traffic
        .iter()
        .map(|b| b.weight * Scenario::identity_s(b.input_bytes, options))
        .sum();
    sent / served.max(f64::MIN_POSITIVE)
}

/// The bodies of `traffic` (sorted by size) that every setting `allowed` loses on, at
/// the medians, though a smaller body has one that wins: a body that compresses badly.
/// No minimum size can spare it without switching compression off for every smaller
/// body, yet a setting whose own minimum lies above it would gain by skipping it.
fn lost_on_by_all(
    traffic: &[&Body],
    scenario: Scenario,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Vec<String> {
    let wins = |b: &Body| {
        let identity_s = Scenario::identity_s(b.input_bytes, options);
        let settings = b.settings.iter().filter(|s| allowed(&s.key.id));
        settings
            .into_iter()
            .any(|s| scenario.cost_s(s, options) < identity_s)
    };
    let Some(first_win) = traffic.iter().position(|b| wins(b)) else {
        return Vec::new();
    };
    traffic[first_win..]
        .iter()
        .filter(|b| !wins(b))
        .map(|b| b.payload.clone())
        .collect()
}

impl Group<'_> {
    /// The line for `scenario`, decided over the redraws, without the bodies every
    /// setting lost on (see [`lost_on_by_all`]).
    fn line(&self, scenario: Scenario) -> AnswerLine {
        let left_out = lost_on_by_all(self.traffic, scenario, self.options, self.allowed);
        if left_out.is_empty() {
            return self.decided(scenario);
        }
        let kept = |b: &Body| !left_out.contains(&b.payload);
        let traffic: Vec<&Body> = self.traffic.iter().copied().filter(|b| kept(b)).collect();
        let group = Group {
            traffic: &traffic,
            cuts: self.cuts,
            redrawn: self.redrawn,
            kept: &kept,
            identity_s: identity_mean(&traffic, self.options),
            options: self.options,
            allowed: self.allowed,
        };
        let line = group.decided(scenario);
        AnswerLine { left_out, ..line }
    }

    /// The line for `scenario` over this group's bodies, decided over the redraws.
    fn decided(&self, scenario: Scenario) -> AnswerLine {
        let once = |traffic: &[&Body]| {
            line_once(
                traffic,
                &[],
                scenario,
                self.identity_s,
                self.options,
                self.allowed,
            )
        };
        let judged = judged_all(
            self.traffic,
            self.cuts,
            scenario,
            self.options,
            self.allowed,
        );
        let measured = line_of(judged.clone(), scenario, self.identity_s, self.options);
        let mut drawn: Vec<AnswerLine> = self.redrawn.map(self.kept, once);
        let standing = stand_ins(&judged, &mut drawn);
        let figures = |id: &CellId| judged.iter().find(|e| e.id == *id);
        let settle = |id: &CellId| figures(id).map(|e| (e.within_budget, e.bytes_sent));
        let uncompressed_in = drawn.iter().filter(|l| l.encodings.is_empty()).count() as u32;
        let firsts = tally(drawn.iter().filter_map(|l| Some(l.encodings.first()?.id)));
        let first = match 2 * uncompressed_in > DRAWS {
            true => None,
            false => decide(&firsts, DRAWS, &settle, tie_break(scenario)),
        };
        let mut encodings: Vec<(EncodingAnswer, f64)> = Vec::new();
        for codec in CodecKind::ALL {
            let decision = match &first {
                Some(first) if first.id.codec == codec => Some((first.clone(), DRAWS)),
                Some(_) => self.fallback(&drawn, codec, &settle, tie_break(scenario)),
                None => None,
            };
            if let Some((decision, out_of)) = decision {
                let Some(figures) = figures(&decision.id) else {
                    continue;
                };
                let place = mean_place(&drawn, &decision.id);
                encodings.push((
                    settled(figures, &decision, out_of, &drawn, &standing),
                    place,
                ));
            }
        }
        let mut encodings = ordered(encodings, first.map(|f| f.id));
        if self.options.no_fallback {
            encodings.truncate(1);
        }
        let named = |c: CodecKind| encodings.iter().any(|e| e.id.codec == c);
        let mut at_edge = measured.at_edge;
        at_edge.retain(|e| named(e.id.codec) && !encodings.iter().any(|p| p.id == e.id));
        AnswerLine {
            scenario,
            budget_s: scenario.budget_s(self.options),
            over_budget: encodings
                .iter()
                .filter(|e| !e.within_budget)
                .map(|e| e.id.codec)
                .collect(),
            encodings,
            identity_s: self.identity_s,
            at_edge,
            draws: DRAWS,
            uncompressed_in,
            left_out: Vec::new(),
        }
    }

    /// `codec`'s setting as a fallback, if most redraws name the encoding, and out of how
    /// many redraws it was decided.
    fn fallback(
        &self,
        drawn: &[AnswerLine],
        codec: CodecKind,
        settle: Settle,
        tie_break: TieBreak,
    ) -> Option<(Decision, u32)> {
        let picks: Vec<CellId> = drawn
            .iter()
            .filter_map(|l| Some(l.encodings.iter().find(|e| e.id.codec == codec)?.id))
            .collect();
        let named_in = picks.len() as u32;
        (2 * named_in > DRAWS).then_some(())?;
        Some((
            decide(&tally(picks), named_in, settle, tie_break)?,
            named_in,
        ))
    }
}

/// How a near-tie is settled in `scenario`: by CPU where every response pays it.
fn tie_break(scenario: Scenario) -> TieBreak {
    match scenario {
        Scenario::Dynamic => TieBreak::LowestSetting,
        Scenario::Cached | Scenario::Static => TieBreak::FewestBytes,
    }
}

/// `placed` (each with its mean place in the redraws) in the order to prefer them: the
/// `lead` first, then those within the budget, then by place, then in codec order.
fn ordered(mut placed: Vec<(EncodingAnswer, f64)>, lead: Option<CellId>) -> Vec<EncodingAnswer> {
    placed.sort_by(|(a, a_place), (b, b_place)| {
        let rank = |e: &EncodingAnswer| (Some(e.id) != lead, !e.within_budget);
        rank(a)
            .cmp(&rank(b))
            .then(a_place.total_cmp(b_place))
            .then(a.id.codec.cmp(&b.id.codec))
    });
    placed.into_iter().map(|(e, _)| e).collect()
}

/// The figures of the run as measured for `decision`'s setting, with what the redraws
/// said of it: how often they picked it, whether it fit the budget in most of the
/// redraws that picked it, and the settings counted as it (`standing`, from
/// [`stand_ins`]).
fn settled(
    figures: &EncodingAnswer,
    decision: &Decision,
    out_of: u32,
    drawn: &[AnswerLine],
    standing: &[(CellId, CellId)],
) -> EncodingAnswer {
    let picked: Vec<&EncodingAnswer> = drawn
        .iter()
        .filter_map(|l| l.encodings.iter().find(|e| e.id == decision.id))
        .collect();
    let fits = picked.iter().filter(|e| e.within_budget).count();
    EncodingAnswer {
        within_budget: match picked.is_empty() {
            true => figures.within_budget,
            false => 2 * fits >= picked.len(),
        },
        picked_in: decision.picked_in,
        draws: out_of,
        near_tie: decision.near_tie,
        alternatives: decision.alternatives.clone(),
        standing_for: standing
            .iter()
            .filter(|(_, by)| *by == decision.id)
            .map(|(id, _)| *id)
            .collect(),
        ..figures.clone()
    }
}

/// The setting each of `judged` is counted as: the lowest of its codec, library and
/// variant that sends within [`BYTES_EVEN`] of its bytes, and surely fits the budget if
/// it does. Two such settings differ by nothing
/// a second run keeps, so the redraws' picks of the one count for the other, and
/// `drawn` is rewritten so. Returns the settings counted as another, with that other.
fn stand_ins(judged: &[EncodingAnswer], drawn: &mut [AnswerLine]) -> Vec<(CellId, CellId)> {
    let even = |a: &EncodingAnswer, b: &EncodingAnswer| {
        (a.bytes_sent - b.bytes_sent).abs() <= BYTES_EVEN * a.bytes_sent.min(b.bytes_sent)
            && (b.within_budget || !a.within_budget)
    };
    let same_kind =
        |a: &CellId, b: &CellId| (a.codec, a.library, a.variant) == (b.codec, b.library, b.variant);
    let stand_in = |x: &EncodingAnswer| {
        judged
            .iter()
            .filter(|y| same_kind(&x.id, &y.id) && even(x, y))
            .map(|y| y.id)
            .min()
            .unwrap_or(x.id)
    };
    let pairs: Vec<(CellId, CellId)> = judged
        .iter()
        .map(|x| (x.id, stand_in(x)))
        .filter(|(id, by)| id != by)
        .collect();
    for encoding in drawn.iter_mut().flat_map(|l| l.encodings.iter_mut()) {
        if let Some((_, by)) = pairs.iter().find(|(id, _)| *id == encoding.id) {
            encoding.id = *by;
        }
    }
    pairs
}

/// The mean place of `id` in the redraws' lines that name it (0 first).
fn mean_place(drawn: &[AnswerLine], id: &CellId) -> f64 {
    let places: Vec<usize> = drawn
        .iter()
        .filter_map(|l| l.encodings.iter().position(|e| e.id.codec == id.codec))
        .collect();
    places.iter().sum::<usize>() as f64 / places.len().max(1) as f64
}
