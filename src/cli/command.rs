//! The command line's root: the `codecbench` parser and its subcommands.

use clap::{Parser, Subcommand};

use super::{
    AbArgs, CompareArgs, HttpArgs, MergeArgs, PayloadsArgs, PlotArgs, PoolArgs, ProbeArgs,
    RecommendArgs, ReportArgs, ReproduceArgs, RunArgs, ServeArgs, ZstdParamsArgs,
};

/// Benchmark zstd, brotli and gzip on JSON API responses, the way ASP.NET Core's
/// response-compression middleware runs them.
#[derive(Debug, Parser)]
#[command(name = "codecbench", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Measure size and compress/decompress speed for each payload × codec × level.
    Run(RunArgs),
    /// Write the generated payloads to disk (single.json, small.json, large.json).
    Payloads(PayloadsArgs),
    /// Gate CI: compare a candidate run with a baseline; exit 1 on a regression.
    ///
    /// Sizes must match exactly; speeds are judged against a threshold and the runs'
    /// own noise.
    Compare(CompareArgs),
    /// Did a change make the codecs slower? Two builds measured cell by cell in turn.
    ///
    /// This build (the candidate) and --baseline each run a worker; every cell is timed
    /// by both in pairs of short batches, seconds apart, in turn, until each is decided:
    /// slower, faster or the same within --threshold, from the pairs' 95% interval.
    /// Sizes must agree to the byte. Exit 1 on a slowdown or a size drift.
    Ab(AbArgs),
    /// Put several runs side by side: a row per setting, a column per run.
    Merge(MergeArgs),
    /// Pool runs of the same settings into one, as `run --processes` pools its processes.
    ///
    /// Each cell takes every run's samples, so runs measured one after another, or
    /// alternating with another build's, judge as one run measured in all their processes.
    Pool(PoolArgs),
    /// What to deploy: a setting per encoding, their order and a minimum body size.
    ///
    /// Opens with the answer for dynamic, cached and static responses (and per content
    /// type for a HAR capture), then the evidence per payload: dominated settings, Pareto
    /// frontiers, picks, capacity and time per response at several bandwidths. Measures,
    /// or reads --from RUN; --emit prints server configuration instead.
    Recommend(RecommendArgs),
    /// Show the parameters libzstd picks for each level and payload size.
    ///
    /// Strategy, windowLog, chainLog, hashLog, searchLog, minMatch and targetLength, for
    /// each payload's size and for a stream of unknown size, beside the article's table.
    ZstdParams(ZstdParamsArgs),
    /// Check each of the article's claims against a measured run.
    ///
    /// Measures the article's matrix (or reads --from RUN), prints a row per claim and
    /// writes a Markdown report.
    Reproduce(ReproduceArgs),
    /// Draw a saved run as an SVG chart: ratio against speed, per payload.
    ///
    /// Per payload, compression ratio against compression and decompression speed (log
    /// scale), a series per codec and library, and the Pareto frontier.
    Plot(PlotArgs),
    /// Write one self-contained HTML page of saved runs, for people to open.
    ///
    /// Per run: the machine and settings, what to deploy, and per payload a
    /// ratio-against-speed chart (hover a point, hide a series) and the matrix, sortable
    /// by any column. With --baseline, compare's verdicts first. Nothing in the page is
    /// fetched from anywhere; it opens from a CI artifact or offline.
    Report(ReportArgs),
    /// Serve each encoding over real HTTP/1.1 on loopback and measure it.
    ///
    /// Requests/s, latency percentiles and bytes on the wire, every body decoded and
    /// verified.
    Http(HttpArgs),
    /// Serve the payloads over HTTP for your own clients, until Ctrl-C.
    ///
    /// The same server and middleware as `http`, each encoding at its own path, on a port
    /// you pick (127.0.0.1:8080 by default), for a browser, `curl --compressed` or a load
    /// generator you trust. Prints each URL at start.
    Serve(ServeArgs),
    /// Measure a live server: each Accept-Encoding's body, time and bytes.
    ///
    /// For each URL, requests with identity, gzip, br, zstd and a browser's
    /// Accept-Encoding: status, Content-Encoding, Vary, body and wire bytes, time to the
    /// first and last byte; every body decoded and compared with the identity body.
    /// With --server, the level whose predicted body matches beside it.
    Probe(ProbeArgs),
    /// Measure through the real servers installed here: bytes sent and CPU per response.
    ///
    /// Starts nginx and Apache httpd on 127.0.0.1, one configuration per setting,
    /// serves each payload, and reads the bytes each sends and the CPU time its process
    /// spends per response beyond an identity response's (95% intervals), beside
    /// codecbench's prediction and its in-process encode time. The run saved with
    /// --export-json is read by compare, report and recommend --from. No server is left
    /// running.
    Lab(super::LabArgs),
    /// One cell of `run --measure instructions`, run under callgrind by `run` itself: a
    /// job on stdin in the worker protocol (docs/workers.md); it takes no option.
    #[command(hide = true)]
    CountInstructions,
    /// One worker process of `run --processes`: a job on stdin in the worker protocol
    /// (docs/workers.md), answered on stdout; it takes no option.
    #[command(hide = true)]
    TimeWorker,
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
