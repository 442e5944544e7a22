//! The calibration hook: `CODECBENCH_CALIBRATE_SLOWDOWN=zstd:3=1.05` makes the cells it
//! names slower on purpose, inside the timed region, so that anyone can measure how small
//! a change `ab` catches on their own machine (docs/ab.md). After each timed call of such
//! a cell, the worker spins on the clock until the call and the spin together took the
//! factor times the call alone: the cost is CPU time, as a real slowdown's would be.
//!
//! `ab` passes it to the candidate's workers only. Cells are named by codec and level,
//! as `--codecs` and `--levels` name them (`brotli:11` is both brotli libraries' level
//! 11), with a factor from 1 to 10; several are separated by commas.

use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{bail, Context as _, Result};

use super::runner::Clock;
use crate::vocab::{CellId, CodecKind};

/// The environment variable the hook reads.
pub(crate) const SLOWDOWN_VARIABLE: &str = "CODECBENCH_CALIBRATE_SLOWDOWN";

/// One cell made slower: its codec, its level, and the factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Slowdown {
    /// The codec.
    pub codec: CodecKind,
    /// The level.
    pub level: i32,
    /// How many times as long each timed call takes.
    pub factor: f64,
}

/// The slowdowns `text` names, e.g. `zstd:3=1.05,brotli:11=1.1`; a bad one is refused
/// with why.
pub(crate) fn parse(text: &str) -> Result<Vec<Slowdown>> {
    text.split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            let part = part.trim();
            let (cell, factor) = part
                .split_once('=')
                .with_context(|| format!("{part:?} is not CODEC:LEVEL=FACTOR"))?;
            let (codec, level) = cell
                .split_once(':')
                .with_context(|| format!("{part:?} is not CODEC:LEVEL=FACTOR"))?;
            let codec = CodecKind::ALL
                .into_iter()
                .find(|c| c.name() == codec)
                .with_context(|| format!("{codec:?} is no codec (zstd, brotli or gzip)"))?;
            let level: i32 = level
                .parse()
                .with_context(|| format!("{level:?} is no level"))?;
            let factor: f64 = factor
                .parse()
                .with_context(|| format!("{factor:?} is no factor"))?;
            if !(1.0..=10.0).contains(&factor) {
                bail!("a slowdown factor is from 1 to 10, not {factor}");
            }
            Ok(Slowdown {
                codec,
                level,
                factor,
            })
        })
        .collect::<Result<_>>()
        .with_context(|| format!("{SLOWDOWN_VARIABLE}={text}"))
}

/// The slowdowns this process was started with, read once; an unreadable value was
/// refused by [`check_environment`] before anything was measured.
fn configured() -> &'static [Slowdown] {
    static SLOWDOWNS: OnceLock<Vec<Slowdown>> = OnceLock::new();
    SLOWDOWNS.get_or_init(|| {
        std::env::var(SLOWDOWN_VARIABLE)
            .ok()
            .and_then(|text| parse(&text).ok())
            .unwrap_or_default()
    })
}

/// The slowdowns this process runs under, as a run records them (`zstd:3=1.05`), read
/// back from their parsed values so that nothing else of the variable is kept; `None`
/// without any.
pub(crate) fn described() -> Option<String> {
    let all: Vec<String> = configured()
        .iter()
        .map(|s| format!("{}:{}={}", s.codec.name(), s.level, s.factor))
        .collect();
    (!all.is_empty()).then(|| all.join(","))
}

/// Refuses a `CODECBENCH_CALIBRATE_SLOWDOWN` this process cannot read.
pub(crate) fn check_environment() -> Result<()> {
    match std::env::var(SLOWDOWN_VARIABLE) {
        Ok(text) => parse(&text).map(|_| ()),
        Err(_) => Ok(()),
    }
}

/// The factor cell `id` is slowed by in this process, if any.
pub(crate) fn factor_for(id: &CellId) -> Option<f64> {
    configured()
        .iter()
        .find(|s| s.codec == id.codec && s.level == id.level)
        .map(|s| s.factor)
}

/// Spins on `clock` until `factor` times `call` has passed since `started`.
pub(crate) fn stretch(clock: &dyn Clock, started: Duration, call: Duration, factor: f64) {
    let until = started + call.mul_f64(factor);
    while clock.now() < until {
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock that moves 1 ms at each reading.
    struct Ticking(std::cell::Cell<Duration>);

    impl Clock for Ticking {
        fn now(&self) -> Duration {
            self.0.set(self.0.get() + Duration::from_millis(1));
            self.0.get()
        }
    }

    #[test]
    fn a_stretched_call_ends_at_the_factor_times_its_time() {
        let clock = Ticking(std::cell::Cell::new(Duration::from_millis(100)));
        let started = Duration::from_millis(100);
        stretch(&clock, started, Duration::from_millis(10), 1.5);
        assert_eq!(clock.0.get(), Duration::from_millis(115));
        // A factor of 1 adds nothing once the call is over: one reading, and out.
        stretch(&clock, started, Duration::from_millis(10), 1.0);
        assert_eq!(clock.0.get(), Duration::from_millis(116));
    }

    #[test]
    fn slowdowns_parse_and_bad_ones_say_why() {
        let parsed = parse("zstd:3=1.05, brotli:11=1.1").unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!((parsed[0].codec, parsed[0].level), (CodecKind::Zstd, 3));
        assert_eq!(parsed[1].factor, 1.1);
        for bad in [
            "zstd=1.05",
            "zstd:x=1.05",
            "lz4:1=1.1",
            "zstd:3=0.9",
            "zstd:3=fast",
        ] {
            let error = format!("{:#}", parse(bad).unwrap_err());
            assert!(error.starts_with(SLOWDOWN_VARIABLE), "{error}");
        }
    }
}
