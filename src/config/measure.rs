//! Checks of what to measure and how: `run`, and `recommend` and `reproduce` when they
//! measure. Codecs and levels, dictionaries, iterations, rounds and precision.

use std::time::Duration;

use anyhow::{bail, Result};

use super::payloads::payload_sources;
use super::settings::codec_settings;
use crate::bench::method::{
    Method, Processes, DEFAULT_MAX_ITERATIONS, QUICK_MAX_ITERATIONS, QUICK_MIN_TIME,
};
use crate::bench::schedule::{Iterations, Precision};
use crate::bench::settings::{CodecSetting, DictionaryPlan};
use crate::cli::{MeasureArgs, Metric};
use crate::codec::api::{Api, ThroughApi};
use crate::payload::{PayloadSource, RngKind};
use crate::vocab::CodecKind;

/// What to measure and how, for `run` and `recommend`.
pub(crate) struct MeasureConfig {
    /// What to measure, in order.
    pub payloads: Vec<PayloadSource>,
    /// How each payload is measured: warm-up, iterations, rounds, precision, processes.
    pub method: Method,
    /// The logical CPU to pin to, if any.
    pub pin: Option<usize>,
    /// No progress output.
    pub quiet: bool,
    /// `-v`: every imprecise timing under the noise warning.
    pub verbose: bool,
    /// Codecs and their levels, in order; `bench::settings::make_ready` adds the
    /// dictionaries.
    pub settings: Vec<CodecSetting>,
    /// The zstd dictionaries to train, if `--zstd-dict` asks for any.
    pub dictionaries: Option<DictionaryPlan>,
    /// Generator seed for the built-in payloads.
    pub seed: i32,
    /// Generator stream for the built-in payloads.
    pub rng: RngKind,
    /// With `--measure instructions` (`run` only): how instructions are counted.
    pub instructions: Option<InstructionPlan>,
}

/// How `run --measure instructions` counts: how many calls.
#[derive(Clone, Debug)]
pub(crate) struct InstructionPlan {
    /// Counted calls per direction.
    pub calls: u32,
}

impl MeasureConfig {
    /// Narrows this configuration to bodies cut only to place the minimum body size: the
    /// settings `keep` names, measured as [`Method::for_bracket`] says.
    pub(crate) fn for_bracket(&mut self, keep: &[crate::vocab::CellId]) {
        self.only(keep);
        self.settings.retain(|setting| !setting.levels.is_empty());
        self.method.for_bracket();
    }

    /// What `measure` gives with this configuration narrowed to the cells `keep`, each
    /// timed `more` iterations each way in this process (see
    /// [`crate::analysis::recommend::close`]); the configuration is as it was after.
    pub(crate) fn measuring_again<R>(
        &mut self,
        keep: &[crate::vocab::CellId],
        more: u32,
        measure: impl FnOnce(&MeasureConfig) -> R,
    ) -> R {
        let (levels, method) = (self.all_levels(), self.method);
        self.only(keep);
        self.method.again(more);
        let measured = measure(self);
        for (setting, levels) in self.settings.iter_mut().zip(levels) {
            setting.levels = levels;
        }
        self.method = method;
        measured
    }

    /// Each setting's levels.
    fn all_levels(&self) -> Vec<Vec<i32>> {
        self.settings.iter().map(|s| s.levels.clone()).collect()
    }

    /// The measuring session this configuration describes (see
    /// [`crate::bench::session`]).
    pub(crate) fn session(&self) -> crate::bench::session::Session<'_> {
        crate::bench::session::Session {
            settings: &self.settings,
            method: self.method,
            counted_calls: self.instructions.as_ref().map(|plan| plan.calls),
        }
    }

    /// Only the cells `keep`: the other levels are dropped (a setting may be left with
    /// none).
    fn only(&mut self, keep: &[crate::vocab::CellId]) {
        for setting in &mut self.settings {
            let codec = &setting.codec;
            setting
                .levels
                .retain(|&level| keep.contains(&codec.id(level)));
        }
    }

    /// Validates `args`: payload names and paths, and every level against its codec's range.
    pub(crate) fn from_args(args: MeasureArgs) -> Result<Self> {
        let payloads = payload_sources(&args.payloads.payloads, &args.payloads.records)?;
        let settings = codec_settings(&args)?;
        let dictionaries = dictionaries(&settings, &args)?;
        Ok(MeasureConfig {
            payloads,
            method: Method {
                warmup: args.warmup,
                rounds: args.rounds,
                iterations: iterations(&args)?,
                precision: precision(&args)?,
                processes: Processes::Fixed(1),
            },
            pin: args.pin,
            quiet: args.quiet,
            verbose: args.verbose,
            settings,
            dictionaries,
            seed: args.generator.seed,
            rng: args.generator.rng,
            instructions: None,
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

/// The dictionaries `--zstd-dict` asks for, checked; `None` when it is not given.
fn dictionaries(settings: &[CodecSetting], args: &MeasureArgs) -> Result<Option<DictionaryPlan>> {
    if args.zstd_dict.is_empty() {
        return Ok(None);
    }
    if !settings.iter().any(|s| s.codec.kind() == CodecKind::Zstd) {
        bail!("--zstd-dict was given but zstd is not in --codecs");
    }
    if let Some(bad) = args.zstd_dict.iter().find(|&&k| !(1..=1024).contains(&k)) {
        bail!("--zstd-dict {bad}: dictionary sizes are 1 to 1024 KiB");
    }
    if args.dict_samples < 10 {
        bail!(
            "--dict-samples {}: training needs at least 10 records",
            args.dict_samples
        );
    }
    Ok(Some(DictionaryPlan {
        sizes_kib: args.zstd_dict.clone(),
        samples: args.dict_samples,
        rng: args.generator.rng,
    }))
}

impl MeasureConfig {
    /// What would make imprecise medians precise, leaving out what is already in use:
    /// for the noise warning.
    pub(crate) fn noise_remedies(&self) -> Vec<String> {
        let mut remedies = vec![match (self.method.precision, self.method.iterations) {
            (Some(_), _) => "a larger --precision-budget".to_string(),
            (None, Some(Iterations::Fixed(n))) => format!("--iterations above {n}"),
            (None, Some(Iterations::Budget { min_time, .. })) if min_time == QUICK_MIN_TIME => {
                "the default iterations instead of --quick".to_string()
            }
            (None, Some(Iterations::Budget { .. })) => "a longer --min-time".to_string(),
            (None, None) => {
                "--precision 5 (extra rounds until each median is within ±5%)".to_string()
            }
        }];
        if self.pin.is_none() {
            remedies.push("--pin CPU".to_string());
        }
        remedies
    }
}

/// `--iterations`, `--min-time` or `--quick`, checked; `None` when none is given.
fn iterations(args: &MeasureArgs) -> Result<Option<Iterations>> {
    let budget = |min_time: Duration, default_cap: u32| {
        Some(Iterations::Budget {
            min_time,
            max_iterations: args.max_iterations.unwrap_or(default_cap),
        })
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
            count.map(Iterations::Fixed)
        }
    })
}

/// `run`'s processes from `--processes` (`asked`), checked against what it spreads
/// (`--iterations`, if fixed, and whether `--precision` is set): at least one iteration
/// per process, and no `--precision` (each process would stop on its own samples). One
/// where nothing is timed.
pub(crate) fn processes_of_run(
    asked: Option<u32>,
    metrics: &[Metric],
    method: &Method,
) -> Result<Processes> {
    if !metrics.contains(&Metric::Time) {
        return Ok(Processes::Fixed(1)); // nothing timed to spread
    }
    let processes = match asked {
        None => return Ok(Processes::ByIterations),
        Some(1) => return Ok(Processes::Fixed(1)),
        Some(processes) => processes,
    };
    if method.precision.is_some() {
        bail!("--processes cannot be combined with --precision: each process would stop on its own samples");
    }
    if let Some(Iterations::Fixed(iterations)) = method.iterations {
        if iterations < processes {
            bail!("--processes {processes} needs at least {processes} --iterations, one per process (got {iterations})");
        }
    }
    Ok(Processes::Fixed(processes))
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
