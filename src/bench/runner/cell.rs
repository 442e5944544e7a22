//! One cell's run: its round trip checked, then each direction warmed up and timed, round by round.

use std::hint::black_box;
use std::io;
use std::time::Duration;

use super::clock::Clock;

use crate::bench::schedule::{Plan, Precision, Schedule, MAX_EXTRA_ROUNDS};
use crate::codec::Codec;
use crate::results::run::CellResult;
use crate::stats::Summary;

/// What one round of one direction runs: `warmup` untimed iterations, then `iterations`
/// timed ones, or, with `time`, timed ones until they add up to `time` (at least one, at
/// most `iterations`).
#[derive(Clone, Copy, Debug)]
struct RoundTarget {
    warmup: u32,
    iterations: u32,
    time: Option<Duration>,
}

/// One direction's schedule and samples.
struct DirectionRun {
    schedule: Schedule,
    samples: Samples,
}

/// Timed iterations: each one's wall time, and its CPU time while the thread's CPU
/// clock could be read for every one.
#[derive(Default)]
struct Samples {
    wall: Vec<Duration>,
    cpu: Option<Vec<Duration>>,
}

impl Samples {
    fn push(&mut self, time: Timed) {
        if self.wall.is_empty() {
            self.cpu = Some(Vec::new());
        }
        self.wall.push(time.wall);
        match (&mut self.cpu, time.cpu) {
            (Some(cpu), Some(time)) => cpu.push(time),
            (cpu, _) => *cpu = None,
        }
    }

    /// The wall times' summary, with their CPU times.
    fn summary(&self) -> Option<Summary> {
        let cpu = self
            .cpu
            .iter()
            .flatten()
            .map(Duration::as_secs_f64)
            .collect();
        Some(Summary::from_durations(&self.wall)?.with_cpu(cpu))
    }
}

/// One timed call: its wall time, and its CPU time where the thread's clock reads.
#[derive(Clone, Copy, Debug)]
struct Timed {
    wall: Duration,
    cpu: Option<Duration>,
}

impl DirectionRun {
    fn new(plan: &Plan, first: Timed) -> Self {
        let schedule = plan.schedule(first.wall);
        let mut samples = Samples::default();
        if schedule.reuse_first_run {
            samples.push(first);
        }
        DirectionRun { schedule, samples }
    }

    /// Warm-up and timed iterations of round `round`, if it has any; past the planned
    /// rounds, with `extra`, another round like the last planned one.
    fn round(&self, round: usize, extra: bool) -> Option<RoundTarget> {
        let iterations = match self.schedule.per_round.get(round) {
            Some(&count) => count,
            None if extra => *self.schedule.per_round.last()?,
            None => return None,
        };
        let warmup = if round == 0 {
            self.schedule.warmup
        } else {
            self.schedule.rewarm
        };
        Some(RoundTarget {
            warmup,
            iterations,
            time: self.schedule.round_time,
        })
    }
}

/// One cell being measured, round by round.
///
/// [`CellRun::start`] compresses and decompresses once to get the compressed size, check
/// the round trip and time a first run of each direction, from which the [`Schedule`]
/// follows. Each [`CellRun::measure_round`] then runs each direction's warm-up and timed
/// iterations for that round. Every timed iteration builds a fresh encoder or decoder and
/// a fresh output buffer *inside* the timed region, because a server pays that set-up for
/// every response. Each output is checked against the reference outside the timed
/// region. A failure stops the cell and is recorded in it, not raised, so the other cells
/// still run.
pub(crate) struct CellRun<'a> {
    codec: &'a dyn Codec,
    level: i32,
    input: &'a [u8],
    reference: Vec<u8>,
    cell: CellResult,
    directions: Option<(DirectionRun, DirectionRun)>,
    precision: Option<Precision>,
    /// The calibration hook's factor for this cell, if any (see [`crate::bench::calibrate`]).
    slowdown: Option<f64>,
}

impl<'a> CellRun<'a> {
    /// Makes and times the reference round trip, and plans the rest.
    pub(crate) fn start(
        codec: &'a dyn Codec,
        level: i32,
        input: &'a [u8],
        plan: &Plan,
        clock: &dyn Clock,
    ) -> Self {
        let mut run = CellRun {
            codec,
            level,
            input,
            reference: Vec::new(),
            cell: CellResult::unmeasured(
                codec.id(level),
                codec.version(),
                codec.dotnet_level(level).map(|l| l.name().to_string()),
            ),
            directions: None,
            precision: plan.precision,
            slowdown: crate::bench::calibrate::factor_for(&codec.id(level)),
        };
        let (compressed, compress_time) =
            timed(clock, || codec.compress_measuring_memory(level, input));
        let reference = match compressed {
            Ok((reference, encoder_bytes)) => {
                run.cell.encoder_bytes = encoder_bytes;
                reference
            }
            Err(e) => {
                run.cell.fail(format!("compression failed: {e}"));
                return run;
            }
        };
        run.cell.compressed_bytes = reference.len() as u64;
        let (decompressed, decompress_time) =
            timed(clock, || codec.decompress_known(&reference, input.len()));
        run.reference = reference;
        if let Err(why) = check_round_trip(&decompressed, input) {
            run.cell.fail(why);
            return run;
        }
        run.directions = Some((
            DirectionRun::new(plan, compress_time),
            DirectionRun::new(plan, decompress_time),
        ));
        run
    }

    /// Whether a round trip has failed; a failed cell measures nothing more.
    pub(crate) fn failed(&self) -> bool {
        self.cell.failed()
    }

    /// Runs round `round` (from 0): each direction's warm-up then timed iterations, if its
    /// schedule has that round.
    pub(crate) fn measure_round(&mut self, round: usize, clock: &dyn Clock) {
        if self.failed() {
            return;
        }
        if let Err(why) = self.try_measure_round(round, clock) {
            self.cell.fail(why);
        }
    }

    fn try_measure_round(&mut self, round: usize, clock: &dyn Clock) -> Result<(), String> {
        let (codec, level, input, reference) =
            (self.codec, self.level, self.input, &self.reference);
        let slowdown = self.slowdown;
        let Some((compress, decompress)) = self.directions.as_mut() else {
            return Ok(());
        };
        // Past the planned rounds a cell is still measured only for its precision.
        let extra = self.precision.is_some() && round >= planned_rounds(compress, decompress);
        if let Some(target) = compress.round(round, extra) {
            time_iterations(
                (target, slowdown),
                clock,
                &mut compress.samples,
                || codec.compress(level, black_box(input)),
                |output| match output {
                    Ok(bytes) if bytes == reference => Ok(()),
                    Ok(bytes) => Err(format!(
                        "compression is not deterministic: {} bytes, then {} bytes",
                        reference.len(),
                        bytes.len()
                    )),
                    Err(e) => Err(format!("compression failed: {e}")),
                },
            )?;
        }
        if let Some(target) = decompress.round(round, extra) {
            time_iterations(
                (target, slowdown),
                clock,
                &mut decompress.samples,
                || codec.decompress_known(black_box(reference), input.len()),
                |output| check_round_trip(output, input),
            )?;
        }
        Ok(())
    }

    /// Whether the cell has nothing left to measure after round `round` (from 0): the
    /// last planned round, or a schedule with fewer rounds, or a failure; with a
    /// precision, also its interval within the target or its budget spent, and the
    /// outcome is recorded in the cell.
    pub(crate) fn done_after(&mut self, round: usize) -> bool {
        let Some((compress, decompress)) = &self.directions else {
            return true;
        };
        if self.failed() {
            return true;
        }
        let planned = planned_rounds(compress, decompress);
        if round + 1 < planned {
            return false;
        }
        let Some(precision) = self.precision else {
            return true;
        };
        let widths = [compress, decompress].map(|d| relative_half_width(&d.samples.wall));
        let met = widths
            .iter()
            .all(|w| w.is_some_and(|w| w <= precision.target));
        let spent: Duration = [compress, decompress]
            .iter()
            .flat_map(|d| d.samples.wall.iter())
            .sum();
        let out_of_rounds = round + 1 >= planned + MAX_EXTRA_ROUNDS;
        if met || spent >= precision.budget || out_of_rounds {
            self.cell.precision_met = Some(met);
            return true;
        }
        false
    }

    /// Whether both directions have at least one timed sample, so that a cell cut short
    /// by a stop request still says something.
    pub(crate) fn has_samples(&self) -> bool {
        self.directions
            .as_ref()
            .is_some_and(|(c, d)| !c.samples.wall.is_empty() && !d.samples.wall.is_empty())
    }

    /// The cell with its statistics; a failed cell has none.
    pub(crate) fn finish(mut self) -> CellResult {
        if let (false, Some((compress, decompress))) = (self.failed(), &self.directions) {
            self.cell.compress = compress.samples.summary();
            self.cell.decompress = decompress.samples.summary();
        }
        self.cell
    }
}

/// Measures one codec at one level on `input`, its rounds back to back; see [`CellRun`].
#[cfg(test)]
fn measure_cell(
    codec: &dyn Codec,
    level: i32,
    input: &[u8],
    plan: Plan,
    clock: &dyn Clock,
) -> CellResult {
    let mut run = CellRun::start(codec, level, input, &plan, clock);
    for round in 0.. {
        run.measure_round(round, clock);
        if run.done_after(round) {
            break;
        }
    }
    run.finish()
}

/// Rounds the schedules of a cell's two directions plan, the longer of the two.
fn planned_rounds(compress: &DirectionRun, decompress: &DirectionRun) -> usize {
    compress
        .schedule
        .per_round
        .len()
        .max(decompress.schedule.per_round.len())
}

/// The larger distance from the median to either end of its 95% confidence interval,
/// relative to the median; `None` with too few samples for an interval.
fn relative_half_width(samples: &[Duration]) -> Option<f64> {
    let mut seconds: Vec<f64> = samples.iter().map(Duration::as_secs_f64).collect();
    seconds.sort_by(f64::total_cmp);
    let rank = crate::stats::median_ci_rank(seconds.len(), 0.05)?;
    let median = crate::stats::median(&mut seconds.clone());
    let (low, high) = (seconds[rank - 1], seconds[seconds.len() - rank]);
    (median > 0.0).then(|| (median - low).max(high - median) / median)
}

/// Runs `operation` once between two readings of each clock. The CPU clock is read
/// outside the wall clock, so its cost stays off the wall time; what the readings add to
/// the CPU time is taken off it.
fn timed<T>(clock: &dyn Clock, operation: impl FnOnce() -> T) -> (T, Timed) {
    let cpu_start = clock.cpu_now();
    let start = clock.now();
    let output = black_box(operation());
    let wall = clock.now().saturating_sub(start);
    let cpu = cpu_start.zip(clock.cpu_now()).map(|(start, end)| {
        end.saturating_sub(start)
            .saturating_sub(clock.cpu_overhead())
    });
    (output, Timed { wall, cpu })
}

fn check_round_trip(output: &io::Result<Vec<u8>>, input: &[u8]) -> Result<(), String> {
    match output {
        Ok(bytes) if bytes == input => Ok(()),
        Ok(bytes) => Err(format!(
            "round trip mismatch: decompressed {} bytes differ from the {}-byte input",
            bytes.len(),
            input.len()
        )),
        Err(e) => Err(format!("decompression failed: {e}")),
    }
}

/// Runs `operation` as `target` says, appending the timed durations to `samples`, each
/// stretched by the calibration hook's factor where it names the cell. `check` validates
/// each output outside the timed region.
fn time_iterations<T>(
    (target, slowdown): (RoundTarget, Option<f64>),
    clock: &dyn Clock,
    samples: &mut Samples,
    mut operation: impl FnMut() -> T,
    mut check: impl FnMut(&T) -> Result<(), String>,
) -> Result<(), String> {
    for _ in 0..target.warmup {
        if crate::process::interrupt::requested() {
            return Ok(());
        }
        check(&black_box(operation()))?;
    }
    let mut spent = Duration::ZERO;
    for _ in 0..target.iterations {
        // A stop request lets the iteration in flight finish, then ends the round.
        if crate::process::interrupt::requested() {
            return Ok(());
        }
        let (output, elapsed) = match slowdown {
            None => timed(clock, &mut operation),
            Some(factor) => timed(clock, || {
                let started = clock.now();
                let output = black_box(operation());
                let call = clock.now().saturating_sub(started);
                crate::bench::calibrate::stretch(clock, started, call, factor);
                output
            }),
        };
        check(&output)?;
        // The output is dropped here, after the clock stopped.
        drop(output);
        samples.push(elapsed);
        spent += elapsed.wall;
        if target.time.is_some_and(|time| spent >= time) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "cell_tests.rs"]
mod tests;
