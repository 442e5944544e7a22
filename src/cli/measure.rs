//! What to measure and how, and where results go: `run`'s options, shared with
//! `recommend`, `reproduce` and `http`.

use std::path::PathBuf;

use clap::Args;

use crate::bench::method::{DEFAULT_ROUNDS, DEFAULT_WARMUP};
use crate::codec::{BrotliImpl, EncoderChoice};

use crate::export::exporter::Format;
use crate::payload::{RngKind, DEFAULT_SEED};
use crate::vocab::CodecKind;

/// Options shared by everything that generates records.
#[derive(Debug, Args)]
pub(crate) struct GeneratorArgs {
    /// Seed of the record generator.
    #[arg(long, default_value_t = DEFAULT_SEED, allow_hyphen_values = true)]
    pub seed: i32,

    /// Random stream: `dotnet` reproduces the article byte for byte; `chacha` is Rust-native.
    #[arg(long, value_enum, default_value_t = RngKind::Dotnet)]
    pub rng: RngKind,
}

/// The bodies to measure: shared by `run`, `recommend`, `reproduce` and `serve`.
#[derive(Debug, Args)]
pub(crate) struct PayloadArgs {
    /// A built-in payload (single, small, large), real-json (15 public JSON files), a
    /// file, a directory of JSON files (other files are skipped, each with a line), or a
    /// browser's HAR capture (its text response bodies). Repeat to run several. Default:
    /// the three built-in payloads.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// Generated payloads of these record counts, comma-separated (e.g. 1,3,10,30,100),
    /// after any --payload: bodies of many sizes, so `recommend` can place the minimum
    /// body size worth compressing.
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub records: Vec<String>,
}

/// What to measure and how: shared by `run` and `recommend`.
#[derive(Debug, Args)]
pub(crate) struct MeasureArgs {
    /// Which bodies to measure.
    #[command(flatten)]
    pub payloads: PayloadArgs,

    /// How the body reaches the encoder, comma-separated: `stream` (unknown length, as
    /// ASP.NET Core's middleware; the default), `oneshot` (one call with the size known,
    /// as lzbench and `zstd -b`), `flush:SIZE` (pieces of SIZE, e.g. 16KiB, flushed after
    /// each, as a streamed response). Each API is its own row. [default: stream; for
    /// `reproduce`, stream and the one-shot zstd cells its ratio claims read]
    #[arg(long, value_name = "API,...", value_delimiter = ',')]
    pub api: Option<Vec<String>>,

    /// Timed iterations per direction, at most 10,000,000. Default: 1000 for bodies up to
    /// 10 kB, 60 up to 1 MB, 15 above (the article's counts for its three payloads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000),
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

    /// Cap on the iterations --min-time or --quick may size, at most 10,000,000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000),
          allow_hyphen_values = true)]
    pub max_iterations: Option<u32>,

    /// A fast preset for first looks: --min-time 0.05 --max-iterations 200. The whole
    /// default matrix takes about 30 seconds on a 2-core machine; too noisy to gate CI on.
    #[arg(long, conflicts_with_all = ["iterations", "min_time"])]
    pub quick: bool,

    /// Untimed warm-up iterations per direction before the timed ones, in each process.
    /// Each later round re-warms with one. A direction whose first run took 40 ms or more
    /// gets none: that run is warm-up enough.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_WARMUP,
        value_parser = clap::value_parser!(u32).range(0..=1_000_000),
        allow_hyphen_values = true
    )]
    pub warmup: u32,

    /// Spread each cell's timed iterations over N rounds, each visiting every cell, so a
    /// slow spell of the machine shows in every cell's spread rather than shifting one
    /// cell. 1 runs each cell to completion before the next; at most 10,000.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ROUNDS,
          value_parser = clap::value_parser!(u32).range(1..=10_000), allow_hyphen_values = true)]
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
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "zstd,brotli,gzip"
    )]
    pub codecs: Vec<CodecKind>,

    /// zstd levels: a list and/or inclusive ranges, e.g. `1,3,19` or `-5..-1,1..19`
    /// (the default). Any level libzstd accepts.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub zstd_levels: Option<String>,

    /// Measure the encoders as this server runs them, so the cells predict what it sends:
    /// `aspnetcore` (its middleware fed a JSON body as the serializer writes and flushes
    /// it; modelled from the upstream source, see --aspnetcore-writer), `nginx`
    /// (ngx_brotli's window and buffers, madler zlib as its gzip module runs it), or
    /// `tower-http` (its CompressionLayer run in-process). Without it, the article's
    /// method: the whole body in one write. `caddy` is refused: Go's encoders do not run
    /// here.
    #[arg(
        long,
        value_enum,
        value_name = "SERVER",
        conflicts_with_all = ["api", "encoder", "zstd_dict", "brotli_impl"]
    )]
    pub server: Option<crate::vocab::Server>,

    /// With `--server aspnetcore`: how the endpoint writes its JSON. `minimal` (minimal
    /// APIs, `WriteAsJsonAsync`) and `mvc` (controllers, .NET 9 and later) write 4 KiB
    /// segments and flush the compression stream about every 14.7 KB; `mvc-net8` writes
    /// pieces of that size and flushes once at the end. `minimal` by default.
    #[arg(long, value_enum, value_name = "WRITER", requires = "server")]
    pub aspnetcore_writer: Option<crate::vocab::AspnetcoreWriter>,

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
    /// round lines, and no noise warning. Errors still show.
    #[arg(long, short, conflicts_with = "verbose")]
    pub quiet: bool,

    /// A line per cell on stderr as it finishes, and every imprecise timing under the
    /// noise warning, not just the worst.
    #[arg(long, short)]
    pub verbose: bool,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Options of `codecbench run`.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// What to measure and how.
    #[command(flatten)]
    pub measure: MeasureArgs,

    /// Where the results go.
    #[command(flatten)]
    pub output: OutputArgs,

    /// What to measure per cell, comma-separated: `time` (wall time, the default),
    /// `instructions` (instructions per compression and per decompression, counted
    /// under valgrind's callgrind: exact where time is noise), or both. With
    /// `instructions` alone, times come from one iteration, for the record only.
    #[arg(
        long = "measure",
        value_enum,
        value_delimiter = ',',
        default_value = "time"
    )]
    pub metrics: Vec<Metric>,

    /// Also write github-action-benchmark's custom JSON to FILE (for its
    /// `customSmallerIsBetter` tool): each cell's median time in ms with its interval,
    /// and its instructions where counted. Rewritten like --export-csv.
    #[arg(long = "export-github-benchmark", value_name = "FILE")]
    pub github_benchmark: Option<PathBuf>,

    /// Also write Bencher Metric Format JSON to FILE: per cell and direction, `latency`
    /// in ns with its interval, and `instructions` where counted. Rewritten like
    /// --export-csv.
    #[arg(long = "export-bencher", value_name = "FILE")]
    pub bencher: Option<PathBuf>,

    /// Time each payload in N processes of this program, one after another, each with
    /// its share of the iterations in rounds, and pool their samples, as pyperf does. Each
    /// warms up with --warmup: each starts cold.
    /// Something fixed for the life of a process (most likely where a cell's buffers
    /// landed in memory) can slow one cell by 20-50% on a shared machine; with several
    /// processes, the low quantile `compare` judges comes from the others. At most 100,
    /// and at most the iterations. [default: one per 3 timed iterations of a fixed count,
    /// at most 5; one with --min-time, --quick or --precision]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100), allow_hyphen_values = true)]
    pub processes: Option<u32>,
}

/// What `run` measures per cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Metric {
    /// Wall time of each compression and decompression.
    Time,
    /// Instructions of one compression and one decompression, under callgrind.
    Instructions,
}

/// Where results go: shared by `run` and `http`.
#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Format of the results on stdout.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also write the results as CSV to FILE, rewritten atomically after every finished
    /// cell or encoding, so a run cut short keeps what it finished. `-` writes it to
    /// stdout once, at the end.
    #[arg(long = "export-csv", visible_alias = "csv", value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Also write the full results as JSON to FILE: environment, every result and every
    /// timed sample, rewritten like --export-csv. `compare`, `merge`, `plot` and
    /// `recommend --from` read it. `-` writes it to stdout once, at the end.
    #[arg(long = "export-json", visible_alias = "json", value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Also write the Markdown tables to FILE, rewritten like --export-csv; the same
    /// bytes as `--format markdown`.
    #[arg(long = "export-markdown", value_name = "FILE")]
    pub markdown: Option<PathBuf>,

    /// Also write the tables as one self-contained HTML page to FILE (sortable tables,
    /// nothing fetched), rewritten like --export-csv.
    #[arg(long = "export-html", value_name = "FILE")]
    pub html: Option<PathBuf>,
}
