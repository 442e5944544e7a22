//! Verdicts: each speed change against the threshold and its noise band, after removing
//! the common drift; then what moved the whole machine (see the module above).

use std::collections::HashMap;

use super::comparison::{Comparison, Drift, MachineChange};
use super::direction::Direction;
use super::options::{CompareOptions, SpeedBasis, FAMILY_ERROR_RATE};
use super::row::SpeedChange;
use super::spread::{Spread, MIN_CELLS_FOR_SPREAD};
use super::verdict::{samples_for_a_verdict, verdict, Verdict};
use crate::results::{Statistic, Timing};
use crate::stats::{median, normal_quantile, sample_sd};

/// One direction of one result's absolute speed change, kept for the machine report.
pub(super) struct AbsoluteChange {
    pub payload: String,
    pub direction: Direction,
    pub is_reference: bool,
    pub change: SpeedChange,
}

/// A speed on the comparison's basis with its relative standard error, if known: in
/// all, and from the cell's own samples.
pub(super) struct Speed {
    value: f64,
    relative_se: Option<f64>,
    own_se: Option<f64>,
}

/// What a speed is divided by.
#[derive(Clone, Copy)]
pub(super) enum Against<'a> {
    /// Nothing: raw MB/s.
    Nothing,
    /// The cell is the reference itself.
    Itself,
    /// The same run's reference, with these timings.
    Reference(Timing<'a>),
}

/// The speed of `timing` on a body of `input_bytes`, against `against`, with its
/// relative standard error where the samples give one.
pub(super) fn speed_against(
    timing: &Timing,
    input_bytes: u64,
    against: Against,
    statistic: Statistic,
) -> Speed {
    let (seconds, own_se) = timing.judged(statistic);
    match against {
        Against::Nothing => Speed {
            value: crate::stats::mb_per_s(input_bytes, seconds),
            relative_se: own_se,
            own_se,
        },
        // The reference against itself is 1 by definition, with no error.
        Against::Itself => Speed {
            value: 1.0,
            relative_se: Some(0.0),
            own_se: Some(0.0),
        },
        Against::Reference(reference) => {
            let (reference_seconds, reference_se) = reference.judged(statistic);
            Speed {
                value: reference_seconds / seconds,
                relative_se: own_se.zip(reference_se).map(|(a, b)| a.hypot(b)),
                own_se,
            }
        }
    }
}

/// The raw change between two speeds, before any verdict.
pub(super) fn measure_change(baseline: Speed, candidate: Speed) -> SpeedChange {
    let change = candidate.value / baseline.value - 1.0;
    let both = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| a.hypot(b));
    SpeedChange {
        baseline: baseline.value,
        candidate: candidate.value,
        change,
        judged_change: change,
        se_within: both(baseline.relative_se, candidate.relative_se),
        se_own: both(baseline.own_se, candidate.own_se),
        noise: None,
        samples: 0,
        processes: None,
        verdict: Verdict::Unchanged,
    }
}

/// One speed to judge: its group (payload and direction), and whether it is the
/// normalisation reference.
struct Test<'a> {
    payload: &'a str,
    direction: Direction,
    is_reference: bool,
    change: &'a mut SpeedChange,
}

/// Gives every speed change in `comparison` its verdict, after estimating each payload
/// and direction's drift and spread; then reports machine-level changes from
/// `absolute`.
pub(super) fn judge_all(
    comparison: &mut Comparison,
    absolute: &[AbsoluteChange],
    options: &CompareOptions,
) {
    let normalized = matches!(options.basis, SpeedBasis::Normalized { .. });
    let mut tests: Vec<Test> = Vec::new();
    for row in comparison.rows.iter_mut() {
        for (direction, change) in row.speeds.iter_mut() {
            if let Some(change) = change {
                tests.push(Test {
                    payload: row.key.payload(),
                    direction: *direction,
                    is_reference: row.is_reference,
                    change,
                });
            }
        }
    }
    // Bonferroni: every speed is a test, so each gets α / m for a 5% chance of any false
    // alarm across the whole comparison.
    let z = normal_quantile(1.0 - FAMILY_ERROR_RATE / tests.len().max(1) as f64);
    let fewest = samples_for_a_verdict(tests.len());
    let mut drifts = Vec::new();
    let mut by_group = grouped(tests.iter().map(|t| (t.payload, t.direction)));
    for ((payload, direction), members) in by_group.drain(..) {
        let others: Vec<(f64, Option<f64>)> = members
            .iter()
            .map(|&i| &tests[i])
            .filter(|t| !t.is_reference)
            .map(|t| (t.change.change.ln_1p(), t.change.se_own))
            .collect();
        let log_changes: Vec<f64> = others.iter().map(|(x, _)| *x).collect();
        let center = group_drift(&log_changes, payload, direction, &mut drifts);
        let group = Group {
            center: if normalized { center } else { None },
            spread: Spread::of(&others),
            z,
            fewest,
            threshold: options.threshold,
        };
        for &i in &members {
            group.judge(&mut tests[i]);
        }
    }
    comparison.drifts = drifts;
    comparison.z = z;
    comparison.samples_for_a_verdict = fewest;
    comparison.machine = machine_changes(absolute, options.threshold);
}

/// What the speeds of one payload and direction are judged against.
struct Group {
    /// Their common drift, removed before judging when normalised.
    center: Option<f64>,
    /// How far the other cells' changes spread.
    spread: Spread,
    /// The band's width in standard errors.
    z: f64,
    /// The fewest samples that allow a verdict.
    fewest: usize,
    /// `--threshold`.
    threshold: f64,
}

impl Group {
    /// Gives `test` its verdict.
    fn judge(&self, test: &mut Test) {
        if test.is_reference {
            judge(test.change, 0.0, 0.0, self.z, self.threshold, false);
            return;
        }
        let center = self.center.unwrap_or(0.0);
        if test.change.too_few_samples(self.fewest) {
            // Too few samples for any distribution-free bound at the family's
            // confidence: the parametric band would only pretend to hold.
            test.change.judged_change = (test.change.change.ln_1p() - center).exp_m1();
            test.change.verdict = Verdict::Inconclusive;
            return;
        }
        let between = self
            .spread
            .without(test.change.change.ln_1p(), test.change.se_own);
        let centered = self.center.is_some();
        judge(
            test.change,
            center,
            between,
            self.z,
            self.threshold,
            centered,
        );
    }
}

/// The distinct (payload, direction) pairs in first-seen order, each with the
/// positions of its members: one pass, so that judging grows with the cells.
fn grouped<'a>(
    pairs: impl Iterator<Item = (&'a str, Direction)>,
) -> Vec<((&'a str, Direction), Vec<usize>)> {
    let mut groups: Vec<((&str, Direction), Vec<usize>)> = Vec::new();
    let mut seen: HashMap<(&str, Direction), usize> = HashMap::new();
    for (i, pair) in pairs.enumerate() {
        let slot = *seen.entry(pair).or_insert_with(|| {
            groups.push((pair, Vec::new()));
            groups.len() - 1
        });
        groups[slot].1.push(i);
    }
    groups
}

/// The median of a group's log changes, recorded as a [`Drift`]; `None` with too few
/// cells to tell.
fn group_drift(
    log_changes: &[f64],
    payload: &str,
    direction: Direction,
    drifts: &mut Vec<Drift>,
) -> Option<f64> {
    let n = log_changes.len();
    if n < MIN_CELLS_FOR_SPREAD {
        return None;
    }
    let sum: f64 = log_changes.iter().sum();
    let sum_sq: f64 = log_changes.iter().map(|x| x * x).sum();
    let center = median(&mut log_changes.to_vec());
    drifts.push(Drift {
        payload: payload.to_string(),
        direction,
        shift: center.exp_m1(),
        spread: sample_sd(n, sum, sum_sq),
        cells: n,
    });
    Some(center)
}

/// Per payload and direction, the reference's own absolute change and the median
/// absolute change of all cells, each judged against the threshold and its band.
///
/// The reference's band is from its own samples. The shared change's is the standard
/// error of a median of n log changes, 1.2533 · sd / √n, with the sd taken over the
/// cells, so that it holds the within-cell and between-cell noise alike. Bonferroni over
/// the changes reported.
fn machine_changes(absolute: &[AbsoluteChange], threshold: f64) -> Vec<MachineChange> {
    let groups = grouped(absolute.iter().map(|a| (a.payload.as_str(), a.direction)));
    let z = normal_quantile(1.0 - FAMILY_ERROR_RATE / (2 * groups.len()).max(1) as f64);
    let mut changes = Vec::new();
    for ((payload, direction), members) in groups {
        let in_group: Vec<&AbsoluteChange> = members.iter().map(|&i| &absolute[i]).collect();
        if let Some(reference) = in_group.iter().find(|a| a.is_reference) {
            let mut change = reference.change.clone();
            change.noise = change.se_within.map(|se| z * se);
            changes.push(MachineChange {
                payload: payload.to_string(),
                direction,
                what: "reference",
                change: change.change,
                noise: change.noise,
                cells: 1,
                verdict: verdict(change.change.ln_1p(), change.noise, threshold),
            });
        }
        let logs: Vec<f64> = in_group.iter().map(|a| a.change.change.ln_1p()).collect();
        let n = logs.len();
        if n < MIN_CELLS_FOR_SPREAD {
            continue;
        }
        let sum: f64 = logs.iter().sum();
        let sum_sq: f64 = logs.iter().map(|x| x * x).sum();
        let se = 1.2533 * sample_sd(n, sum, sum_sq) / (n as f64).sqrt();
        let center = median(&mut logs.clone());
        let noise = Some(z * se);
        changes.push(MachineChange {
            payload: payload.to_string(),
            direction,
            what: "all cells",
            change: center.exp_m1(),
            noise,
            cells: n,
            verdict: verdict(center, noise, threshold),
        });
    }
    changes
}

/// Removes `center` (a log drift) from the change, sets the band to `z` standard errors
/// (within-cell and between-cell `spread` combined), and gives the verdict. Once
/// `centered`, the reference's noise went out with the drift, and the cell's own
/// standard error is the within-cell part.
fn judge(
    change: &mut SpeedChange,
    center: f64,
    spread: f64,
    z: f64,
    threshold: f64,
    centered: bool,
) {
    let judged_log = change.change.ln_1p() - center;
    change.judged_change = judged_log.exp_m1();
    let within = if centered {
        change.se_own
    } else {
        change.se_within
    };
    change.noise = match within {
        Some(within) => Some(z * within.hypot(spread)),
        None if spread > 0.0 => Some(z * spread),
        None => None,
    };
    change.verdict = verdict(judged_log, change.noise, threshold);
}
