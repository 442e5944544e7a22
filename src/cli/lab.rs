//! Options of `codecbench lab`.

use clap::Args;

use super::measure::{GeneratorArgs, OutputArgs};

/// Options of `codecbench lab`.
#[derive(Debug, Args)]
pub(crate) struct LabArgs {
    /// A built-in payload, a file or a directory, as for `run`. Default: small.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// The servers to measure through, comma-separated: `nginx` (with ngx_brotli),
    /// `apache` (httpd with mod_deflate and mod_brotli), `caddy` (gzip only) and
    /// `express` (Node.js with the compression middleware). One not installed is
    /// skipped with what to install.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "nginx,apache,caddy,express"
    )]
    pub servers: Vec<crate::vocab::Server>,

    /// The `node_modules` directory holding `express` and `compression` for the
    /// Express app: your own app's, to measure its versions. Default: codecbench's
    /// `lab/express/node_modules` (after `npm ci --prefix lab/express`). The lab runs
    /// the code in it, and only there, as the user codecbench runs as: a directory
    /// another user can write is refused.
    #[arg(long, value_name = "DIR")]
    pub node_modules: Option<std::path::PathBuf>,

    /// The port each server listens on, on 127.0.0.1; Apache, which sets its levels per
    /// virtual host, takes one more for each setting after it. Default: ports the
    /// system finds free. A port another process listens on is a failure, never
    /// measured.
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,

    /// Smaller bodies cut from each payload (its leading records), measured beside it
    /// so that `recommend --from` places a minimum body size between sizes measured
    /// rather than estimating one: sizes, comma-separated, or `none`.
    #[arg(long, value_name = "LIST", default_value = "1KiB,4KiB,16KiB,64KiB")]
    pub cuts: String,

    /// brotli qualities to configure, comma-separated.
    #[arg(long, value_name = "LIST", default_value = "1,5,11")]
    pub brotli_levels: String,

    /// gzip levels to configure, comma-separated.
    #[arg(long, value_name = "LIST", default_value = "1,6,9")]
    pub gzip_levels: String,

    /// Batches per setting, one figure of the server's CPU per response each (6 to
    /// 1000; 6 is the fewest that gives a 95% interval, 11 what compare needs to bound
    /// a change).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub batches: usize,

    /// Requests per batch, with as many identity requests before them (1 to 10,000).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub requests: usize,

    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// Where the results go: the tables, or the run as CSV or JSON.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}
