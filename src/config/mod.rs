//! Turns the parsed command line into typed, validated settings, once. Every check of
//! user input that clap cannot express happens here, before anything is measured.

pub(crate) mod analysis;
pub(crate) mod compare;
pub(crate) mod http;
pub(crate) mod levels;
pub(crate) mod measure;
pub(crate) mod outputs;
pub(crate) mod probe;
mod settings;

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::cli::{Metric, PayloadsArgs, RunArgs};
use crate::export::exporter::Format;
use crate::payload::{PayloadSource, RngKind};

pub(crate) use measure::{InstructionPlan, MeasureConfig};

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
        // Its children (counting, timing) get this run's own options, to build the same cells.
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

/// Settings of the hidden `time-worker` child: the run's settings, and which share of
/// which body it measures where.
pub(crate) struct TimeWorkerConfig {
    /// The run's settings, so the cells are built as the run built them.
    pub measure: MeasureConfig,
    /// The body.
    pub input: PathBuf,
    /// The payload's name.
    pub name: String,
    /// Which process this is, from 0.
    pub process: u32,
    /// Where the result goes.
    pub output: PathBuf,
}

impl TimeWorkerConfig {
    /// The run's options checked as `run` checks them; the outputs are the parent's.
    pub(crate) fn from_args(args: crate::cli::TimeWorkerArgs) -> Result<Self> {
        let mut measure = MeasureConfig::from_args(args.run.measure)?;
        // The run's own rule, from the run's own options, so both share alike.
        measure.method.processes =
            measure::processes_of_run(args.run.processes, &args.run.metrics, &measure.method)?;
        Ok(TimeWorkerConfig {
            measure,
            input: args.worker_input,
            name: args.worker_name,
            process: args.worker_process,
            output: args.worker_output,
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

/// The export files `output` asks for, checked: none overwrites a payload or another
/// export, and each is writable.
pub(crate) fn exports(
    output: &crate::cli::OutputArgs,
    payloads: &[PayloadSource],
) -> Result<outputs::Exports> {
    let exports = exports_of(output);
    exports.check(&[outputs::Input::Payloads(payloads)])?;
    Ok(exports)
}

/// The files `output` names, unchecked.
pub(crate) fn exports_of(output: &crate::cli::OutputArgs) -> outputs::Exports {
    outputs::Exports {
        csv: output.csv.clone(),
        json: output.json.clone(),
        markdown: output.markdown.clone(),
        ..Default::default()
    }
}

/// The payloads `--payload` names, or the three built-ins when it is not given.
pub(crate) fn payload_sources(names: &[String], records: &[String]) -> Result<Vec<PayloadSource>> {
    if names.is_empty() && records.is_empty() {
        return Ok(crate::payload::BuiltinPayload::ALL
            .into_iter()
            .map(PayloadSource::Builtin)
            .collect());
    }
    let mut sources: Vec<PayloadSource> = names
        .iter()
        .map(|p| PayloadSource::parse(p))
        .collect::<Result<_>>()?;
    for text in records {
        sources.push(PayloadSource::Records(record_count(text, "--records")?));
    }
    Ok(sources)
}

/// A record count from 1 to [`crate::payload::MAX_RECORDS`].
fn record_count(text: &str, option: &str) -> Result<u64> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=crate::payload::MAX_RECORDS).contains(&n) => Ok(n),
        _ => bail!(
            "{option} {text}: codecbench generates 1 to {} records (about {} MiB of JSON at most)",
            crate::payload::MAX_RECORDS,
            crate::payload::MAX_PAYLOAD_BYTES / 1024 / 1024
        ),
    }
}

/// Settings of `codecbench payloads`.
pub(crate) struct PayloadsConfig {
    /// Directory to write into.
    pub out: PathBuf,
    /// `Some(n)`: write only `records-n.json`; `None`: the three built-ins.
    pub records: Option<u64>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
}

impl PayloadsConfig {
    /// Copies the parsed options, refusing a record count past
    /// [`crate::payload::MAX_RECORDS`].
    pub(crate) fn from_args(args: PayloadsArgs) -> Result<Self> {
        if let Some(records) = args.records {
            record_count(&records.to_string(), "--records")?;
        }
        Ok(PayloadsConfig {
            out: args.out,
            records: args.records,
            seed: args.generator.seed,
            rng: args.generator.rng,
        })
    }
}
