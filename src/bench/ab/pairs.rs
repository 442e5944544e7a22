//! The pairs of an A/B run: each cell measured by the candidate and the baseline in
//! turn, a short batch each, seconds apart, the order swapped from pair to pair (ABBA),
//! round after round until every cell is settled (decided, and the same only within
//! its sight target), the pairs run out or the time does.
//! So a slow spell of the machine falls on both builds of a pair alike, as Chromium's
//! Pinpoint interleaves its repeats. The duet method (Bulej et al., "Duet Benchmarking",
//! ICPE 2020) runs both side by side instead; here that measured no better
//! (docs/calibration.md, "ab pairs").

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};

use super::slices::{fastest, rewarmed, sized_batch, Direction};
use super::worker::BuildWorker;
use crate::bench::protocol::{BodyFile, Job, Work};
use crate::bench::schedule::Plan;
use crate::bench::settings::CodecSetting;
use crate::codec::Codec;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::ab::AbCell;
use crate::results::paired_times::{PairFastest, PairedTimes};
use crate::results::run::CellResult;

/// Rounds each pair of workers measures before both are started again: one. A process
/// keeps a speed of its own for its whole life (where its heap, stack and pages fall):
/// the same build measured 3% slower than itself on brotli 1's decompression in three
/// generations of workers running, and 4% faster on brotli 11 over 30 pairs. New workers
/// every round make each pair of a cell an independent draw of that layout, so the
/// interval sees it (as Stabilizer re-randomizes layout: Curtsinger and Berger, ASPLOS
/// 2013), where long-lived workers pass it off as a change (docs/calibration.md).
pub(crate) const ROUNDS_PER_WORKER: usize = 1;

/// How an A/B run goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AbPlan {
    /// One batch: warm-up and timed iterations, in one round, in one process.
    pub batch: Plan,
    /// Whether each cell's batches after its first are sized from its first pair's
    /// times ([`sized_batch`]); not when `--iterations` or `--min-time` set them.
    pub sized: bool,
    /// The change a verdict is judged against, e.g. 0.02.
    pub threshold: f64,
    /// The sight a cell the same both ways is measured to, e.g. 0.03: see
    /// [`AbCell::settled`].
    pub sight: f64,
    /// Pairs every cell gets before it may be decided.
    pub min_pairs: usize,
    /// Pairs after which a cell stays as it is.
    pub max_pairs: usize,
    /// The time after which no new round starts.
    pub max_time: Duration,
}

/// What an A/B run tells its caller.
pub(crate) trait AbObserver {
    /// Round `round` (from 0) starts, with `cells` cells still undecided.
    fn round(&self, _round: usize, _cells: usize, _elapsed: Duration) {}
}

/// The two builds.
pub(crate) struct Builds {
    /// This program's worker.
    pub candidate: BuildWorker,
    /// `--baseline`'s.
    pub baseline: BuildWorker,
}

/// One cell's pairs so far: each pair's fastest times per direction, and the cell
/// they make.
struct Pairs<'a> {
    codec: &'a dyn Codec,
    level: i32,
    fastest: [Vec<PairFastest>; 2],
    cell: Option<AbCell>,
    /// The batch sized from the first pair, once it is measured.
    batch: Option<Plan>,
    /// The batches each build runs per pair, in turn: one until the first pair sized them.
    slices: usize,
}

/// How the pairs ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// Every cell decided, or the pairs ran out.
    Done,
    /// A stop request cut them short.
    Stopped,
    /// `--max-time` ran out, a batch in flight cut short: open cells stay inconclusive,
    /// and this many cells got no pair at all.
    OutOfTime(usize),
}

/// Every cell of `settings` on each of `payloads` (each with the file the workers read),
/// measured in pairs as `plan` says, within its `max_time`; and how that ended.
pub(crate) fn measure_pairs(
    settings: &[CodecSetting],
    payloads: &[(&Payload, BodyFile)],
    plan: &AbPlan,
    builds: &mut Builds,
    observer: &dyn AbObserver,
) -> Result<(Vec<AbCell>, Ended)> {
    let started = Instant::now();
    let until = started + plan.max_time;
    let mut cells: Vec<(usize, Pairs)> = Vec::new();
    for (index, _) in payloads.iter().enumerate() {
        for setting in settings {
            for &level in &setting.levels {
                let pairs = Pairs {
                    codec: setting.codec.as_ref(),
                    level,
                    fastest: [Vec::new(), Vec::new()],
                    cell: None,
                    batch: None,
                    slices: 1,
                };
                cells.push((index, pairs));
            }
        }
    }
    for round in 0..plan.max_pairs {
        let open = |p: &Pairs| round < plan.min_pairs || !p.settled(plan.sight);
        let undecided = cells.iter().filter(|(_, p)| open(p)).count();
        if undecided == 0 {
            break;
        }
        if started.elapsed() >= plan.max_time {
            return Ok(out_of_time(cells));
        }
        observer.round(round, undecided, started.elapsed());
        if round > 0 && round.is_multiple_of(ROUNDS_PER_WORKER) {
            builds.candidate.restart();
            builds.baseline.restart();
        }
        for (turn, (index, pairs)) in cells.iter_mut().enumerate() {
            if !open(pairs) {
                continue;
            }
            let (payload, file) = &payloads[*index];
            let order = round + turn;
            let Some(slices) = pairs.measure(file, (plan, until), builds, order)? else {
                return Ok(cut_short(cells));
            };
            pairs.add(payload, slices, plan.threshold);
        }
    }
    let ended = if interrupt::requested() {
        Ended::Stopped
    } else {
        Ended::Done
    };
    Ok((finish(cells), ended))
}

/// One batch of `job` from each build, in the order given, each answer checked; `None`
/// on a stop request or once `until` has passed.
fn pair(
    builds: &mut Builds,
    job: &Job,
    candidate_first: bool,
    until: Instant,
) -> Result<Option<(CellResult, CellResult)>> {
    let one = |worker: &mut BuildWorker, which: &str| -> Result<Option<CellResult>> {
        let named = format!("the {which} ({})", worker.program().display());
        match worker.measure(job, until).context(named.clone())? {
            Some(result) => Ok(Some(super::answer::checked(result, job).context(named)?)),
            None => Ok(None),
        }
    };
    let (candidate, baseline) = if candidate_first {
        let candidate = one(&mut builds.candidate, "candidate")?;
        (candidate, one(&mut builds.baseline, "baseline")?)
    } else {
        let baseline = one(&mut builds.baseline, "baseline")?;
        (one(&mut builds.candidate, "candidate")?, baseline)
    };
    Ok(candidate.zip(baseline))
}

impl Pairs<'_> {
    /// One pair's slices of the cell: each build's batch, in turn, `order` setting which
    /// goes first in each; the first pair sizes the later ones. `None` on a stop request
    /// or once `until` has passed.
    fn measure(
        &mut self,
        file: &BodyFile,
        (plan, until): (&AbPlan, Instant),
        builds: &mut Builds,
        order: usize,
    ) -> Result<Option<Vec<(CellResult, CellResult)>>> {
        let batch = self.batch.unwrap_or(plan.batch);
        let job = |batch| Job::of_level(file.clone(), self.codec, self.level, Work::Time(batch));
        let (first, later) = (job(batch), job(rewarmed(batch)));
        let mut slices = Vec::with_capacity(self.slices);
        for slice in 0..self.slices {
            let candidate_first = (order + slice).is_multiple_of(2);
            let job = if slice == 0 { &first } else { &later };
            let Some(batches) = pair(builds, job, candidate_first, until)? else {
                return Ok(None);
            };
            slices.push(batches);
        }
        if plan.sized && self.batch.is_none() {
            let (batch, count) = sized_batch(plan.batch, &slices[0].0);
            (self.batch, self.slices) = (Some(batch), count);
        }
        Ok(Some(slices))
    }

    /// Whether more pairs would tell no more: [`AbCell::settled`].
    fn settled(&self, sight: f64) -> bool {
        self.cell.as_ref().is_some_and(|cell| cell.settled(sight))
    }

    /// One pair's batches, slice by slice, joined to the cell: each build's fastest
    /// call over its slices.
    fn add(&mut self, payload: &Payload, slices: Vec<(CellResult, CellResult)>, threshold: f64) {
        let failure = (slices.iter()).find_map(|(c, b)| c.failure.clone().or(b.failure.clone()));
        if failure.is_none() {
            let directions: [Direction; 2] = [|r| &r.compress, |r| &r.decompress];
            for (kept, direction) in self.fastest.iter_mut().zip(directions) {
                let candidate = fastest(slices.iter().map(|(c, _)| direction(c)));
                let baseline = fastest(slices.iter().map(|(_, b)| direction(b)));
                if let (Some(candidate), Some(baseline)) = (candidate, baseline) {
                    kept.push(PairFastest {
                        candidate,
                        baseline,
                    });
                }
            }
        }
        let (candidate, baseline) = slices.into_iter().next().expect("a pair has a slice");
        let [compress, decompress] = [0, 1].map(|d| PairedTimes::of_pairs(&self.fastest[d]));
        let verdicts = [&compress, &decompress]
            .map(|times| times.steady_verdict(threshold, ROUNDS_PER_WORKER));
        let sight = [&compress, &decompress].map(|times| times.could_see(threshold));
        self.cell = Some(AbCell {
            payload: payload.name.clone(),
            input_bytes: payload.bytes.len() as u64,
            id: candidate.id,
            candidate_bytes: candidate.compressed_bytes,
            baseline_bytes: baseline.compressed_bytes,
            compress,
            decompress,
            verdicts,
            sight,
            failure,
        });
    }
}

/// The cells measured when a batch was cut short: by a stop request, or else by the time.
fn cut_short(cells: Vec<(usize, Pairs)>) -> (Vec<AbCell>, Ended) {
    if interrupt::requested() {
        return (finish(cells), Ended::Stopped);
    }
    out_of_time(cells)
}

/// The cells measured when the time ran out, and how many got no pair.
fn out_of_time(cells: Vec<(usize, Pairs)>) -> (Vec<AbCell>, Ended) {
    let unmeasured = cells.iter().filter(|(_, p)| p.cell.is_none()).count();
    (finish(cells), Ended::OutOfTime(unmeasured))
}

/// The cells measured, in order; a cell a stop request left unmeasured is left out.
fn finish(cells: Vec<(usize, Pairs)>) -> Vec<AbCell> {
    cells.into_iter().filter_map(|(_, p)| p.cell).collect()
}
