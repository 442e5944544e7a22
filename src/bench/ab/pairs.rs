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
use crate::bench::schedule::{Iterations, Plan};
use crate::bench::settings::CodecSetting;
use crate::codec::Codec;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::ab::AbCell;
use crate::results::paired_times::{PairFastest, PairedTimes};
use crate::results::run::CellResult;
use crate::stats::Summary;

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
                Work::Time(pairs.batch.unwrap_or(plan.batch)),
            );
            let mut slices = Vec::with_capacity(pairs.slices);
            for slice in 0..pairs.slices {
                let candidate_first = (round + turn + slice) % 2 == 0;
                let Some(batches) = pair(builds, &job, candidate_first, until)? else {
                    return Ok(cut_short(cells));
                };
                slices.push(batches);
            }
            if plan.sized && pairs.batch.is_none() {
                let (batch, count) = sized_batch(plan.batch, &slices[0].0);
                (pairs.batch, pairs.slices) = (Some(batch), count);
            }
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

/// The longest call of a cell's slower direction for which a pair is cut into
/// [`SHORT_SLICES`] slices; a cell with longer calls gets [`LONG_SLICES`].
const SHORT_CALL: Duration = Duration::from_millis(10);
/// Batches each build runs per pair, alternating with the other's: for short calls,
/// and for long ones, where each slice costs a whole call.
const SHORT_SLICES: usize = 4;
const LONG_SLICES: usize = 2;
/// Calls of a short cell's slower direction in each slice, time allowing.
const CALLS_PER_SLICE: u32 = 3;
/// The shortest and longest a slice lasts per direction. A long call outlasts it
/// alone, so a long cell's slice is one call of its slower direction.
const SLICE_TIME: (Duration, Duration) = (Duration::from_millis(2), Duration::from_millis(25));
/// The most calls a slice makes per direction: the fast direction of a slow cell stops
/// here.
const SLICE_CALLS: u32 = 40;

/// A cell's batch after its first, sized from its first `batch` as the candidate ran
/// it, and how many slices each build runs per pair.
///
/// The machine has slow spells: here 19% of the calls, in spells from under 1 ms to
/// 420 ms, ran 1.6-1.8 times slower (docs/calibration.md, "slow spells"). A batch that
/// falls in a long one reads 0.7 or 1.4 against its pair. So each build runs a pair as slices, short batches in turn with the
/// other's, and its fastest call over them counts: a spell that covers part of the
/// pair leaves both builds calls outside it. A cell whose calls are short gets
/// [`SHORT_SLICES`] of [`CALLS_PER_SLICE`] calls; one whose calls are long gets
/// [`LONG_SLICES`] of one call. A cell without times keeps `plan`, in one slice.
pub(crate) fn sized_batch(plan: Plan, first: &CellResult) -> (Plan, usize) {
    let slower = [&first.compress, &first.decompress]
        .iter()
        .filter_map(|s| s.as_ref().map(|s| s.median_s))
        .fold(0.0_f64, f64::max);
    if slower <= 0.0 {
        return (plan, 1);
    }
    let slices = match slower <= SHORT_CALL.as_secs_f64() {
        true => SHORT_SLICES,
        false => LONG_SLICES,
    };
    let (shortest, longest) = SLICE_TIME;
    let time = Duration::from_secs_f64(slower * f64::from(CALLS_PER_SLICE));
    let plan = Plan {
        iterations: Iterations::Budget {
            min_time: time.clamp(shortest, longest),
            max_iterations: SLICE_CALLS,
        },
        ..plan
    };
    (plan, slices)
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

/// One direction of a batch's timings.
type Direction = fn(&CellResult) -> &Option<Summary>;

/// The fastest call over one build's batches of a pair, on each clock: a slow spell
/// that covers part of them leaves it alone, where it moves a median
/// (docs/calibration.md, "ab pairs"). The CPU clock's only if every batch read it;
/// `None` when a batch has no timing.
fn fastest<'a>(batches: impl Iterator<Item = &'a Option<Summary>>) -> Option<(f64, Option<f64>)> {
    let mut wall = f64::INFINITY;
    let mut cpu = Some(f64::INFINITY);
    for summary in batches {
        let summary = summary.as_ref()?;
        wall = wall.min(summary.min_s);
        cpu = cpu
            .zip(summary.cpu.as_ref())
            .map(|(most, c)| most.min(c.min_s));
    }
    wall.is_finite().then_some((wall, cpu))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    fn first(compress_s: f64, decompress_s: f64) -> CellResult {
        let mut cell = CellResult::unmeasured(
            crate::vocab::CellId::reference(crate::vocab::CodecKind::Zstd, 3),
            "1".into(),
            None,
        );
        cell.compress = Summary::from_seconds(vec![compress_s]);
        cell.decompress = Summary::from_seconds(vec![decompress_s]);
        cell
    }

    fn min_time(plan: Plan) -> Duration {
        match plan.iterations {
            Iterations::Budget { min_time, .. } => min_time,
            Iterations::Fixed(_) => panic!("a sized batch has a time budget"),
        }
    }

    #[test]
    fn short_calls_get_four_slices_and_long_ones_two_of_one_call() {
        let plan = Plan {
            warmup: 3,
            iterations: Iterations::Budget {
                min_time: Duration::from_millis(25),
                max_iterations: 1000,
            },
            rounds: 1,
            precision: None,
            processes: 1,
        };
        let sized = |c, d| {
            let (plan, slices) = sized_batch(plan, &first(c, d));
            (min_time(plan), slices)
        };
        // Short calls: four slices of three calls of the slower direction, from 2 ms.
        assert_eq!(sized(0.0004, 0.0002), (Duration::from_millis(2), 4));
        assert_eq!(sized(0.004, 0.0002), (Duration::from_millis(12), 4));
        // Long ones: two slices, each up to 25 ms, which one call outlasts.
        assert_eq!(sized(0.012, 0.0002), (Duration::from_millis(25), 2));
        let (slow, slices) = sized_batch(plan, &first(0.3, 0.0002));
        assert_eq!((min_time(slow), slices), (Duration::from_millis(25), 2));
        assert!(matches!(
            slow.iterations,
            Iterations::Budget {
                max_iterations: 40,
                ..
            }
        ));
        assert_eq!(
            sized_batch(plan, &first(0.0, 0.0)).0.iterations,
            plan.iterations
        );
    }

    #[test]
    fn a_pair_counts_each_builds_fastest_call_over_its_slices() {
        let with_cpu = |wall: &[f64], cpu: &[f64]| {
            Summary::from_seconds(wall.to_vec()).map(|s| s.with_cpu(cpu.to_vec()))
        };
        let slices = [with_cpu(&[3.0, 2.0], &[2.9, 1.9]), with_cpu(&[1.5], &[1.6])];
        assert_eq!(fastest(slices.iter()), Some((1.5, Some(1.6))));
        let no_cpu = [with_cpu(&[3.0], &[2.9]), Summary::from_seconds(vec![1.0])];
        assert_eq!(fastest(no_cpu.iter()), Some((1.0, None)));
        assert_eq!(fastest([None].iter()), None);
    }
}
