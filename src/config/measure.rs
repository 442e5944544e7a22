//! Checks of what to measure and how: `run`, and `recommend` and `reproduce` when they
//! measure. Codecs and levels, dictionaries, iterations, rounds and precision.

use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::payload_sources;
use super::processes::Processes;
use super::settings::codec_settings;
use crate::bench::schedule::{Iterations, Plan, Precision};
use crate::bench::{default_iterations, CodecSetting};
use crate::cli::MeasureArgs;
use crate::codec::api::{Api, ThroughApi};
use crate::payload::{PayloadSource, RngKind};
use crate::vocab::CodecKind;

/// What to measure and how, for `run` and `recommend`.
pub(crate) struct MeasureConfig {
    /// What to measure, in order.
    pub payloads: Vec<PayloadSource>,
    /// How many timed iterations each cell gets.
    pub iterations: IterationChoice,
    /// The logical CPU to pin to, if any.
    pub pin: Option<usize>,
    /// No progress output.
    pub quiet: bool,
    /// `-v`: every imprecise timing under the noise warning.
    pub verbose: bool,
    /// Untimed warm-up iterations.
    pub warmup: u32,
    /// Rounds to spread the timed iterations over.
    pub rounds: u32,
    /// Further rounds until this precision, if asked for.
    pub precision: Option<Precision>,
    /// Codecs and their levels, in order.
    pub settings: Vec<CodecSetting>,
    /// Generator seed for the built-in payloads.
    pub seed: i32,
    /// Generator stream for the built-in payloads.
    pub rng: RngKind,
    /// With `--measure instructions` (`run` only): how instructions are counted.
    pub instructions: Option<InstructionPlan>,
    /// `run --processes`: how many processes the timings of each payload are spread
    /// over.
    pub processes: Processes,
    /// The run's options after `run`, which its children (counting or timing) are given;
    /// filled in by `run` itself.
    pub child_args: Vec<std::ffi::OsString>,
}

/// How `run --measure instructions` counts: under which valgrind and how many calls.
#[derive(Clone, Debug)]
pub(crate) struct InstructionPlan {
    /// `valgrind --version`.
    pub valgrind: String,
    /// Counted calls per direction.
    pub calls: u32,
}

impl MeasureConfig {
    /// What processes would spread: the fixed `--iterations`, if any, and whether
    /// `--precision` is set.
    pub(crate) fn spread(&self) -> (Option<u32>, bool) {
        let fixed = match self.iterations {
            IterationChoice::Fixed(count) => Some(count),
            _ => None,
        };
        (fixed, self.precision.is_some())
    }

    /// How each direction of each cell of a body of `bytes` is measured.
    pub(crate) fn plan(&self, bytes: usize) -> Plan {
        Plan {
            warmup: self.warmup,
            rounds: self.rounds,
            iterations: self.iterations.for_payload(bytes),
            precision: self.precision,
        }
    }

    /// Narrows this configuration to bodies cut only to place the minimum body size: the
    /// settings `keep` names, and, where the iterations follow the body's size, each
    /// direction of each cell timed for [`BRACKET_MIN_TIME`] (at most the iterations of a
    /// body that small). The sign of a gain is what such a body is measured for.
    pub(crate) fn for_bracket(&mut self, keep: &[crate::vocab::CellId]) {
        for setting in &mut self.settings {
            let codec = &setting.codec;
            setting
                .levels
                .retain(|&level| keep.contains(&codec.id(level)));
        }
        self.settings.retain(|setting| !setting.levels.is_empty());
        if self.iterations == IterationChoice::BySize {
            self.iterations = IterationChoice::Budget {
                min_time: BRACKET_MIN_TIME,
                max_iterations: default_iterations(0),
            };
        }
    }

    /// Validates `args`: payload names and paths, and every level against its codec's range.
    pub(crate) fn from_args(args: MeasureArgs) -> Result<Self> {
        let payloads = payload_sources(&args.payloads.payloads, &args.payloads.records)?;
        let mut settings = codec_settings(&args)?;
        if !args.zstd_dict.is_empty() {
            add_dictionaries(&mut settings, &args)?;
        }
        corrupt_for_tests(&mut settings);
        Ok(MeasureConfig {
            payloads,
            iterations: iteration_choice(&args)?,
            pin: args.pin,
            quiet: args.quiet,
            verbose: args.verbose,
            warmup: args.warmup,
            rounds: args.rounds,
            precision: precision(&args)?,
            settings,
            seed: args.generator.seed,
            rng: args.generator.rng,
            instructions: None,
            processes: Processes::Fixed(1),
            child_args: Vec::new(),
        })
    }
}

impl MeasureConfig {
    /// Also measures zstd through the one-shot API at those of `levels` that zstd is
    /// measured at.
    pub(crate) fn add_one_shot_zstd(&mut self, levels: &[i32]) {
        self.add_through(CodecKind::Zstd, Api::OneShot, |l| levels.contains(&l));
    }

    /// Also measures each of `settings` that is measured as ASP.NET Core's middleware
    /// feeds it for a minimal API.
    pub(crate) fn add_aspnetcore_wire(&mut self, settings: &[(CodecKind, i32)]) {
        let writer = crate::vocab::AspnetcoreWriter::Minimal;
        for kind in CodecKind::ALL {
            let api = Api::Aspnetcore { writer };
            self.add_through(kind, api, |l| settings.contains(&(kind, l)));
        }
    }

    /// Also measures `kind` through `api` at the levels it is measured at that `keep`
    /// keeps, if any.
    fn add_through(&mut self, kind: CodecKind, api: Api, keep: impl Fn(i32) -> bool) {
        let levels: Vec<i32> = self
            .settings
            .iter()
            .find(|s| s.codec.kind() == kind)
            .map(|s| s.levels.iter().copied().filter(|&l| keep(l)).collect())
            .unwrap_or_default();
        if !levels.is_empty() {
            self.settings.push(CodecSetting {
                codec: Box::new(ThroughApi::new(kind, api)),
                levels,
            });
        }
    }
}

/// The test aid: `CODECBENCH_TEST_CORRUPT=CODEC` puts a decoder that flips a bit in
/// front of that codec, so end-to-end tests of the release binary can prove that a
/// failed round trip never reaches a report as valid.
fn corrupt_for_tests(settings: &mut [CodecSetting]) {
    let Ok(name) = std::env::var("CODECBENCH_TEST_CORRUPT") else {
        return;
    };
    for setting in settings
        .iter_mut()
        .filter(|s| s.codec.kind().name() == name)
    {
        let inner = std::mem::replace(&mut setting.codec, Box::new(crate::codec::Libzstd));
        setting.codec = Box::new(crate::codec::Corrupting(inner));
    }
}

/// `--precision` and its budget, checked.
fn precision(args: &MeasureArgs) -> Result<Option<Precision>> {
    let Some(pct) = args.precision else {
        return Ok(None);
    };
    if !(pct.is_finite() && pct > 0.0 && pct <= 100.0) {
        bail!("--precision {pct} must be a percentage above 0 and at most 100");
    }
    let budget = args.precision_budget;
    if !(budget.is_finite() && budget > 0.0 && budget <= 3600.0) {
        bail!("--precision-budget {budget} must be a number of seconds above 0 and at most 3600");
    }
    Ok(Some(Precision {
        target: pct / 100.0,
        budget: Duration::from_secs_f64(budget),
    }))
}

/// Adds a zstd-with-dictionary setting per `--zstd-dict` size, right after plain zstd,
/// at plain zstd's levels.
fn add_dictionaries(settings: &mut Vec<CodecSetting>, args: &MeasureArgs) -> Result<()> {
    let Some(zstd_index) = settings
        .iter()
        .position(|s| s.codec.kind() == CodecKind::Zstd)
    else {
        bail!("--zstd-dict was given but zstd is not in --codecs");
    };
    if let Some(bad) = args.zstd_dict.iter().find(|&&k| !(1..=1024).contains(&k)) {
        bail!("--zstd-dict {bad}: dictionary sizes are 1 to 1024 KiB");
    }
    if args.dict_samples < 10 {
        bail!(
            "--dict-samples {}: training needs at least 10 records",
            args.dict_samples
        );
    }
    let levels = settings[zstd_index].levels.clone();
    let samples = crate::codec::zstd_dict::training_samples(args.dict_samples, args.generator.rng);
    for (offset, &kib) in args.zstd_dict.iter().enumerate() {
        let codec = crate::codec::zstd_dict::ZstdDict::train(&samples, kib)
            .with_context(|| format!("training a {kib} KiB zstd dictionary"))?;
        settings.insert(
            zstd_index + 1 + offset,
            CodecSetting {
                codec: Box::new(codec),
                levels: levels.clone(),
            },
        );
    }
    Ok(())
}

impl MeasureConfig {
    /// What would make imprecise medians precise, leaving out what is already in use:
    /// for the noise warning.
    pub(crate) fn noise_remedies(&self) -> Vec<String> {
        let mut remedies = vec![match (self.precision, self.iterations) {
            (Some(_), _) => "a larger --precision-budget".to_string(),
            (None, IterationChoice::Fixed(n)) => format!("--iterations above {n}"),
            (None, IterationChoice::Budget { min_time, .. }) if min_time == QUICK_MIN_TIME => {
                "the default iterations instead of --quick".to_string()
            }
            (None, IterationChoice::Budget { .. }) => "a longer --min-time".to_string(),
            (None, IterationChoice::BySize) => {
                "--precision 5 (extra rounds until each median is within ±5%)".to_string()
            }
        }];
        if self.pin.is_none() {
            remedies.push("--pin CPU".to_string());
        }
        remedies
    }
}

/// How `run` decides each cell's timed iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum IterationChoice {
    /// The article's counts, from each payload's size.
    BySize,
    /// `--iterations N`.
    Fixed(u32),
    /// `--min-time` or `--quick`.
    Budget {
        /// Timed time to fill per direction.
        min_time: Duration,
        /// Cap on the count.
        max_iterations: u32,
    },
}

impl IterationChoice {
    /// The runner's iterations for a payload of `bytes`.
    pub(crate) fn for_payload(self, bytes: usize) -> Iterations {
        match self {
            IterationChoice::BySize => Iterations::Fixed(default_iterations(bytes)),
            IterationChoice::Fixed(count) => Iterations::Fixed(count),
            IterationChoice::Budget {
                min_time,
                max_iterations,
            } => Iterations::Budget {
                min_time,
                max_iterations,
            },
        }
    }
}

/// The timed time per direction of each cell on a body cut to place the minimum body
/// size, when `--iterations` and `--min-time` are not given.
pub(crate) const BRACKET_MIN_TIME: Duration = Duration::from_millis(200);
/// `--quick`'s time per direction of each cell.
pub(crate) const QUICK_MIN_TIME: Duration = Duration::from_millis(50);
/// `--quick`'s cap on iterations.
pub(crate) const QUICK_MAX_ITERATIONS: u32 = 200;
/// The cap on iterations `--min-time` sizes when `--max-iterations` is not given.
pub(crate) const DEFAULT_MAX_ITERATIONS: u32 = 100_000;

fn iteration_choice(args: &MeasureArgs) -> Result<IterationChoice> {
    let budget = |min_time: Duration, default_cap: u32| IterationChoice::Budget {
        min_time,
        max_iterations: args.max_iterations.unwrap_or(default_cap),
    };
    Ok(match (args.iterations, args.min_time, args.quick) {
        (_, _, true) => budget(QUICK_MIN_TIME, QUICK_MAX_ITERATIONS),
        (_, Some(seconds), false) => {
            if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
                bail!("--min-time {seconds} must be a number of seconds above 0 and at most 3600");
            }
            budget(Duration::from_secs_f64(seconds), DEFAULT_MAX_ITERATIONS)
        }
        (count, None, false) => {
            if args.max_iterations.is_some() {
                bail!("--max-iterations applies only with --min-time or --quick");
            }
            count.map_or(IterationChoice::BySize, IterationChoice::Fixed)
        }
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::MeasureConfig;
    use crate::cli::{Cli, Command};

    fn config(args: &[&str]) -> MeasureConfig {
        let cli = Cli::try_parse_from([&["codecbench", "run"][..], args].concat()).unwrap();
        let Command::Run(run) = cli.command else {
            unreachable!("a run command")
        };
        MeasureConfig::from_args(run.measure).unwrap()
    }

    #[test]
    fn the_noise_warning_suggests_only_what_is_not_in_use() {
        let remedies = config(&[]).noise_remedies();
        assert!(remedies[0].starts_with("--precision 5"), "{remedies:?}");
        assert_eq!(remedies[1], "--pin CPU");
        let pinned = config(&["--pin", "0", "--iterations", "15"]).noise_remedies();
        assert_eq!(pinned, ["--iterations above 15"]);
        let quick = config(&["--quick"]).noise_remedies();
        assert!(quick[0].contains("instead of --quick"), "{quick:?}");
        let precise = config(&["--precision", "5", "--pin", "1"]).noise_remedies();
        assert_eq!(precise, ["a larger --precision-budget"]);
    }
}
