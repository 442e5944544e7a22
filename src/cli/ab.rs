//! The options of `codecbench ab`.

use std::path::PathBuf;

use clap::Args;

use super::measure::MeasureArgs;
use crate::export::exporter::Format;

/// Options of `codecbench ab`: run's payload and setting options, the baseline, and how
/// the pairs go.
#[derive(Debug, Args)]
pub(crate) struct AbArgs {
    /// The baseline: a program that speaks the worker protocol (docs/workers.md), e.g. a
    /// codecbench built from the base commit. The build running this command is the
    /// candidate.
    #[arg(long, value_name = "PROGRAM")]
    pub baseline: PathBuf,

    /// A change smaller than PCT percent is no change: a cell is slower or faster when
    /// the whole 95% interval of its time ratio lies beyond it, the same when it lies
    /// within it.
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 2.0,
        allow_hyphen_values = true
    )]
    pub threshold: f64,

    /// The smallest slowdown each cell should be able to show, as a percentage: a cell
    /// the same both ways gets pairs until it could see this much. Default: the
    /// threshold plus one (3 for 2).
    #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
    pub sight: Option<f64>,

    /// Pairs of batches a cell gets at most, 9 to 1,000. A cell stops earlier once both
    /// directions are decided, each the same within its sight or slower or faster.
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u32).range(9..=1000), allow_hyphen_values = true)]
    pub max_pairs: u32,

    /// No new round of pairs starts after SECONDS; the cells still open are then
    /// inconclusive.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 280.0,
        allow_hyphen_values = true
    )]
    pub max_time: f64,

    /// Format of the verdicts on stdout: table, markdown or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also write the verdicts and every pair's ratio as JSON to FILE.
    #[arg(long = "export-json", value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Also write the verdicts as Markdown to FILE, e.g. a CI job summary.
    #[arg(long = "export-markdown", value_name = "FILE")]
    pub markdown: Option<PathBuf>,

    /// Also write the verdicts as one self-contained HTML page to FILE: the failing
    /// cells first, every cell's change drawn with its interval, nothing fetched.
    #[arg(long = "export-html", value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// What to measure: run's options. Each batch runs the warm-up, then --iterations,
    /// or timed iterations for --min-time (default 0.025 s) in one round, in one process.
    #[command(flatten)]
    pub measure: MeasureArgs,
}
