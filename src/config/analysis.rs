//! Checks of `recommend`, `zstd-params`, `reproduce` and `plot`.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::levels::checked_levels;
use super::outputs::{self, Input};
use super::payload_sources;
use crate::analysis::recommend::AdviceOptions;
use crate::cli::{
    CompareFormat, MeasureArgs, ParamsFormat, RecommendArgs, ReproduceArgs, ZstdParamsArgs,
};
use crate::payload::{PayloadSource, RngKind};

/// Settings of `codecbench recommend`.
pub struct RecommendConfig {
    /// A saved run to read instead of measuring.
    pub from: Option<PathBuf>,
    /// Budgets and link speeds.
    pub options: AdviceOptions,
    /// What stdout shows.
    pub format: CompareFormat,
    /// What to measure when there is no saved run; checked when it is used.
    pub measure: MeasureArgs,
}

impl RecommendConfig {
    /// Checks the budgets and link speeds.
    pub fn from_args(args: RecommendArgs) -> Result<Self> {
        for (name, value) in [
            ("--latency-budget-ms", args.latency_budget_ms),
            ("--cache-budget-ms", args.cache_budget_ms),
        ] {
            if !(value.is_finite() && value > 0.0) {
                bail!("{name} {value} must be a number of milliseconds above 0");
            }
        }
        if let Some(bad) = args
            .bandwidth
            .iter()
            .find(|b| !(b.is_finite() && **b > 0.0))
        {
            bail!("--bandwidth {bad} must be a number of Mbit/s above 0");
        }
        Ok(RecommendConfig {
            from: args.from,
            options: AdviceOptions {
                latency_budget_s: args.latency_budget_ms / 1e3,
                cache_budget_s: args.cache_budget_ms / 1e3,
                bandwidths_mbit: args.bandwidth,
            },
            format: args.format,
            measure: args.measure,
        })
    }
}

/// Settings of `codecbench zstd-params`.
pub struct ZstdParamsConfig {
    /// zstd levels, checked against libzstd's range.
    pub levels: Vec<i32>,
    /// Payloads whose sizes the parameters are shown for.
    pub payloads: Vec<PayloadSource>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
    /// What stdout shows.
    pub format: ParamsFormat,
}

impl ZstdParamsConfig {
    /// Checks the levels and payload names.
    pub fn from_args(args: ZstdParamsArgs) -> Result<Self> {
        let range = ::zstd::zstd_safe::min_c_level()..=::zstd::zstd_safe::max_c_level();
        Ok(ZstdParamsConfig {
            levels: checked_levels(&args.levels, "--levels", "zstd", range, "libzstd")?,
            payloads: payload_sources(&args.payloads)?,
            seed: args.generator.seed,
            rng: args.generator.rng,
            format: args.format,
        })
    }
}

/// Settings of `codecbench plot`.
pub struct PlotConfig {
    /// The saved run.
    pub run: PathBuf,
    /// Where the SVG goes.
    pub out: PathBuf,
}

impl PlotConfig {
    /// Refuses an output that would overwrite the run it draws.
    pub fn from_args(args: crate::cli::PlotArgs) -> Result<Self> {
        outputs::check(&[("-o", &args.out)], &[Input::File(&args.run)])?;
        Ok(PlotConfig {
            run: args.run,
            out: args.out,
        })
    }
}

/// Settings of `codecbench reproduce`.
pub struct ReproduceConfig {
    /// A saved run to read instead of measuring.
    pub from: Option<PathBuf>,
    /// Where REPRODUCTION.md goes.
    pub out: PathBuf,
    /// What to measure when there is no saved run.
    pub measure: MeasureArgs,
}

impl ReproduceConfig {
    /// Refuses an output that does not fit (no such directory, or a path that would
    /// overwrite the saved run or a payload), before measuring for minutes.
    pub fn from_args(args: ReproduceArgs) -> Result<Self> {
        if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                bail!(
                    "cannot write {}: no directory {}",
                    args.out.display(),
                    dir.display()
                );
            }
        }
        let payloads = payload_sources(&args.measure.payloads)?;
        let mut inputs = vec![Input::Payloads(&payloads)];
        inputs.extend(args.from.as_deref().map(Input::File));
        outputs::check(&[("--out", &args.out)], &inputs)?;
        Ok(ReproduceConfig {
            from: args.from,
            out: args.out,
            measure: args.measure,
        })
    }
}
