//! Checks of `codecbench http`.

use std::time::Duration;

use anyhow::{bail, Result};

use super::payload_sources;
use crate::cli::{DictionaryArgs, HttpArgs};
use crate::export::Format;
use crate::http::{Encoding, Load};
use crate::payload::{PayloadSource, RngKind};

/// The slowest link `--bandwidth` may shape, in Mbit/s: 1.25 kB/s.
pub const MIN_BANDWIDTH_MBIT: f64 = 0.01;
/// The fastest, in Mbit/s.
pub const MAX_BANDWIDTH_MBIT: f64 = 100_000.0;

/// Settings of `codecbench http`.
pub struct HttpConfig {
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
    /// With `--dictionary previous`: the share of records (0 to 1) updated between the
    /// client's version and the one sent.
    pub previous_changed: Option<f64>,
}

impl HttpConfig {
    /// Checks the encodings, duration, bandwidth and payload names.
    pub fn from_args(args: HttpArgs) -> Result<Self> {
        let encodings = args
            .encodings
            .iter()
            .map(|e| Encoding::parse(e.trim()))
            .collect::<Result<Vec<_>>>()?;
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
        let exports = super::exports(&args.output, &payloads)?;
        let previous_changed = dictionary_mode(&args.dictionary, &encodings)?;
        Ok(HttpConfig {
            encodings,
            load,
            payloads,
            seed: args.generator.seed,
            rng: args.generator.rng,
            format: args.output.format,
            exports,
            quiet: args.quiet,
            previous_changed,
        })
    }
}

/// `--dictionary previous` with `--change PCT` as a share from 0 to 1; `None` without a
/// dictionary, which `dcz` encodings need.
fn dictionary_mode(args: &DictionaryArgs, encodings: &[Encoding]) -> Result<Option<f64>> {
    let change = args.change;
    let share = match args.dictionary.as_deref() {
        None => None,
        Some("previous") if change.is_finite() && (0.0..=100.0).contains(&change) => {
            Some(change / 100.0)
        }
        Some("previous") => bail!("--change {change} must be a percentage from 0 to 100"),
        Some(other) => bail!("--dictionary {other}: the dictionary modes are: previous"),
    };
    let needs_one = |e: &&Encoding| matches!(e, Encoding::Dcz(_) | Encoding::Dcb(_));
    if let Some(dcz) = encodings.iter().find(needs_one) {
        if share.is_none() {
            bail!("encoding {dcz} needs a dictionary: add --dictionary previous");
        }
    }
    Ok(share)
}

/// Settings of `codecbench serve`.
pub struct ServeConfig {
    /// The payloads.
    pub payloads: Vec<PayloadSource>,
    /// The encodings, each at its own path.
    pub encodings: Vec<Encoding>,
    /// Where to listen.
    pub address: std::net::SocketAddr,
    /// With `--dictionary previous`: the share of records updated.
    pub previous_changed: Option<f64>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
}

impl ServeConfig {
    /// Checks the encodings, the address and the payload names.
    pub fn from_args(args: crate::cli::ServeArgs) -> Result<Self> {
        let encodings = args
            .encodings
            .iter()
            .map(|e| Encoding::parse(e.trim()))
            .collect::<Result<Vec<_>>>()?;
        let ip: std::net::IpAddr = args
            .bind
            .parse()
            .map_err(|_| anyhow::anyhow!("--bind {}: not an IP address", args.bind))?;
        Ok(ServeConfig {
            previous_changed: dictionary_mode(&args.dictionary, &encodings)?,
            payloads: payload_sources(&args.payloads, &args.records)?,
            encodings,
            address: std::net::SocketAddr::new(ip, args.port),
            seed: args.generator.seed,
            rng: args.generator.rng,
        })
    }
}
