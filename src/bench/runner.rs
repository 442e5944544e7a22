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

use super::result::CellResult;
use super::stats::Summary;
use crate::codec::Codec;

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

/// How many times to run each direction of each cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Untimed warm-up iterations before the first round's timed ones. Later rounds
    /// re-warm with one iteration (none if this is 0).
    pub warmup: u32,
    /// Timed iterations; at least 1.
    pub iterations: u32,
    /// Rounds to spread the timed iterations over; at least 1.
    pub rounds: u32,
}

impl Plan {
    /// Timed iterations in each round: `iterations` shared as evenly as possible over
    /// `rounds`, never more rounds than iterations.
    ///
    /// ```
    /// use codecbench::bench::runner::Plan;
    ///
    /// let plan = Plan { warmup: 3, iterations: 12, rounds: 5 };
    /// assert_eq!(plan.iterations_per_round(), [3, 3, 2, 2, 2]);
    /// let plan = Plan { warmup: 3, iterations: 2, rounds: 5 };
    /// assert_eq!(plan.iterations_per_round(), [1, 1]);
    /// ```
    pub fn iterations_per_round(&self) -> Vec<u32> {
        let rounds = self.rounds.clamp(1, self.iterations.max(1));
        let (share, extra) = (self.iterations / rounds, self.iterations % rounds);
        (0..rounds).map(|r| share + u32::from(r < extra)).collect()
    }

    /// Untimed iterations before round `round` (counted from 0).
    pub fn warmup_before_round(&self, round: usize) -> u32 {
        if round == 0 {
            self.warmup
        } else {
            self.warmup.min(1)
        }
    }
}

/// One cell being measured, round by round.
///
/// [`CellRun::start`] compresses and decompresses once, outside any timing, to get the
/// compressed size and check the round trip. Each [`CellRun::measure_round`] then runs
/// each direction's warm-up and timed iterations. Every timed iteration builds a fresh
/// encoder or decoder and a fresh output buffer *inside* the timed region, because a
/// server pays that set-up for every response. Each output is checked against the
/// reference outside the timed region. A failure stops the cell and is recorded in it,
/// not raised, so the other cells still run.
pub struct CellRun<'a> {
    codec: &'a dyn Codec,
    level: i32,
    input: &'a [u8],
    reference: Vec<u8>,
    cell: CellResult,
    compress: Vec<Duration>,
    decompress: Vec<Duration>,
}

impl<'a> CellRun<'a> {
    /// Makes the untimed reference round trip.
    pub fn start(codec: &'a dyn Codec, level: i32, input: &'a [u8]) -> Self {
        let mut run = CellRun {
            codec,
            level,
            input,
            reference: Vec::new(),
            cell: CellResult {
                codec: codec.kind().name().to_string(),
                implementation: codec.implementation(),
                level,
                dotnet_level: codec.dotnet_level(level).map(|l| l.name().to_string()),
                compressed_bytes: 0,
                compress: None,
                decompress: None,
                failure: None,
            },
            compress: Vec::new(),
            decompress: Vec::new(),
        };
        match codec.compress(level, input) {
            Ok(reference) => {
                run.cell.compressed_bytes = reference.len() as u64;
                run.cell.failure = check_round_trip(&codec.decompress(&reference), input).err();
                run.reference = reference;
            }
            Err(e) => run.cell.failure = Some(format!("compression failed: {e}")),
        }
        run
    }

    /// Whether a round trip has failed; a failed cell measures nothing more.
    pub fn failed(&self) -> bool {
        self.cell.failure.is_some()
    }

    /// Runs `warmup` untimed then `iterations` timed iterations of compression, then the
    /// same of decompression, adding the timings to the cell's samples.
    pub fn measure_round(&mut self, warmup: u32, iterations: u32, clock: &dyn Clock) {
        if self.failed() {
            return;
        }
        if let Err(why) = self.try_measure_round(warmup, iterations, clock) {
            self.cell.failure = Some(why);
        }
    }

    fn try_measure_round(
        &mut self,
        warmup: u32,
        iterations: u32,
        clock: &dyn Clock,
    ) -> Result<(), String> {
        let (codec, level, input, reference) =
            (self.codec, self.level, self.input, &self.reference);
        time_iterations(
            warmup,
            iterations,
            clock,
            &mut self.compress,
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
        time_iterations(
            warmup,
            iterations,
            clock,
            &mut self.decompress,
            || codec.decompress(black_box(reference)),
            |output| check_round_trip(output, input),
        )
    }

    /// The cell with its statistics; a failed cell has none.
    pub fn finish(mut self) -> CellResult {
        if !self.failed() {
            self.cell.compress = Summary::from_durations(&self.compress);
            self.cell.decompress = Summary::from_durations(&self.decompress);
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
    let mut run = CellRun::start(codec, level, input);
    for (round, iterations) in plan.iterations_per_round().into_iter().enumerate() {
        run.measure_round(plan.warmup_before_round(round), iterations, clock);
    }
    run.finish()
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

/// Runs `operation` `warmup` times untimed, then `iterations` times timed, appending the
/// timed durations to `samples`. `check` validates each output outside the timed region.
fn time_iterations<T>(
    warmup: u32,
    iterations: u32,
    clock: &dyn Clock,
    samples: &mut Vec<Duration>,
    mut operation: impl FnMut() -> T,
    mut check: impl FnMut(&T) -> Result<(), String>,
) -> Result<(), String> {
    for _ in 0..warmup {
        check(&black_box(operation()))?;
    }
    for _ in 0..iterations {
        let start = clock.now();
        let output = black_box(operation());
        let elapsed = clock.now().saturating_sub(start);
        check(&output)?;
        // The output is dropped here, after the clock stopped.
        drop(output);
        samples.push(elapsed);
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
        fn implementation(&self) -> String {
            "reverse 0".into()
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

    #[test]
    fn timed_samples_come_from_the_clock_and_warmups_are_not_timed() {
        // Readings come in (start, end) pairs: compress takes 5, 1, 3 ms, decompress 2, 4, 6.
        let clock = FakeClock::new(&[0, 5, 0, 1, 0, 3, 0, 2, 0, 4, 0, 6]);
        let codec = reverse(false);
        let plan = Plan {
            warmup: 2,
            iterations: 3,
            rounds: 1,
        };
        let cell = measure_cell(&codec, 1, b"abc", plan, &clock);
        assert_eq!(cell.failure, None);
        assert_eq!(
            clock.readings.get(),
            12,
            "two readings per timed iteration, none for warm-up"
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
        let plan = Plan {
            warmup: 0,
            iterations: 3,
            rounds: 1,
        };
        let cell = measure_cell(&reverse(true), 1, b"abc", plan, &clock);
        assert!(cell.failure.unwrap().contains("round trip mismatch"));
        assert!(cell.compress.is_none() && cell.decompress.is_none());
        assert_eq!(
            clock.readings.get(),
            0,
            "nothing timed after a failed round trip"
        );
    }

    #[test]
    fn rounds_split_the_timed_iterations_and_rewarm_once_each() {
        let plan = Plan {
            warmup: 3,
            iterations: 7,
            rounds: 3,
        };
        assert_eq!(plan.iterations_per_round(), [3, 2, 2]);
        let warmups: Vec<u32> = (0..3).map(|r| plan.warmup_before_round(r)).collect();
        assert_eq!(warmups, [3, 1, 1]);
        let cold = Plan { warmup: 0, ..plan };
        assert_eq!(
            cold.warmup_before_round(2),
            0,
            "--warmup 0 means none at all"
        );

        let clock = FakeClock::new(&[]);
        let codec = reverse(false);
        let cell = measure_cell(&codec, 1, b"abc", plan, &clock);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 7);
        assert_eq!(clock.readings.get(), 2 * 2 * 7);
        // 1 reference pair + (3 + 1 + 1 warm-up + 7 timed) per direction.
        assert_eq!(codec.calls.get(), 2 + 2 * 12);
    }

    #[test]
    fn samples_keep_their_order_across_rounds() {
        // Round 1 times compress 1, 2 then decompress 7, 8; round 2 compress 3, decompress 9.
        let clock = FakeClock::new(&[0, 1, 0, 2, 0, 7, 0, 8, 0, 3, 0, 9]);
        let codec = reverse(false);
        let mut run = CellRun::start(&codec, 1, b"abc");
        run.measure_round(0, 2, &clock);
        run.measure_round(0, 1, &clock);
        let cell = run.finish();
        assert_eq!(cell.compress.unwrap().samples_s, [0.001, 0.002, 0.003]);
        assert_eq!(cell.decompress.unwrap().samples_s, [0.007, 0.008, 0.009]);
    }

    #[test]
    fn a_failed_cell_measures_nothing_in_later_rounds() {
        let clock = FakeClock::new(&[]);
        let codec = reverse(true);
        let mut run = CellRun::start(&codec, 1, b"abc");
        assert!(run.failed());
        let calls = codec.calls.get();
        run.measure_round(1, 5, &clock);
        assert_eq!(codec.calls.get(), calls);
        assert!(run.finish().compress.is_none());
    }

    #[test]
    fn real_codec_on_a_real_clock_gives_positive_times() {
        let input = crate::payload::generate(10, 42, crate::payload::RngKind::Dotnet);
        let plan = Plan {
            warmup: 1,
            iterations: 2,
            rounds: 2,
        };
        let codec = CodecKind::Gzip.codec();
        let cell = measure_cell(codec.as_ref(), 1, &input, plan, &SystemClock::new());
        assert_eq!(cell.failure, None);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 2);
        assert!(cell.compressed_bytes > 0 && cell.compressed_bytes < input.len() as u64);
    }
}
