//! The settings of `run`, and of the `count-instructions` children it starts, checked
//! as `run` checks them. `time-worker` children take no options: they are sent a job
//! (see [`crate::bench::protocol`]).

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
        let mut measure = MeasureConfig::from_args(args.measure)?;
        if args.metrics.contains(&Metric::Instructions) {
            measure.instructions = Some(InstructionPlan { calls: 1 });
            if !args.metrics.contains(&Metric::Time) {
                measure.method.once();
            }
        }
        measure.method.processes =
            measure::processes_of_run(args.processes, &args.metrics, &measure.method)?;
        // Its counting children get this run's own options, to build the same cells.
        measure.child_args = std::env::args_os()
            .skip_while(|arg| arg != "run")
            .skip(1)
            .collect();
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

/// Settings of the hidden `count-instructions` child: the run's settings, the cell, the
/// body and the calls.
pub(crate) struct CountConfig {
    /// The run's settings, so the cell is built as the run built it.
    pub measure: MeasureConfig,
    /// The cell's place in the settings.
    pub cell: usize,
    /// The body.
    pub input: std::path::PathBuf,
    /// Counted calls per direction.
    pub calls: u32,
}

impl CountConfig {
    /// The run's options checked as `run` checks them; the outputs are the parent's.
    pub(crate) fn from_args(args: crate::cli::CountArgs) -> Result<Self> {
        Ok(CountConfig {
            measure: MeasureConfig::from_args(args.run.measure)?,
            cell: args.count_cell,
            input: args.count_input,
            calls: args.count_calls.max(1),
        })
    }
}
