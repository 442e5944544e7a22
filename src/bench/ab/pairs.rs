//! The pairs of an A/B run: each cell measured by the candidate and the baseline in
//! turn, a short batch each, seconds apart, the order swapped from pair to pair (ABBA),
//! round after round until every cell is decided, the pairs run out or the time does.
//! So a slow spell of the machine falls on both builds of a pair alike, as Chromium's
//! Pinpoint interleaves its repeats. The duet method (Bulej et al., "Duet Benchmarking",
//! ICPE 2020) runs both side by side instead; here that measured no better
//! (docs/calibration.md, "ab pairs").

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};

use super::worker::BuildWorker;
use crate::bench::protocol::{BodyFile, Job, Work};
use crate::bench::schedule::Plan;
use crate::bench::settings::CodecSetting;
use crate::codec::Codec;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::ab::{AbCell, PairedTimes};
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
    /// The change a verdict is judged against, e.g. 0.02.
    pub threshold: f64,
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

/// One cell's pairs so far: its ratios live in the cell.
struct Pairs<'a> {
    codec: &'a dyn Codec,
    level: i32,
    cell: Option<AbCell>,
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
                    cell: None,
                };
                cells.push((index, pairs));
            }
        }
    }
    for round in 0..plan.max_pairs {
        let open = |p: &Pairs| round < plan.min_pairs || !p.decided();
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
            let job = Job::of_level(
                file.clone(),
                pairs.codec,
                pairs.level,
                Work::Time(plan.batch),
            );
            let candidate_first = (round + turn) % 2 == 0;
            let Some(batches) = pair(builds, &job, candidate_first, until)? else {
                return Ok(cut_short(cells));
            };
            pairs.add(payload, batches, plan.threshold);
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
    /// Whether more pairs could change what the cell shows.
    fn decided(&self) -> bool {
        self.cell.as_ref().is_some_and(AbCell::decided)
    }

    /// One pair's batches joined to the cell.
    fn add(&mut self, payload: &Payload, pair: (CellResult, CellResult), threshold: f64) {
        let (candidate, baseline) = pair;
        // A batch's fastest iteration: a slow spell that covers part of a batch leaves
        // it alone, where it moves the median (docs/calibration.md, "ab pairs").
        let fastest = |r: &CellResult| -> Option<(f64, f64)> {
            Some((r.compress.as_ref()?.min_s, r.decompress.as_ref()?.min_s))
        };
        let failure = candidate.failure.clone().or(baseline.failure.clone());
        let (mut compress, mut decompress) = match self.cell.take() {
            Some(cell) => (cell.compress.ratios, cell.decompress.ratios),
            None => (Vec::new(), Vec::new()),
        };
        if let (None, Some((cc, cd)), Some((bc, bd))) =
            (&failure, fastest(&candidate), fastest(&baseline))
        {
            compress.push(cc / bc);
            decompress.push(cd / bd);
        }
        let compress = PairedTimes::of(compress);
        let decompress = PairedTimes::of(decompress);
        let verdicts = [
            compress.steady_verdict(threshold, ROUNDS_PER_WORKER),
            decompress.steady_verdict(threshold, ROUNDS_PER_WORKER),
        ];
        self.cell = Some(AbCell {
            payload: payload.name.clone(),
            input_bytes: payload.bytes.len() as u64,
            id: candidate.id,
            candidate_bytes: candidate.compressed_bytes,
            baseline_bytes: baseline.compressed_bytes,
            compress,
            decompress,
            verdicts,
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
