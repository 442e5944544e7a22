//! Options of `codecbench probe`.

use clap::Args;

use super::measure::OutputArgs;

/// Options of `codecbench probe`.
#[derive(Debug, Args)]
pub(crate) struct ProbeArgs {
    /// URLs to probe, `http://HOST[:PORT]/PATH` or `https://...`.
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,

    /// Requests per Accept-Encoding, at most 100,000.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub requests: usize,

    /// The longest one Accept-Encoding may take, in seconds (at most 600).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub duration: f64,

    /// The longest one request may take, in seconds, connecting and the TLS and HTTP
    /// handshakes included (0.1 to 600), as curl's --max-time.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,

    /// The most bytes one body may hold, as sent or decoded, and a dictionary too,
    /// e.g. 64MiB (the default) or 1GiB; a body past it fails its row.
    #[arg(long, value_name = "BYTES", default_value = "64MiB")]
    pub max_body: String,

    /// Connections per Accept-Encoding, each sending one request at a time (1 to 64).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,

    /// A request header to send with every request, `NAME: VALUE` (e.g. a cookie or
    /// an Authorization header). Repeat for several.
    #[arg(short = 'H', long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,

    /// Offer the dictionary at this URL to every URL probed, with `dcz` and `dcb`
    /// requests that name it in Available-Dictionary (RFC 9842). Without it, probe
    /// offers the dictionary a URL's response links with `rel="compression-dictionary"`.
    #[arg(long, value_name = "URL")]
    pub dictionary: Option<String>,

    /// Accept any TLS certificate for https:// URLs, e.g. a self-signed one (the
    /// connection is encrypted, not authenticated).
    #[arg(long)]
    pub insecure: bool,

    /// Predict each body with this server's own encoders (`nginx`, `tower-http`,
    /// `aspnetcore`): the level whose body matches what was sent, and codecbench's time
    /// to compress it.
    #[arg(long, value_enum, value_name = "SERVER")]
    pub server: Option<crate::vocab::Server>,

    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// What to print and keep.
    #[command(flatten)]
    pub output: OutputArgs,
}
