//! From a measured matrix to a decision: which settings are dominated, the Pareto
//! frontiers, the best setting for each of the article's scenarios, and end-to-end time
//! per response at several bandwidths, against sending the body uncompressed.
//!
//! Every setting is shown, but picks come only from what a web server can deploy: the
//! libraries servers link (libzstd, Google's C brotli, zlib-ng or zlib-rs), with a fresh
//! or pooled encoder. The brotli crate's Rust port is picked only when asked, and a
//! trained dictionary never, since a browser cannot use one without dictionary transport
//! (RFC 9842) on both sides.
//!
//! The picks decide on intervals (see [`super::span`]); the frontiers and dominated
//! settings are drawn from medians, as lzbench and `zstd -b` report them. A setting A is
//! *dominated* by B when B's body is at most as large and B compresses at least as fast,
//! and B is strictly better on one of the two (the usual Pareto order; e.g. Deb,
//! *Multi-objective optimization using evolutionary algorithms*, 2001, §2.4). The
//! frontier is the set of settings nothing dominates.

use serde::Serialize;

use super::answer::Answer;
use super::body::{bodies, Body};
use super::decided;
use super::options::AdviceOptions;
use super::scenario::{self, Scenario, ScenarioPick};
use super::setting::Setting;
use super::wire::Link;
use crate::results::LoadedRun;
use crate::vocab::{CellId, Variant};

/// A dominated setting and one that dominates it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Domination {
    /// The setting no one should pick.
    pub dominated: Setting,
    /// The best-ratio setting that is at least as small and as fast, and better on one.
    pub by: Setting,
}

/// One row of the end-to-end table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BandwidthRow {
    /// Link speed in Mbit/s.
    pub mbit: f64,
    /// Sending the body uncompressed, in seconds.
    pub identity_s: f64,
    /// The setting with the least compress + transfer + decompress time, if it beats
    /// sending the body uncompressed; `None` when identity is fastest.
    pub best: Option<Setting>,
    /// The fastest end-to-end seconds, identity's when it wins.
    pub best_s: f64,
}

/// The advice for one payload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct PayloadAdvice {
    /// Payload name.
    pub payload: String,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// Dominated settings, in run order.
    pub dominated: Vec<Domination>,
    /// Ratio against compression speed: the non-dominated settings, fastest first.
    pub compress_frontier: Vec<Setting>,
    /// Ratio against decompression speed, fastest first.
    pub decompress_frontier: Vec<Setting>,
    /// Per-request, cached, and static.
    pub scenarios: Vec<ScenarioPick>,
    /// One row per bandwidth.
    pub bandwidths: Vec<BandwidthRow>,
    /// What reusing encoders saves, for each setting measured both ways
    /// (`--encoder both`).
    pub pooling: Vec<PoolSaving>,
}

/// One setting measured with a fresh encoder per response and with a reused one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct PoolSaving {
    /// A fresh encoder per response.
    pub fresh: Setting,
    /// One encoder kept and reset between responses, as a pool would.
    pub reused: Setting,
}

impl PoolSaving {
    /// The share of the compression time a pool saves: 0.84 when set-up is 84% of it.
    pub(crate) fn share_saved(&self) -> f64 {
        1.0 - self.reused.compress_s / self.fresh.compress_s
    }
}

/// Each reused setting with its fresh counterpart (same codec, library and level).
fn pool_savings(settings: &[Setting]) -> Vec<PoolSaving> {
    settings
        .iter()
        .filter(|s| s.key.id.variant == Variant::Reused)
        .filter_map(|reused| {
            let fresh_id = CellId {
                variant: Variant::Fresh,
                ..reused.key.id
            };
            let fresh = settings.iter().find(|f| f.key.id == fresh_id)?;
            Some(PoolSaving {
                fresh: fresh.clone(),
                reused: reused.clone(),
            })
        })
        .collect()
}

/// Advice for every payload of `run`, in the order they appear; bodies cut only to
/// place the minimum size get none.
pub(crate) fn advise(run: &LoadedRun, options: &AdviceOptions) -> Vec<PayloadAdvice> {
    bodies(run)
        .iter()
        .filter(|body| body.cut_from.is_none())
        .map(|body| advise_payload(&body.payload, body.input_bytes, &body.settings, options))
        .collect()
}

/// One answer over all the bodies of `run`, picking among the settings a server may
/// deploy ([`AdviceOptions::may_pick`]).
pub(crate) fn answers(run: &LoadedRun, options: &AdviceOptions) -> Vec<Answer> {
    answers_among(run, options, &|id| options.may_pick(id))
}

/// As [`answers`], picking only among the settings `allowed`.
pub(crate) fn answers_among(
    run: &LoadedRun,
    options: &AdviceOptions,
    allowed: &dyn Fn(&CellId) -> bool,
) -> Vec<Answer> {
    let bodies = bodies(run);
    let all: Vec<&Body> = bodies.iter().collect();
    if all.is_empty() {
        return Vec::new();
    }
    let mut groups: Vec<(&str, Vec<&Body>)> = Vec::new();
    for body in &all {
        let Some(content_type) = body.content_type.as_deref() else {
            continue;
        };
        match groups.iter_mut().find(|(name, _)| *name == content_type) {
            Some((_, members)) => members.push(body),
            None => groups.push((content_type, vec![body])),
        }
    }
    // Shares count the traffic: bodies cut to place the minimum are not responses.
    let traffic = |members: &[&Body]| members.iter().filter(|b| b.cut_from.is_none()).count();
    // The most frequent type first; a stable sort keeps ties in capture order.
    groups.sort_by_key(|(_, members)| std::cmp::Reverse(traffic(members)));
    let overall = if groups.is_empty() {
        "all payloads"
    } else {
        "all responses"
    };
    let total = traffic(&all);
    let mut answers = vec![decided::answer(overall, &all, total, options, allowed)];
    if groups.len() > 1 || groups.first().is_some_and(|(_, m)| traffic(m) < total) {
        answers.extend(
            groups
                .iter()
                .map(|(name, members)| decided::answer(name, members, total, options, allowed)),
        );
    }
    answers
}

/// Whether `b` dominates `a` on size and the time `time` picks.
fn dominates(b: &Setting, a: &Setting, time: fn(&Setting) -> f64) -> bool {
    b.compressed_bytes <= a.compressed_bytes
        && time(b) <= time(a)
        && (b.compressed_bytes < a.compressed_bytes || time(b) < time(a))
}

/// The settings no other dominates, fastest first. A sweep in order of time: a
/// setting is on the frontier when it is smaller than everything strictly faster and
/// the smallest of those as fast. O(n log n), for runs of tens of thousands of cells.
fn frontier(settings: &[Setting], time: fn(&Setting) -> f64) -> Vec<Setting> {
    let order = by_time(settings, time);
    let mut front = Vec::new();
    let mut smallest_faster = u64::MAX;
    for group in order.chunk_by(|&a, &b| time(&settings[a]) == time(&settings[b])) {
        let smallest_here = group.iter().map(|&i| settings[i].compressed_bytes).min();
        let smallest_here = smallest_here.unwrap_or(u64::MAX);
        for &i in group {
            let bytes = settings[i].compressed_bytes;
            if bytes < smallest_faster && bytes == smallest_here {
                front.push(i);
            }
        }
        smallest_faster = smallest_faster.min(smallest_here);
    }
    front.sort_by(|&a, &b| time(&settings[a]).total_cmp(&time(&settings[b])));
    front.into_iter().map(|i| settings[i].clone()).collect()
}

/// Indices of `settings` by `time`, then by their order in the run.
fn by_time(settings: &[Setting], time: fn(&Setting) -> f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..settings.len()).collect();
    order.sort_by(|&a, &b| {
        time(&settings[a])
            .total_cmp(&time(&settings[b]))
            .then(a.cmp(&b))
    });
    order
}

fn advise_payload(
    payload: &str,
    input_bytes: u64,
    settings: &[Setting],
    options: &AdviceOptions,
) -> PayloadAdvice {
    let compress_time: fn(&Setting) -> f64 = |s| s.compress_s;
    let decompress_time: fn(&Setting) -> f64 = |s| s.decompress_s;
    let pickable: Vec<Setting> = settings
        .iter()
        .filter(|s| options.may_pick(&s.key.id))
        .cloned()
        .collect();
    PayloadAdvice {
        payload: payload.to_string(),
        input_bytes,
        dominated: dominated(settings),
        compress_frontier: frontier(settings, compress_time),
        decompress_frontier: frontier(settings, decompress_time),
        scenarios: Scenario::ALL
            .into_iter()
            .map(|scenario| scenario::pick(&pickable, scenario, input_bytes, options))
            .collect(),
        bandwidths: options
            .bandwidths_mbit
            .iter()
            .map(|&mbit| {
                let link = Link {
                    mbit,
                    ..options.link
                };
                bandwidth_row(&pickable, input_bytes, link)
            })
            .collect(),
        pooling: pool_savings(settings),
    }
}

/// Each setting that another dominates on size and compression time, with the best of
/// those that dominate it (smallest, then fastest, then first in the run). The best of
/// all settings at most as slow is that one, if it dominates at all: a sweep in order
/// of time finds it in O(n log n).
fn dominated(settings: &[Setting]) -> Vec<Domination> {
    let compress_time: fn(&Setting) -> f64 = |s| s.compress_s;
    let order = by_time(settings, compress_time);
    let mut best_by: Vec<Option<usize>> = vec![None; settings.len()];
    let key = |i: usize| (settings[i].compressed_bytes, settings[i].compress_s, i);
    let mut best: Option<usize> = None;
    for group in order.chunk_by(|&a, &b| settings[a].compress_s == settings[b].compress_s) {
        for &i in group {
            if best.is_none_or(|b| key(i) < key(b)) {
                best = Some(i);
            }
        }
        for &i in group {
            best_by[i] = best.filter(|&b| dominates(&settings[b], &settings[i], compress_time));
        }
    }
    best_by
        .iter()
        .enumerate()
        .filter_map(|(i, by)| {
            Some(Domination {
                dominated: settings[i].clone(),
                by: settings[(*by)?].clone(),
            })
        })
        .collect()
}

/// The setting with the shortest end-to-end time over `link` (ties to fewer bytes),
/// unless it does not surely beat sending the body uncompressed.
fn bandwidth_row(settings: &[Setting], input_bytes: u64, link: Link) -> BandwidthRow {
    let identity_s = link.send_s(input_bytes, None);
    let best = scenario::fastest(settings.iter(), &|s| s.end_to_end_span(&link), identity_s);
    BandwidthRow {
        mbit: link.mbit,
        identity_s,
        best_s: best.map_or(identity_s, |s| s.end_to_end_s(&link)),
        best: best.cloned(),
    }
}

#[cfg(test)]
mod sweep_tests {
    use super::*;
    use crate::analysis::recommend::span::Span;
    use crate::results::CellKey;
    use crate::vocab::{CellId, CodecKind, Library, Variant};

    /// 400 settings on a small grid, so that sizes and times tie often.
    fn grid() -> Vec<Setting> {
        let mut state = 7u64;
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) % n
        };
        (0..400)
            .map(|level| Setting {
                key: CellKey {
                    payload: "p".into(),
                    id: CellId {
                        codec: CodecKind::Zstd,
                        library: Library::Libzstd,
                        variant: Variant::Fresh,
                        level,
                    },
                },
                compressed_bytes: 100 + next(20),
                ratio: 1.0,
                compress_s: 0.001 * (1 + next(20)) as f64,
                decompress_s: 0.001 * (1 + next(20)) as f64,
                compress_span: Span::exactly(0.0),
                decompress_span: Span::exactly(0.0),
            })
            .collect()
    }

    #[test]
    fn the_sweeps_give_what_comparing_every_pair_gives() {
        let settings = grid();
        let time: fn(&Setting) -> f64 = |s| s.compress_s;
        let levels = |s: &[Setting]| s.iter().map(|s| s.key.id.level).collect::<Vec<_>>();
        let mut pairwise: Vec<Setting> = settings
            .iter()
            .filter(|a| !settings.iter().any(|b| dominates(b, a, time)))
            .cloned()
            .collect();
        pairwise.sort_by(|a, b| time(a).total_cmp(&time(b)));
        assert_eq!(levels(&frontier(&settings, time)), levels(&pairwise));
        let best = |a: &Setting| {
            settings
                .iter()
                .filter(|b| dominates(b, a, time))
                .reduce(|x, y| {
                    match (y.compressed_bytes, y.compress_s) < (x.compressed_bytes, x.compress_s) {
                        true => y,
                        false => x,
                    }
                })
                .map(|b| b.key.id.level)
        };
        let expected: Vec<(i32, i32)> = settings
            .iter()
            .filter_map(|a| Some((a.key.id.level, best(a)?)))
            .collect();
        let swept: Vec<(i32, i32)> = dominated(&settings)
            .iter()
            .map(|d| (d.dominated.key.id.level, d.by.key.id.level))
            .collect();
        assert_eq!(swept, expected);
        assert!(
            expected.len() > 300,
            "the grid ties often enough: {}",
            expected.len()
        );
    }
}
