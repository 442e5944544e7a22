//! The command line, as clap derive types. `config.rs` turns these into typed settings;
//! nothing past it sees clap.

mod analysis;
mod http;
mod measure;

pub use analysis::{
    CompareArgs, CompareFormat, MergeArgs, MergeFormat, ParamsFormat, PayloadsArgs, PlotArgs,
    RecommendArgs, ReproduceArgs, ZstdParamsArgs,
};
pub use http::HttpArgs;
pub use measure::{GeneratorArgs, MeasureArgs, OutputArgs, RunArgs};

use clap::{Parser, Subcommand};

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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
