//! The runner: round-trip check, warm-up, then timed iterations for each direction.
//!
//! A cell's timed iterations are split into rounds, and each round visits every cell in
//! turn, in the manner of Google Benchmark's `--benchmark_enable_random_interleaving`
//! (Google's "Random interleaving" design note). A shared machine has slow and fast
//! periods lasting seconds; when one cell's iterations all run back to back, a slow period
//! moves that cell's median by up to 1.5× with no sign of it in the samples. Spreading
//! them over the run puts the machine's drift into every cell's spread instead. Each
//! round starts with untimed warm-up, so every timed iteration still runs hot, as in a
//! server that compresses response after response.

use std::hint::black_box;
use std::io;
use std::time::{Duration, Instant};

use crate::codec::Codec;
use crate::results::codec::{CellResult, Status};
use crate::stats::Summary;

/// A monotonic clock; the runner reads it around each timed iteration.
pub trait Clock {
    /// Time elapsed since some fixed origin.
    fn now(&self) -> Duration;
}

/// The real clock: `Instant`, which is monotonic.
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// How many timed iterations each direction of each cell gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Iterations {
    /// Exactly this many, at least 1: the article's method.
    Fixed(u32),
    /// Enough to fill `min_time`, sized from the first (reference) run of each direction,
    /// as lzbench `-t` and hyperfine `--min-benchmarking-time` do; at most
    /// `max_iterations`. A direction whose first run alone lasts `min_time` keeps that run
    /// as its one sample.
    Budget {
        /// Timed time to fill per direction.
        min_time: Duration,
        /// Cap on the count.
        max_iterations: u32,
    },
}

/// Adaptive stopping, as BenchmarkDotNet's `MaxRelativeError`: after its planned rounds a
/// cell gets further rounds until the 95% confidence interval of each direction's median
/// is within `target` of the median, or its timed time passes `budget`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// The largest relative half-width of the interval, e.g. 0.02 for ±2%.
    pub target: f64,
    /// The most timed time a cell may take, both directions together.
    pub budget: Duration,
}

/// Extra rounds a cell may get on top of its planned ones, whatever the budget, so that
/// iterations a clock cannot see still end.
pub const MAX_EXTRA_ROUNDS: usize = 200;

/// How to measure each direction of each cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Untimed warm-up iterations before the first round's timed ones. Later rounds
    /// re-warm with one iteration (none if this is 0). With a time budget, warm-up also
    /// stops at a quarter of `min_time`.
    pub warmup: u32,
    /// Timed iterations.
    pub iterations: Iterations,
    /// Rounds to spread the timed iterations over; at least 1.
    pub rounds: u32,
    /// Further rounds until a precision is reached, if asked for.
    pub precision: Option<Precision>,
}

/// What one direction of one cell runs, decided once its first run is timed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Untimed iterations before the first round.
    pub warmup: u32,
    /// Untimed iterations before each later round.
    pub rewarm: u32,
    /// Timed iterations in each round; fewer entries than rounds when there are fewer
    /// iterations than rounds. With `round_time`, the most a round may run.
    pub per_round: Vec<u32>,
    /// With a time budget: each round runs timed iterations until their times add up to
    /// this (at least one, at most the round's `per_round`).
    pub round_time: Option<Duration>,
    /// The first run is kept as the only sample (a time budget it already filled).
    pub reuse_first_run: bool,
}

impl Plan {
    /// The schedule of a direction whose first, untimed-for-the-results run took `first`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use codecbench::bench::runner::{Iterations, Plan};
    ///
    /// let plan = Plan { warmup: 3, iterations: Iterations::Fixed(12), rounds: 5, precision: None };
    /// assert_eq!(plan.schedule(Duration::from_millis(1)).per_round, [3, 3, 2, 2, 2]);
    /// let budget = Iterations::Budget { min_time: Duration::from_millis(100), max_iterations: 1000 };
    /// let plan = Plan { iterations: budget, ..plan };
    /// let schedule = plan.schedule(Duration::from_millis(7));
    /// assert_eq!(schedule.round_time, Some(Duration::from_millis(20)));
    /// assert_eq!(schedule.per_round, [200; 5]);
    /// ```
    pub fn schedule(&self, first: Duration) -> Schedule {
        let split = |count: u32, rounds: u32| -> Vec<u32> {
            let (share, extra) = (count / rounds, count % rounds);
            (0..rounds).map(|r| share + u32::from(r < extra)).collect()
        };
        match self.iterations {
            Iterations::Fixed(count) => {
                let count = count.max(1);
                Schedule {
                    warmup: self.warmup,
                    rewarm: self.warmup.min(1),
                    per_round: split(count, self.rounds.clamp(1, count)),
                    round_time: None,
                    reuse_first_run: false,
                }
            }
            Iterations::Budget {
                min_time,
                max_iterations,
            } => {
                if first >= min_time {
                    return Schedule {
                        warmup: 0,
                        rewarm: 0,
                        per_round: Vec::new(),
                        round_time: None,
                        reuse_first_run: true,
                    };
                }
                // The first run is often slower than the rest (cold caches), so it only
                // sets the number of rounds and the warm-up; the rounds then run by time.
                let per_run = first.as_secs_f64().max(1e-9);
                let estimate = (min_time.as_secs_f64() / per_run).ceil();
                let warm_budget = (min_time.as_secs_f64() / 4.0 / per_run).floor();
                let cap = max_iterations.max(1);
                let rounds = self.rounds.clamp(1, (estimate as u32).clamp(1, cap));
                let warmup = self.warmup.min(warm_budget as u32);
                Schedule {
                    warmup,
                    rewarm: warmup.min(1),
                    per_round: split(cap, rounds),
                    round_time: Some(min_time / rounds),
                    reuse_first_run: false,
                }
            }
        }
    }
}

/// What one round of one direction runs: `warmup` untimed iterations, then `iterations`
/// timed ones, or, with `time`, timed ones until they add up to `time` (at least one, at
/// most `iterations`).
#[derive(Clone, Copy, Debug)]
struct Target {
    warmup: u32,
    iterations: u32,
    time: Option<Duration>,
}

/// One direction's schedule and samples.
struct Direction {
    schedule: Schedule,
    samples: Vec<Duration>,
}

impl Direction {
    fn new(plan: &Plan, first: Duration) -> Self {
        let schedule = plan.schedule(first);
        let samples = if schedule.reuse_first_run {
            vec![first]
        } else {
            Vec::new()
        };
        Direction { schedule, samples }
    }

    /// Warm-up and timed iterations of round `round`, if it has any; past the planned
    /// rounds, with `extra`, another round like the last planned one.
    fn round(&self, round: usize, extra: bool) -> Option<Target> {
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
        Some(Target {
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
pub struct CellRun<'a> {
    codec: &'a dyn Codec,
    level: i32,
    input: &'a [u8],
    reference: Vec<u8>,
    cell: CellResult,
    directions: Option<(Direction, Direction)>,
    precision: Option<Precision>,
    /// Past the planned rounds, measuring for precision.
    extra: bool,
}

impl<'a> CellRun<'a> {
    /// Makes and times the reference round trip, and plans the rest.
    pub fn start(
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
            cell: CellResult {
                id: codec.id(level),
                version: codec.version(),
                dotnet_level: codec.dotnet_level(level).map(|l| l.name().to_string()),
                compressed_bytes: 0,
                encoder_bytes: None,
                compress: None,
                decompress: None,
                precision_met: None,
                status: Status::Ok,
                failure: None,
            },
            directions: None,
            precision: plan.precision,
            extra: false,
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
        let (decompressed, decompress_time) = timed(clock, || codec.decompress(&reference));
        run.reference = reference;
        if let Err(why) = check_round_trip(&decompressed, input) {
            run.cell.fail(why);
            return run;
        }
        run.directions = Some((
            Direction::new(plan, compress_time),
            Direction::new(plan, decompress_time),
        ));
        run
    }

    /// Whether a round trip has failed; a failed cell measures nothing more.
    pub fn failed(&self) -> bool {
        self.cell.failed()
    }

    /// Runs round `round` (from 0): each direction's warm-up then timed iterations, if its
    /// schedule has that round.
    pub fn measure_round(&mut self, round: usize, clock: &dyn Clock) {
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
        let Some((compress, decompress)) = self.directions.as_mut() else {
            return Ok(());
        };
        let extra = self.extra;
        if let Some(target) = compress.round(round, extra) {
            time_iterations(
                target,
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
                target,
                clock,
                &mut decompress.samples,
                || codec.decompress(black_box(reference)),
                |output| check_round_trip(output, input),
            )?;
        }
        Ok(())
    }

    /// Whether the cell has nothing left to measure after round `round` (from 0): the
    /// last planned round, or a schedule with fewer rounds, or a failure; with a
    /// precision, also its interval within the target or its budget spent, and the
    /// outcome is recorded in the cell.
    pub fn done_after(&mut self, round: usize) -> bool {
        let Some((compress, decompress)) = &self.directions else {
            return true;
        };
        if self.failed() {
            return true;
        }
        let planned = compress
            .schedule
            .per_round
            .len()
            .max(decompress.schedule.per_round.len());
        if round + 1 < planned {
            return false;
        }
        let Some(precision) = self.precision else {
            return true;
        };
        let widths = [compress, decompress].map(|d| relative_half_width(&d.samples));
        let met = widths
            .iter()
            .all(|w| w.is_some_and(|w| w <= precision.target));
        let spent: Duration = [compress, decompress]
            .iter()
            .flat_map(|d| d.samples.iter())
            .sum();
        let out_of_rounds = round + 1 >= planned + MAX_EXTRA_ROUNDS;
        if met || spent >= precision.budget || out_of_rounds {
            self.cell.precision_met = Some(met);
            return true;
        }
        self.extra = true;
        false
    }

    /// Whether both directions have at least one timed sample, so that a cell cut short
    /// by a stop request still says something.
    pub fn has_samples(&self) -> bool {
        self.directions
            .as_ref()
            .is_some_and(|(c, d)| !c.samples.is_empty() && !d.samples.is_empty())
    }

    /// The cell with its statistics; a failed cell has none.
    pub fn finish(mut self) -> CellResult {
        if let (false, Some((compress, decompress))) = (self.failed(), &self.directions) {
            self.cell.compress = Summary::from_durations(&compress.samples);
            self.cell.decompress = Summary::from_durations(&decompress.samples);
        }
        self.cell
    }
}

/// Measures one codec at one level on `input`, its rounds back to back; see [`CellRun`].
pub fn measure_cell(
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

/// Runs `operation` once between two clock readings.
fn timed<T>(clock: &dyn Clock, operation: impl FnOnce() -> T) -> (T, Duration) {
    let start = clock.now();
    let output = black_box(operation());
    (output, clock.now().saturating_sub(start))
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

/// Runs `operation` as `target` says, appending the timed durations to `samples`.
/// `check` validates each output outside the timed region.
fn time_iterations<T>(
    target: Target,
    clock: &dyn Clock,
    samples: &mut Vec<Duration>,
    mut operation: impl FnMut() -> T,
    mut check: impl FnMut(&T) -> Result<(), String>,
) -> Result<(), String> {
    for _ in 0..target.warmup {
        if super::interrupt::requested() {
            return Ok(());
        }
        check(&black_box(operation()))?;
    }
    let mut spent = Duration::ZERO;
    for _ in 0..target.iterations {
        // A stop request lets the iteration in flight finish, then ends the round.
        if super::interrupt::requested() {
            return Ok(());
        }
        let (output, elapsed) = timed(clock, &mut operation);
        check(&output)?;
        // The output is dropped here, after the clock stopped.
        drop(output);
        samples.push(elapsed);
        spent += elapsed;
        if target.time.is_some_and(|time| spent >= time) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{CodecKind, DotnetLevel};
    use std::cell::{Cell, RefCell};
    use std::ops::RangeInclusive;

    /// A clock that advances by scripted steps, one step per reading.
    struct FakeClock {
        now: Cell<Duration>,
        steps: RefCell<Vec<Duration>>,
        readings: Cell<usize>,
    }

    impl FakeClock {
        fn new(steps_ms: &[u64]) -> Self {
            FakeClock {
                now: Cell::new(Duration::ZERO),
                steps: RefCell::new(
                    steps_ms
                        .iter()
                        .rev()
                        .map(|&ms| Duration::from_millis(ms))
                        .collect(),
                ),
                readings: Cell::new(0),
            }
        }
    }

    impl Clock for FakeClock {
        fn now(&self) -> Duration {
            let step = self.steps.borrow_mut().pop().unwrap_or(Duration::ZERO);
            self.now.set(self.now.get() + step);
            self.readings.set(self.readings.get() + 1);
            self.now.get()
        }
    }

    /// A codec that "compresses" by reversing the bytes, optionally corrupting the round trip.
    struct ReverseCodec {
        corrupt: bool,
        calls: Cell<u32>,
    }

    impl Codec for ReverseCodec {
        fn kind(&self) -> CodecKind {
            CodecKind::Zstd
        }
        fn library(&self) -> crate::codec::Library {
            crate::codec::Library::Libzstd
        }
        fn version(&self) -> String {
            "0".into()
        }
        fn supported_levels(&self) -> RangeInclusive<i32> {
            1..=1
        }
        fn default_levels(&self) -> Vec<i32> {
            vec![1]
        }
        fn dotnet_level(&self, _: i32) -> Option<DotnetLevel> {
            Some(DotnetLevel::Fastest)
        }
        fn compress(&self, _: i32, input: &[u8]) -> io::Result<Vec<u8>> {
            self.calls.set(self.calls.get() + 1);
            Ok(input.iter().rev().copied().collect())
        }
        fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
            self.calls.set(self.calls.get() + 1);
            let mut out: Vec<u8> = compressed.iter().rev().copied().collect();
            if self.corrupt {
                out[0] ^= 1;
            }
            Ok(out)
        }
    }

    fn reverse(corrupt: bool) -> ReverseCodec {
        ReverseCodec {
            corrupt,
            calls: Cell::new(0),
        }
    }

    fn fixed(warmup: u32, iterations: u32, rounds: u32) -> Plan {
        Plan {
            warmup,
            iterations: Iterations::Fixed(iterations),
            rounds,
            precision: None,
        }
    }

    fn budget(warmup: u32, min_time_ms: u64, max_iterations: u32, rounds: u32) -> Plan {
        Plan {
            warmup,
            iterations: Iterations::Budget {
                min_time: Duration::from_millis(min_time_ms),
                max_iterations,
            },
            rounds,
            precision: None,
        }
    }

    #[test]
    fn timed_samples_come_from_the_clock_and_warmups_are_not_timed() {
        // Readings come in (start, end) pairs: the reference round trip takes 9 and 8 ms,
        // then compress 5, 1, 3 ms and decompress 2, 4, 6.
        let clock = FakeClock::new(&[0, 9, 0, 8, 0, 5, 0, 1, 0, 3, 0, 2, 0, 4, 0, 6]);
        let codec = reverse(false);
        let cell = measure_cell(&codec, 1, b"abc", fixed(2, 3, 1), &clock);
        assert_eq!(cell.failure, None);
        assert_eq!(
            clock.readings.get(),
            16,
            "two readings per timed iteration and reference run, none for warm-up"
        );
        // 1 reference pair + (2 warm-up + 3 timed) per direction.
        assert_eq!(codec.calls.get(), 2 + 5 + 5);
        let compress = cell.compress.unwrap();
        assert_eq!(compress.samples_s, vec![0.005, 0.001, 0.003]);
        assert_eq!((compress.median_s, compress.min_s), (0.003, 0.001));
        let decompress = cell.decompress.unwrap();
        assert_eq!(decompress.median_s, 0.004);
        assert_eq!(cell.compressed_bytes, 3);
        assert_eq!(cell.dotnet_level.as_deref(), Some("Fastest"));
    }

    #[test]
    fn a_round_trip_mismatch_is_recorded_in_the_cell_without_timings() {
        let clock = FakeClock::new(&[]);
        let cell = measure_cell(&reverse(true), 1, b"abc", fixed(0, 3, 1), &clock);
        assert!(cell.failure.unwrap().contains("round trip mismatch"));
        assert!(cell.compress.is_none() && cell.decompress.is_none());
        assert_eq!(
            clock.readings.get(),
            4,
            "only the reference round trip is timed"
        );
    }

    #[test]
    fn rounds_split_the_timed_iterations_and_rewarm_once_each() {
        let plan = fixed(3, 7, 3);
        let schedule = plan.schedule(Duration::from_millis(1));
        assert_eq!(schedule.per_round, [3, 2, 2]);
        assert_eq!((schedule.warmup, schedule.rewarm), (3, 1));
        let cold = fixed(0, 7, 3).schedule(Duration::from_millis(1));
        assert_eq!(cold.rewarm, 0, "--warmup 0 means none at all");
        assert_eq!(fixed(3, 2, 5).schedule(Duration::ZERO).per_round, [1, 1]);

        let clock = FakeClock::new(&[]);
        let codec = reverse(false);
        let cell = measure_cell(&codec, 1, b"abc", plan, &clock);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 7);
        assert_eq!(clock.readings.get(), 2 * 2 * (1 + 7));
        // 1 reference pair + (3 + 1 + 1 warm-up + 7 timed) per direction.
        assert_eq!(codec.calls.get(), 2 + 2 * 12);
    }

    #[test]
    fn a_budget_runs_each_round_by_time() {
        let plan = budget(3, 100, 1000, 5);
        // 7 ms per run: 5 rounds of 20 ms; warm-up stops at 25 ms → 3.
        let s = plan.schedule(Duration::from_millis(7));
        assert_eq!(s.per_round, [200; 5], "the cap, shared over the rounds");
        assert_eq!(s.round_time, Some(Duration::from_millis(20)));
        assert_eq!((s.warmup, s.rewarm, s.reuse_first_run), (3, 1, false));
        // 30 ms: about 4 runs fill the budget, so 4 rounds of 25 ms, and no warm-up.
        let s = plan.schedule(Duration::from_millis(30));
        assert_eq!((s.per_round.len(), s.warmup), (4, 0));
        assert_eq!(s.round_time, Some(Duration::from_millis(25)));
        // A first run that fills the budget is the only sample.
        let s = plan.schedule(Duration::from_millis(100));
        assert!(s.reuse_first_run && s.per_round.is_empty());

        // Reference runs 30 and 30 ms (cold); then each round's iterations take 10 ms, so
        // each 25 ms round runs 3 of them.
        let mut steps = vec![0, 30, 0, 30];
        steps.extend([0, 10].repeat(24));
        let clock = FakeClock::new(&steps);
        let cell = measure_cell(&reverse(false), 1, b"abc", budget(0, 100, 1000, 5), &clock);
        assert_eq!(cell.compress.unwrap().samples_s, [0.01; 12]);
        assert_eq!(cell.decompress.unwrap().samples_s.len(), 12);
    }

    #[test]
    fn the_cap_stops_a_budget_early() {
        let clock = FakeClock::new(&[0, 1, 0, 1]);
        // Every later reading adds nothing: iterations take no time, so only the cap stops.
        let cell = measure_cell(&reverse(false), 1, b"abc", budget(0, 100, 50, 5), &clock);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 50);
    }

    #[test]
    fn a_slow_first_run_becomes_the_sample() {
        // Reference compress 200 ms, decompress 10 ms; then 10 decompressions of 10 ms.
        let mut steps = vec![0, 200, 0, 10];
        steps.extend([0, 10].repeat(10));
        let clock = FakeClock::new(&steps);
        let codec = reverse(false);
        let cell = measure_cell(&codec, 1, b"abc", budget(0, 100, 1000, 1), &clock);
        assert_eq!(cell.compress.unwrap().samples_s, [0.2]);
        let decompress = cell.decompress.unwrap();
        assert_eq!(decompress.samples_s.len(), 10);
        assert_eq!(decompress.median_s, 0.01);
    }

    #[test]
    fn samples_keep_their_order_across_rounds() {
        // Reference 1, 1 ms; round 1 compress 1, 2 then decompress 7, 8; round 2 compress
        // 3, decompress 9.
        let clock = FakeClock::new(&[0, 1, 0, 1, 0, 1, 0, 2, 0, 7, 0, 8, 0, 3, 0, 9]);
        let codec = reverse(false);
        let plan = fixed(0, 3, 2);
        let mut run = CellRun::start(&codec, 1, b"abc", &plan, &clock);
        run.measure_round(0, &clock);
        run.measure_round(1, &clock);
        run.measure_round(2, &clock);
        let cell = run.finish();
        assert_eq!(cell.compress.unwrap().samples_s, [0.001, 0.002, 0.003]);
        assert_eq!(cell.decompress.unwrap().samples_s, [0.007, 0.008, 0.009]);
    }

    #[test]
    fn a_failed_cell_measures_nothing_in_later_rounds() {
        let clock = FakeClock::new(&[]);
        let codec = reverse(true);
        let mut run = CellRun::start(&codec, 1, b"abc", &fixed(1, 5, 5), &clock);
        assert!(run.failed());
        let calls = codec.calls.get();
        run.measure_round(1, &clock);
        assert_eq!(codec.calls.get(), calls);
        assert!(run.finish().compress.is_none());
    }

    #[test]
    fn real_codec_on_a_real_clock_gives_positive_times() {
        let input = crate::payload::generate(10, 42, crate::payload::RngKind::Dotnet);
        let codec = CodecKind::Gzip.codec();
        let cell = measure_cell(
            codec.as_ref(),
            1,
            &input,
            fixed(1, 2, 2),
            &SystemClock::new(),
        );
        assert_eq!(cell.failure, None);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 2);
        assert!(cell.compressed_bytes > 0 && cell.compressed_bytes < input.len() as u64);
    }

    fn precise(target: f64, budget_ms: u64) -> Plan {
        Plan {
            precision: Some(Precision {
                target,
                budget: Duration::from_millis(budget_ms),
            }),
            ..fixed(0, 10, 2)
        }
    }

    #[test]
    fn a_steady_cell_stops_at_its_planned_rounds_with_its_precision_met() {
        // Every timed iteration takes 1 ms: the interval is as narrow as it gets.
        let clock = FakeClock::new(&[0, 1].repeat(1000));
        let cell = measure_cell(&reverse(false), 1, b"abc", precise(0.02, 1000), &clock);
        assert_eq!(cell.precision_met, Some(true));
        assert_eq!(cell.compress.unwrap().samples_s.len(), 10, "no extra round");
    }

    #[test]
    fn a_noisy_cell_gets_extra_rounds_until_its_budget_and_is_marked() {
        // Iterations alternate 1 ms and 3 ms: the median's interval stays wide.
        let clock = FakeClock::new(&[0, 1, 0, 3].repeat(1000));
        let cell = measure_cell(&reverse(false), 1, b"abc", precise(0.02, 100), &clock);
        assert_eq!(cell.precision_met, Some(false));
        let samples = cell.compress.unwrap().samples_s.len();
        assert!(samples > 10, "extra rounds ran: {samples}");
        assert!(samples < 100, "the 100 ms budget stopped them: {samples}");
    }
}
