//! The command line, as clap derive types. `config.rs` turns these into typed settings;
//! nothing past it sees clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::codec::{BrotliImpl, CodecKind, EncoderChoice};
use crate::export::Format;
use crate::payload::{RngKind, DEFAULT_SEED};

/// Benchmark zstd, brotli and gzip on JSON API responses, the way ASP.NET Core's
/// response-compression middleware runs them.
#[derive(Debug, Parser)]
#[command(name = "codecbench", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure compressed size and compress/decompress speed for each payload × codec × level.
    Run(RunArgs),
    /// Write the generated payloads to disk (single.json, small.json, large.json).
    Payloads(PayloadsArgs),
    /// Compare a candidate run with a baseline: exact sizes, and speeds against a threshold
    /// and the runs' noise. Exits 1 on a regression or a size drift.
    Compare(CompareArgs),
    /// Put several runs side by side: a row per setting, columns per run.
    Merge(MergeArgs),
    /// Decide: dominated settings, Pareto frontiers, the best setting per scenario, and
    /// end-to-end time per response at several bandwidths. Measures, or reads --from RUN.
    Recommend(RecommendArgs),
    /// Show the parameters libzstd selects for each level (strategy, windowLog, chainLog,
    /// hashLog, searchLog, minMatch, targetLength), for each payload's size and for a
    /// stream of unknown size, beside the article's table.
    ZstdParams(ZstdParamsArgs),
    /// Check each of the article's claims against a run: measures the article's matrix
    /// (or reads --from RUN), prints a row per claim and writes results/REPRODUCTION.md.
    Reproduce(ReproduceArgs),
    /// Draw a saved run as SVG: per payload, ratio against compression and decompression
    /// speed (log scale), a series per library, and the Pareto frontier.
    Plot(PlotArgs),
    /// Measure each encoding through a real HTTP/1.1 server and client on loopback:
    /// requests/s, latency percentiles and bytes on the wire, every body verified.
    Http(HttpArgs),
}

/// Options of `codecbench compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
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

    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,
}

/// Output formats of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// A terminal table and a summary.
    Table,
    /// A Markdown table and a summary, e.g. for a CI job summary.
    Markdown,
    /// The whole comparison as JSON.
    Json,
}

/// Options of `codecbench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Runs to merge, JSON or CSV, in column order.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,

    /// Reference cell for the normalised-speed columns.
    #[arg(long, value_name = "CODEC:LEVEL", default_value = "zstd:1")]
    pub normalize_to: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = MergeFormat::Table)]
    pub format: MergeFormat,
}

/// Output formats of `merge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeFormat {
    /// One terminal table.
    Table,
    /// One Markdown table.
    Markdown,
    /// Long-format CSV: a row per setting and run.
    Csv,
}

/// Options shared by everything that generates records.
#[derive(Debug, Args)]
pub struct GeneratorArgs {
    /// Seed of the record generator.
    #[arg(long, default_value_t = DEFAULT_SEED, allow_hyphen_values = true)]
    pub seed: i32,

    /// Random stream: `dotnet` reproduces the article byte for byte; `chacha` is Rust-native.
    #[arg(long, value_enum, default_value_t = RngKind::Dotnet)]
    pub rng: RngKind,
}

/// What to measure and how: shared by `run` and `recommend`.
#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// A built-in payload (single, small, large), a file, or a directory of files.
    /// Repeat to run several. Default: all three built-in payloads.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// Timed iterations per direction. Default: 1000 for bodies up to 10 kB, 60 up to
    /// 1 MB, 15 above (the article's counts for its three payloads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          allow_hyphen_values = true)]
    pub iterations: Option<u32>,

    /// Instead of a fixed count, time each direction of each cell for at least SECONDS,
    /// with the count sized from a first run (like lzbench -t or hyperfine). A first run
    /// that alone lasts SECONDS is kept as the one sample.
    #[arg(
        long,
        value_name = "SECONDS",
        conflicts_with = "iterations",
        allow_hyphen_values = true
    )]
    pub min_time: Option<f64>,

    /// Cap on the iterations --min-time or --quick may size.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          allow_hyphen_values = true)]
    pub max_iterations: Option<u32>,

    /// A fast preset for CI and first looks: --min-time 0.05 --max-iterations 200. The
    /// whole default matrix takes about a minute on a 2-core machine.
    #[arg(long, conflicts_with_all = ["iterations", "min_time"])]
    pub quick: bool,

    /// Untimed warm-up iterations per direction before the timed ones. Each later round
    /// re-warms with one.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        allow_hyphen_values = true
    )]
    pub warmup: u32,

    /// Spread each cell's timed iterations over N rounds, each visiting every cell, so a
    /// slow spell of the machine shows in every cell's spread rather than shifting one
    /// cell. 1 runs each cell to completion before the next.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true)]
    pub rounds: u32,

    /// Keep measuring each cell, in further rounds, until the 95% confidence interval of
    /// each direction's median is within PCT percent of it, or --precision-budget runs
    /// out; the report marks the cells that did not get there.
    #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
    pub precision: Option<f64>,

    /// The most timed time one cell may take with --precision, in seconds, both
    /// directions together.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        requires = "precision",
        allow_hyphen_values = true
    )]
    pub precision_budget: f64,

    /// Codecs to measure, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = CodecKind::ALL)]
    pub codecs: Vec<CodecKind>,

    /// zstd levels: a list and/or inclusive ranges, e.g. `1,3,19` or `-5..-1,1..19`
    /// (the default). Any level libzstd accepts.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub zstd_levels: Option<String>,

    /// Which brotli to measure: Google's C library (what .NET, nginx and browsers run),
    /// the `brotli` crate's Rust port, or both.
    #[arg(long, value_enum, default_value_t = BrotliImpl::Both)]
    pub brotli_impl: BrotliImpl,

    /// A fresh encoder per response (the article's method), one reused and reset between
    /// responses (zstd and gzip; brotli cannot be reset), or both.
    #[arg(long, value_enum, default_value_t = EncoderChoice::Fresh)]
    pub encoder: EncoderChoice,

    /// Also measure zstd with a trained dictionary of each SIZE in KiB (e.g. `1,4,16,64`),
    /// at the zstd levels. Trained on generated single records that are not measured.
    #[arg(long, value_name = "KIB,...", value_delimiter = ',')]
    pub zstd_dict: Vec<u32>,

    /// Records to train each dictionary on.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 4000,
        allow_hyphen_values = true
    )]
    pub dict_samples: usize,

    /// brotli qualities, 0..11. Default: 1,4,11 (.NET's Fastest, Optimal, SmallestSize).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub brotli_levels: Option<String>,

    /// gzip levels, 0..9. Default: 1,6,9 (.NET's Fastest, Optimal, SmallestSize).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub gzip_levels: Option<String>,

    /// Pin the measuring thread to logical CPU N, so the scheduler does not move it
    /// between cores mid-measurement. Whether it worked is recorded in the JSON.
    #[arg(long, value_name = "CPU", allow_hyphen_values = true)]
    pub pin: Option<usize>,

    /// No progress on stderr: neither the bar (shown when stderr is a terminal) nor the
    /// line per cell. Warnings and errors still show.
    #[arg(long, short)]
    pub quiet: bool,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Options of `codecbench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// What to measure and how.
    #[command(flatten)]
    pub measure: MeasureArgs,

    /// Where the results go.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Where results go: shared by `run` and `http`.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Format of the results on stdout.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also write the results as CSV to FILE, rewritten atomically after every finished
    /// cell or encoding, so a run cut short keeps what it finished.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Also write the full results as JSON to FILE: environment, every result and every
    /// timed sample, rewritten atomically after every finished cell or encoding.
    /// `compare` and `merge` read it.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Options of `codecbench recommend`.
#[derive(Debug, Args)]
pub struct RecommendArgs {
    /// Read a saved run (JSON or CSV) instead of measuring; the measuring options are
    /// then ignored.
    #[arg(long, value_name = "RUN")]
    pub from: Option<PathBuf>,

    /// Link speeds for the end-to-end table, in Mbit/s, comma-separated.
    #[arg(long, value_name = "MBIT,...", value_delimiter = ',',
          default_values_t = [10.0, 100.0, 1000.0], allow_hyphen_values = true)]
    pub bandwidth: Vec<f64>,

    /// The compression time a dynamic response may take, in milliseconds.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 5.0,
        allow_hyphen_values = true
    )]
    pub latency_budget_ms: f64,

    /// The compression time a response compressed once and cached may take, in
    /// milliseconds.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000.0,
        allow_hyphen_values = true
    )]
    pub cache_budget_ms: f64,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,

    /// What to measure and how, when there is no --from.
    #[command(flatten)]
    pub measure: MeasureArgs,
}

/// Options of `codecbench http`.
#[derive(Debug, Args)]
pub struct HttpArgs {
    /// A built-in payload, a file or a directory, as for `run`. Default: small.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// Encodings to serve, one server each: `zstd:LEVEL`, `br:QUALITY`, `gzip:LEVEL`,
    /// `identity`, or `auto` (zstd, br and gzip at level 1, negotiated in ASP.NET Core's
    /// order for a browser's Accept-Encoding), comma-separated.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "zstd:1,zstd:3,br:1,br:4,gzip:1,identity"
    )]
    pub encodings: Vec<String>,

    /// Connections per encoding, each sending one request at a time.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256), allow_hyphen_values = true)]
    pub concurrency: u32,

    /// Requests per encoding. Default: 200 when --duration is not given.
    #[arg(long, value_name = "N", conflicts_with = "duration",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000), allow_hyphen_values = true)]
    pub requests: Option<u32>,

    /// Seconds of load per encoding, at most 600.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub duration: Option<f64>,

    /// Shape each connection's server-to-client stream to this many Mbit/s with a token
    /// bucket, so the time smaller bodies save on a slow link shows.
    #[arg(long, value_name = "MBIT", allow_hyphen_values = true)]
    pub bandwidth: Option<f64>,

    /// Where the results go.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Options of `codecbench plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A run saved by `run --json` (or `--csv`).
    pub run: PathBuf,

    /// The SVG file to write.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Options of `codecbench reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Read a saved run (JSON or CSV) instead of measuring; the measuring options are
    /// then ignored.
    #[arg(long, value_name = "RUN")]
    pub from: Option<PathBuf>,

    /// Where to write the Markdown report.
    #[arg(long, value_name = "FILE", default_value = "results/REPRODUCTION.md")]
    pub out: PathBuf,

    /// What to measure and how, when there is no --from. The defaults are the article's.
    #[command(flatten)]
    pub measure: MeasureArgs,
}

/// Options of `codecbench zstd-params`.
#[derive(Debug, Args)]
pub struct ZstdParamsArgs {
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
    #[arg(long, value_enum, default_value_t = ParamsFormat::Table)]
    pub format: ParamsFormat,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Output formats of `zstd-params`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ParamsFormat {
    /// Terminal tables.
    Table,
    /// GitHub-flavoured Markdown.
    Markdown,
}

/// Options of `codecbench payloads`.
#[derive(Debug, Args)]
pub struct PayloadsArgs {
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
