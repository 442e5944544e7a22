//! Checks of `codecbench http`.

use std::time::Duration;

use anyhow::{bail, Result};

use super::payloads::payload_sources;
use crate::cli::{DictionaryArgs, HttpArgs};
use crate::export::exporter::Format;
use crate::http::dictionary::Source;
use crate::http::load::Load;
use crate::payload::{PayloadSource, RngKind};
use crate::vocab::Encoding;

/// The slowest link `--bandwidth` may shape, in Mbit/s: 1.25 kB/s.
pub(crate) const MIN_BANDWIDTH_MBIT: f64 = 0.01;
/// The fastest, in Mbit/s.
pub(crate) const MAX_BANDWIDTH_MBIT: f64 = 100_000.0;

/// Settings of `codecbench http`.
pub(crate) struct HttpConfig {
    /// The encodings, one server each.
    pub encodings: Vec<Encoding>,
    /// The load per encoding.
    pub load: Load,
    /// The payloads; `small` when none is named.
    pub payloads: Vec<PayloadSource>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
    /// What stdout shows.
    pub format: Format,
    /// The files kept up to date as results come.
    pub exports: super::outputs::Exports,
    /// No progress lines.
    pub quiet: bool,
    /// Where the client's dictionary comes from, if any.
    pub dictionary: Option<Source>,
}

impl HttpConfig {
    /// Checks the encodings, duration, bandwidth and payload names.
    pub(crate) fn from_args(args: HttpArgs) -> Result<Self> {
        let encodings = encodings(args.encodings.as_deref(), HTTP_DEFAULT, &args.dictionary)?;
        let duration = match args.duration {
            Some(s) if !(s.is_finite() && s > 0.0 && s <= 600.0) => {
                bail!("--duration {s} must be a number of seconds above 0 and at most 600")
            }
            Some(s) => Some(Duration::from_secs_f64(s)),
            None => None,
        };
        let bandwidth_mbit = match args.bandwidth {
            Some(b)
                if !(b.is_finite() && (MIN_BANDWIDTH_MBIT..=MAX_BANDWIDTH_MBIT).contains(&b)) =>
            {
                bail!(
                    "--bandwidth {b} must be a number of Mbit/s from {MIN_BANDWIDTH_MBIT} to {MAX_BANDWIDTH_MBIT}"
                )
            }
            other => other,
        };
        let load = Load {
            concurrency: args.concurrency as usize,
            requests: match (args.requests, duration) {
                (Some(n), _) => Some(n as usize),
                (None, None) => Some(200),
                (None, Some(_)) => None,
            },
            duration,
            bandwidth_mbit,
        };
        let names = if args.payloads.is_empty() {
            vec!["small".to_string()]
        } else {
            args.payloads
        };
        let payloads = payload_sources(&names, &[])?;
        let exports = super::outputs::exports(&args.output, &payloads)?;
        let dictionary = dictionary_mode(&args.dictionary, &encodings)?;
        Ok(HttpConfig {
            encodings,
            load,
            payloads,
            seed: args.generator.seed,
            rng: args.generator.rng,
            format: args.output.format,
            exports,
            quiet: args.quiet,
            dictionary,
        })
    }
}

/// What `http` measures when --encodings does not say.
const HTTP_DEFAULT: &[&str] = &["zstd:1", "zstd:3", "br:1", "br:4", "gzip:1", "identity"];
/// What `serve` serves when --encodings does not say.
const SERVE_DEFAULT: &[&str] = &["zstd:1", "br:4", "gzip:6", "identity", "auto"];
/// What a dictionary adds to the default encodings: RFC 9842's two codings.
const DICTIONARY_DEFAULT: &[&str] = &["dcz:3", "dcb:5"];

/// The encodings `listed`, or the defaults, with the dictionary codings when a
/// dictionary is given and the list is the default one.
fn encodings(
    listed: Option<&[String]>,
    default: &[&str],
    dictionary: &DictionaryArgs,
) -> Result<Vec<Encoding>> {
    let names: Vec<&str> = match listed {
        Some(listed) => listed.iter().map(|e| e.trim()).collect(),
        None if dictionary.dictionary.is_some() => {
            default.iter().chain(DICTIONARY_DEFAULT).copied().collect()
        }
        None => default.to_vec(),
    };
    names.into_iter().map(Encoding::parse).collect()
}

/// A percentage written `5` or `5%`.
fn percent(text: &str) -> Result<f64> {
    let number = text.trim().trim_end_matches('%').trim();
    number
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && (0.0..=100.0).contains(p))
        .ok_or_else(|| anyhow::anyhow!("--change {text} must be a percentage from 0 to 100"))
}

/// `--dictionary previous` (with `--change PCT`) or `trained:KIB`; `None` without a
/// dictionary, which `dcz` and `dcb` encodings need.
fn dictionary_mode(args: &DictionaryArgs, encodings: &[Encoding]) -> Result<Option<Source>> {
    let source = match args.dictionary.as_deref() {
        None => None,
        Some("previous") => {
            let change = percent(&args.change)?;
            Some(Source::Previous {
                changed: change / 100.0,
            })
        }
        Some(other) => match other.strip_prefix("trained:").map(str::parse::<u32>) {
            Some(Ok(kib)) if (1..=1024).contains(&kib) => Some(Source::Trained { kib }),
            Some(_) => bail!("--dictionary {other}: trained dictionaries are 1 to 1024 KiB"),
            None => {
                bail!("--dictionary {other}: the dictionary modes are previous and trained:KIB")
            }
        },
    };
    let needs_one = |e: &&Encoding| matches!(e, Encoding::Dcz(_) | Encoding::Dcb(_));
    if let Some(dcz) = encodings.iter().find(needs_one) {
        if source.is_none() {
            bail!("encoding {dcz} needs a dictionary: add --dictionary previous or trained:KIB");
        }
    }
    Ok(source)
}

/// Settings of `codecbench serve`.
pub(crate) struct ServeConfig {
    /// The payloads.
    pub payloads: Vec<PayloadSource>,
    /// The encodings, each at its own path.
    pub encodings: Vec<Encoding>,
    /// Where to listen.
    pub address: std::net::SocketAddr,
    /// Where the client's dictionary comes from, if any.
    pub dictionary: Option<Source>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
    /// How long a response may wait for its client to read (`--send-timeout`).
    pub send_timeout: std::time::Duration,
}

impl ServeConfig {
    /// Checks the encodings, the address and the payload names.
    pub(crate) fn from_args(args: crate::cli::ServeArgs) -> Result<Self> {
        let encodings = encodings(args.encodings.as_deref(), SERVE_DEFAULT, &args.dictionary)?;
        let ip: std::net::IpAddr = args
            .bind
            .parse()
            .map_err(|_| anyhow::anyhow!("--bind {}: not an IP address", args.bind))?;
        if !(0.1..=3600.0).contains(&args.send_timeout) {
            anyhow::bail!(
                "--send-timeout {}: give 0.1 to 3600 seconds",
                args.send_timeout
            );
        }
        Ok(ServeConfig {
            dictionary: dictionary_mode(&args.dictionary, &encodings)?,
            payloads: payload_sources(&args.payloads.payloads, &args.payloads.records)?,
            encodings,
            address: std::net::SocketAddr::new(ip, args.port),
            seed: args.generator.seed,
            rng: args.generator.rng,
            send_timeout: std::time::Duration::from_secs_f64(args.send_timeout),
        })
    }
}
