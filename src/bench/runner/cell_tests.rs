//! Unit tests of the runner, on a fake clock.

use super::*;
use crate::bench::runner::SystemClock;
use crate::bench::schedule::{Iterations, LONG_ITERATION};
use crate::codec::DotnetLevel;
use crate::vocab::CodecKind;
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

/// A [`FakeClock`] with a CPU clock that runs `cpu_step` further at each reading, whose
/// readings are said to cost `overhead`.
struct CpuClock {
    wall: FakeClock,
    cpu: Cell<Duration>,
    cpu_step: Duration,
    overhead: Duration,
}

impl Clock for CpuClock {
    fn now(&self) -> Duration {
        self.wall.now()
    }
    fn cpu_now(&self) -> Option<Duration> {
        self.cpu.set(self.cpu.get() + self.cpu_step);
        Some(self.cpu.get())
    }
    fn cpu_overhead(&self) -> Duration {
        self.overhead
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
    fn library(&self) -> crate::vocab::Library {
        crate::vocab::Library::Libzstd
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
        processes: 1,
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
        processes: 1,
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
fn cpu_time_is_read_around_each_timed_call_less_the_readings_cost() {
    // Wall: the reference pair 9 and 8 ms, then three calls each way of 4 ms. CPU: 1 ms
    // between readings, of which the readings cost 0.25 ms.
    let clock = CpuClock {
        wall: FakeClock::new(&[0, 9, 0, 8, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4]),
        cpu: Cell::new(Duration::ZERO),
        cpu_step: Duration::from_millis(1),
        overhead: Duration::from_micros(250),
    };
    let cell = measure_cell(&reverse(false), 1, b"abc", fixed(0, 3, 1), &clock);
    for summary in [cell.compress.unwrap(), cell.decompress.unwrap()] {
        assert_eq!(summary.samples_s, vec![0.004; 3]);
        let cpu = summary.cpu.as_ref().expect("read with every call");
        assert_eq!(cpu.samples_s, vec![0.00075; 3]);
        assert!(summary
            .waited()
            .is_some_and(|w| (w - 4.0 / 0.75 + 1.0).abs() < 1e-9));
    }
    // A clock without CPU time leaves the summary without it.
    let clock = FakeClock::new(&[]);
    let cell = measure_cell(&reverse(false), 1, b"abc", fixed(0, 3, 1), &clock);
    assert_eq!(cell.compress.unwrap().cpu, None);
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
fn a_long_first_run_is_warm_up_enough() {
    // The reference round trip reads the clock 4 times: compression takes 150 ms.
    let clock = FakeClock::new(&[0, 150, 0, 1]);
    let codec = reverse(false);
    let cell = measure_cell(&codec, 1, b"abc", fixed(3, 7, 3), &clock);
    let compress = cell.compress.unwrap();
    assert_eq!(compress.samples_s.len(), 7);
    assert_eq!(compress.samples_s[0], 0.150, "the first run is a sample");
    // 1 reference pair, then 6 timed compressions without warm-up, and (3 + 1 + 1
    // warm-up + 7 timed) decompressions, whose 1 ms first run is short.
    assert_eq!(codec.calls.get(), 2 + 6 + 12);
    let long = fixed(3, 7, 3).schedule(LONG_ITERATION);
    assert_eq!(
        (long.warmup, long.rewarm, long.reuse_first_run),
        (0, 0, true)
    );
    let short = fixed(3, 7, 3).schedule(LONG_ITERATION - Duration::from_micros(1));
    assert_eq!((short.warmup, short.rewarm), (3, 1));
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
    let codec = crate::codec::server_codec(CodecKind::Gzip);
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
