//! Options of the commands that read or analyse runs.

use std::path::PathBuf;

use clap::Args;

use super::formats::formats;
use super::measure::{GeneratorArgs, MeasureArgs, OutputArgs};
use crate::export::exporter::Format;

/// Options of `codecbench compare`.
#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// The reference run: JSON from `run --json`, or CSV from `run --csv`.
    pub baseline: PathBuf,

    /// The run to judge, in either format.
    pub candidate: PathBuf,

    /// Smallest speed change, in percent, that can count as a regression.
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 10.0,
        allow_hyphen_values = true
    )]
    pub threshold: f64,

    /// Divide each cell's speed by this cell's speed in the same run and payload, so that
    /// machines of different speed compare by shape.
    #[arg(
        long,
        value_name = "CODEC:LEVEL",
        default_value = "zstd:1",
        conflicts_with = "absolute"
    )]
    pub normalize_to: String,

    /// Compare raw MB/s instead, for runs on the same kind of machine: a slowdown of the
    /// reference or of every cell together then fails too (normalised, it only warns).
    #[arg(long)]
    pub absolute: bool,

    /// Report compressed-size differences without failing.
    #[arg(long)]
    pub allow_size_drift: bool,

    /// Report baseline results missing from the candidate without failing.
    #[arg(long)]
    pub allow_missing: bool,

    /// Fail on inconclusive speeds too: changes whose noise band straddles the threshold,
    /// or timings with too few samples to bound (by default they are listed, exit 0).
    #[arg(long)]
    pub strict: bool,

    /// Largest growth of a cell's instructions per byte (`run --measure instructions`)
    /// that passes, in percent. Counts are exact, so this is the change you accept, not
    /// a noise margin.
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 1.0,
        allow_hyphen_values = true
    )]
    pub instructions_threshold: f64,

    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = formats(&[Format::Table, Format::Markdown, Format::Json]))]
    pub format: Format,
    /// Also write the report as one self-contained HTML page to FILE (sortable tables,
    /// nothing fetched).
    #[arg(long = "export-html", value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Options of `codecbench merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Runs to merge, JSON or CSV, in column order.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,

    /// Reference cell for the normalised-speed columns.
    #[arg(long, value_name = "CODEC:LEVEL", default_value = "zstd:1")]
    pub normalize_to: String,

    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = formats(&[Format::Table, Format::Markdown, Format::Csv]))]
    pub format: Format,
}

/// Options of `codecbench pool`.
#[derive(Debug, Args)]
pub(crate) struct PoolArgs {
    /// Runs of the same payloads and settings, saved as JSON by `run --export-json`, each
    /// measured in its own process or processes.
    #[arg(required = true, num_args = 2.., value_name = "RUN")]
    pub runs: Vec<PathBuf>,

    /// Where the pooled run goes, and what stdout shows.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Say nothing on stderr but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `codecbench recommend`.
#[derive(Debug, Args)]
pub(crate) struct RecommendArgs {
    /// Link speeds for the end-to-end table, in Mbit/s, comma-separated.
    #[arg(
        long,
        value_name = "MBIT,...",
        value_delimiter = ',',
        default_value = "10,100,1000",
        allow_hyphen_values = true
    )]
    pub bandwidth: Vec<f64>,

    /// The link speed the picks and the one answer are for, in Mbit/s.
    #[arg(
        long,
        value_name = "MBIT",
        default_value_t = 100.0,
        allow_hyphen_values = true
    )]
    pub link: f64,

    /// Round-trip time of the link, in milliseconds: each round trip TCP slow start
    /// needs beyond the first costs one (0 counts bandwidth only, as on a warm
    /// connection).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub rtt: f64,

    /// The compression time a dynamic response may take, in milliseconds: a setting
    /// fits when its slowest body compresses within it, at the slow end of its interval.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 5.0,
        allow_hyphen_values = true
    )]
    pub latency_budget_ms: f64,

    /// The compression time a response compressed once and cached may take, in
    /// milliseconds: judged on the slowest body, as --latency-budget-ms is.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000.0,
        allow_hyphen_values = true
    )]
    pub cache_budget_ms: f64,

    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = formats(&[Format::Table, Format::Markdown, Format::Json]))]
    pub format: Format,

    /// Also write the report as one self-contained HTML page to FILE (sortable tables,
    /// nothing fetched).
    #[arg(long = "export-html", value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Print configuration for these servers instead of the report, comma-separated:
    /// the answer among the settings each can express, ready to paste.
    #[arg(long, value_enum, value_name = "SERVER,...", value_delimiter = ',')]
    pub emit: Vec<crate::vocab::Server>,

    /// Answer with the first encoding alone, without the br and gzip fallbacks that
    /// clients which do not accept it need.
    #[arg(long)]
    pub no_fallback: bool,

    /// How often each body is served: a CSV of `payload,weight` rows (names as the
    /// report gives them). The answer weighs each body by it; a body not named weighs 1,
    /// as every file of a directory does by default, and a HAR capture's responses count
    /// once each, so repeats weigh by their count. Only ratios count: scaling every
    /// weight by one factor gives the same answer.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,

    /// With `--emit nginx`: the nginx has zstd-nginx-module, so its zstd directives are
    /// written live rather than commented.
    #[arg(long)]
    pub nginx_zstd_module: bool,

    /// Let the picks include the brotli crate's Rust port, which no common web server
    /// runs (it is always shown for comparison).
    #[arg(long)]
    pub pick_rust_brotli: bool,

    /// The run to analyse: saved, or measured now.
    #[command(flatten)]
    pub source: RunSourceArgs,
}

/// Options of `codecbench plot`.
#[derive(Debug, Args)]
pub(crate) struct PlotArgs {
    /// A run saved by `run --json` (or `--csv`).
    pub run: PathBuf,

    /// The SVG file to write.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Options of `codecbench report`.
#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// Runs saved by `run`, `http` or `probe` (JSON or CSV), one section each.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,

    /// A saved run to judge the first RUN against, as `compare` does with its defaults
    /// (10%, normalised to zstd 1): its verdicts open the page, regressions first.
    #[arg(long, value_name = "RUN")]
    pub baseline: Option<PathBuf>,

    /// The HTML file to write: one self-contained page.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Options of `codecbench reproduce`.
#[derive(Debug, Args)]
pub(crate) struct ReproduceArgs {
    /// Also write the report, with the run's machine and source, as Markdown to FILE
    /// (the repository keeps its own in results/REPRODUCTION.md).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Also write the report as one self-contained HTML page to FILE (sortable tables,
    /// nothing fetched).
    #[arg(long = "export-html", value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// The run to check: saved, or measured now (the defaults are the article's).
    #[command(flatten)]
    pub source: RunSourceArgs,
}

/// The run `recommend` and `reproduce` analyse: a saved one, or one they measure.
#[derive(Debug, Args)]
pub(crate) struct RunSourceArgs {
    /// Read a saved run (JSON or CSV) instead of measuring; the measuring options are
    /// then ignored.
    #[arg(long, value_name = "RUN")]
    pub from: Option<PathBuf>,

    /// Save the run this command measures as JSON to FILE, for `compare`, `plot` or a
    /// later `--from`.
    #[arg(long, value_name = "FILE", conflicts_with = "from")]
    pub export_json: Option<PathBuf>,

    /// What to measure and how, when there is no --from.
    #[command(flatten)]
    pub measure: MeasureArgs,
}

/// Options of `codecbench zstd-params`.
#[derive(Debug, Args)]
pub(crate) struct ZstdParamsArgs {
    /// A built-in payload, a file, or a directory, for the known-size tables. Repeat to
    /// show several. Default: the three built-ins.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// Levels, as for `run --zstd-levels`.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "-5..-1,1..19",
        allow_hyphen_values = true
    )]
    pub levels: String,

    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = formats(&[Format::Table, Format::Markdown]))]
    pub format: Format,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Options of `codecbench payloads`.
#[derive(Debug, Args)]
pub(crate) struct PayloadsArgs {
    /// Directory to write into; created if missing.
    #[arg(long, value_name = "DIR", default_value = "payloads")]
    pub out: PathBuf,

    /// Write only `records-N.json`, with N records, instead of the three built-ins.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub records: Option<u64>,

    /// Options of the record generator.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}
