//! The settings of `run`. Its children (`time-worker`, `count-instructions`) take no
//! options: each is sent a job (see [`crate::bench::protocol`]).

use anyhow::Result;

use super::measure::{self, InstructionPlan, MeasureConfig};
use super::outputs::{self, exports_of};
use crate::cli::{Metric, RunArgs};
use crate::export::exporter::Format;

/// Settings of `codecbench run`.
pub(crate) struct RunConfig {
    /// What to measure and how; with `--measure instructions`, its instruction plan.
    pub measure: MeasureConfig,
    /// What stdout shows.
    pub format: Format,
    /// The files kept up to date as results come.
    pub exports: outputs::Exports,
}

impl RunConfig {
    /// Validates `args`; see [`MeasureConfig::from_args`].
    pub(crate) fn from_args(args: RunArgs) -> Result<Self> {
        // A hook that cannot be read would measure every cell as it is, unsaid.
        crate::bench::calibrate::check_environment()?;
        let mut measure = MeasureConfig::from_args(args.measure)?;
        if args.metrics.contains(&Metric::Instructions) {
            measure.instructions = Some(InstructionPlan { calls: 1 });
            if !args.metrics.contains(&Metric::Time) {
                measure.method.once();
            }
        }
        measure.method.processes =
            measure::processes_of_run(args.processes, &args.metrics, &measure.method)?;
        let exports = outputs::Exports {
            github_benchmark: args.github_benchmark.clone(),
            bencher: args.bencher.clone(),
            ..exports_of(&args.output)
        };
        exports.check(&[outputs::Input::Payloads(&measure.payloads)])?;
        Ok(RunConfig {
            measure,
            format: args.output.format,
            exports,
        })
    }
}
