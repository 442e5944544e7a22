//! The runner: round-trip check, warm-up, then timed iterations for each direction.

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
    /// Untimed warm-up iterations before the timed ones.
    pub warmup: u32,
    /// Timed iterations; at least 1.
    pub iterations: u32,
}

/// Measures one codec at one level on `input`.
///
/// A first compression and decompression, outside any timing, gives the compressed size
/// and checks the round trip. Each direction then runs `plan.warmup` untimed and
/// `plan.iterations` timed iterations. Every timed iteration builds a fresh encoder or
/// decoder and a fresh output buffer *inside* the timed region, because a server pays
/// that set-up for every response. Each output is checked against the reference outside
/// the timed region. A failure stops the cell and is recorded in it, not raised, so the
/// other cells still run.
pub fn measure_cell(
    codec: &dyn Codec,
    level: i32,
    input: &[u8],
    plan: Plan,
    clock: &dyn Clock,
) -> CellResult {
    let mut cell = CellResult {
        codec: codec.kind().name().to_string(),
        implementation: codec.implementation(),
        level,
        dotnet_level: codec.dotnet_level(level).map(|l| l.name().to_string()),
        compressed_bytes: 0,
        compress: None,
        decompress: None,
        failure: None,
    };
    if let Err(why) = measure_into(&mut cell, codec, level, input, plan, clock) {
        cell.failure = Some(why);
    }
    cell
}

fn measure_into(
    cell: &mut CellResult,
    codec: &dyn Codec,
    level: i32,
    input: &[u8],
    plan: Plan,
    clock: &dyn Clock,
) -> Result<(), String> {
    let reference = codec
        .compress(level, input)
        .map_err(|e| format!("compression failed: {e}"))?;
    cell.compressed_bytes = reference.len() as u64;
    check_round_trip(&codec.decompress(&reference), input)?;

    let compress = time_iterations(
        plan,
        clock,
        || codec.compress(level, black_box(input)),
        |output| match output {
            Ok(bytes) if *bytes == reference => Ok(()),
            Ok(bytes) => Err(format!(
                "compression is not deterministic: {} bytes, then {} bytes",
                reference.len(),
                bytes.len()
            )),
            Err(e) => Err(format!("compression failed: {e}")),
        },
    )?;
    cell.compress = Summary::from_durations(&compress);

    let decompress = time_iterations(
        plan,
        clock,
        || codec.decompress(black_box(&reference)),
        |output| check_round_trip(output, input),
    )?;
    cell.decompress = Summary::from_durations(&decompress);
    Ok(())
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

/// Runs `operation` `plan.warmup` times untimed, then `plan.iterations` times timed, and
/// returns the timed durations. `check` validates each output outside the timed region.
fn time_iterations<T>(
    plan: Plan,
    clock: &dyn Clock,
    mut operation: impl FnMut() -> T,
    mut check: impl FnMut(&T) -> Result<(), String>,
) -> Result<Vec<Duration>, String> {
    for _ in 0..plan.warmup {
        check(&black_box(operation()))?;
    }
    let mut samples = Vec::with_capacity(plan.iterations as usize);
    for _ in 0..plan.iterations {
        let start = clock.now();
        let output = black_box(operation());
        let elapsed = clock.now().saturating_sub(start);
        check(&output)?;
        // The output is dropped here, after the clock stopped.
        drop(output);
        samples.push(elapsed);
    }
    Ok(samples)
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
    fn real_codec_on_a_real_clock_gives_positive_times() {
        let input = crate::payload::generate(10, 42, crate::payload::RngKind::Dotnet);
        let plan = Plan {
            warmup: 1,
            iterations: 2,
        };
        let codec = CodecKind::Gzip.codec();
        let cell = measure_cell(codec.as_ref(), 1, &input, plan, &SystemClock::new());
        assert_eq!(cell.failure, None);
        assert_eq!(cell.compress.unwrap().samples_s.len(), 2);
        assert!(cell.compressed_bytes > 0 && cell.compressed_bytes < input.len() as u64);
    }
}
