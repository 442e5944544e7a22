//! Options of `codecbench http`.

use clap::Args;

use super::measure::{GeneratorArgs, OutputArgs, PayloadArgs};

/// Options of `codecbench http`.
#[derive(Debug, Args)]
pub(crate) struct HttpArgs {
    /// A built-in payload, a file or a directory, as for `run`. Default: small.
    #[arg(long = "payload", value_name = "NAME|PATH")]
    pub payloads: Vec<String>,

    /// Encodings to serve, one server each: `zstd:LEVEL`, `br:QUALITY`, `gzip:LEVEL`,
    /// `dcz:LEVEL` (zstd against the dictionary the client holds, RFC 9842; needs
    /// --dictionary), `identity`, or `auto` (zstd, br and gzip at level 1, negotiated in
    /// ASP.NET Core's order for a browser's Accept-Encoding), comma-separated.
    /// [default: zstd:1,zstd:3,br:1,br:4,gzip:1,identity; with --dictionary, also
    /// dcz:3,dcb:5]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub encodings: Option<Vec<String>>,

    /// The dictionary a client holds, for `dcz` encodings.
    #[command(flatten)]
    pub dictionary: DictionaryArgs,

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

    /// No progress on stderr: neither the heading nor the line per encoding. Warnings
    /// and errors still show.
    #[arg(long, short)]
    pub quiet: bool,

    /// Where the results go.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Options of `codecbench serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Which bodies to serve.
    #[command(flatten)]
    pub payloads: PayloadArgs,

    /// Encodings, each at its own path `/<encoding>/<payload>` (e.g. `/zstd-1/small`):
    /// as for `http`, comma-separated. [default: zstd:1,br:4,gzip:6,identity,auto; with
    /// --dictionary, also dcz:3,dcb:5]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub encodings: Option<Vec<String>>,

    /// The address to listen on. Anything but loopback exposes the payloads to the
    /// network.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub bind: String,

    /// The port to listen on; 0 picks a free one.
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,

    /// Seconds a response may wait for its client to read more of it before the
    /// connection is closed (nginx's `send_timeout`), from 0.1 to 3600.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub send_timeout: f64,

    /// The dictionary a client holds, for `dcz` encodings.
    #[command(flatten)]
    pub dictionary: DictionaryArgs,

    /// Options of the record generator, for the built-in payloads.
    #[command(flatten)]
    pub generator: GeneratorArgs,
}

/// Where `dcz` encodings get the dictionary the client holds: shared by `http` and
/// `serve`.
#[derive(Debug, Args)]
pub(crate) struct DictionaryArgs {
    /// Where `dcz` and `dcb` encodings get the dictionary the client holds (RFC 9842):
    /// `previous`, the payload as it was, while the server sends a version with --change
    /// of its records updated (every encoding then sends that version; `serve` also
    /// serves the previous one at `/dictionary/<payload>`, marked Use-As-Dictionary); or
    /// `trained:KIB`, a zstd dictionary trained on 1,000 other records, fetched once.
    #[arg(long, value_name = "previous|trained:KIB")]
    pub dictionary: Option<String>,

    /// With --dictionary previous: the share of records updated between the version the
    /// client holds and the one it is sent, in percent: `5` or `5%`.
    #[arg(
        long,
        value_name = "PCT",
        default_value = "5",
        allow_hyphen_values = true
    )]
    pub change: String,
}
