//! Checks of `codecbench probe`'s input.

use std::time::Duration;

use anyhow::{bail, Result};

use crate::cli::ProbeArgs;
use crate::export::exporter::Format;
use crate::live::client::{target, ProbeLoad, Target};
use crate::vocab::Server;

/// The highest `--max-body`: 4 GiB, past which probe would hold the identity body,
/// a decoded copy and a dictionary of that size at once.
const MAX_BODY_CEILING: u64 = 4 << 30;

/// Settings of `codecbench probe`.
pub(crate) struct ProbeConfig {
    /// Where to send requests.
    pub targets: Vec<Target>,
    /// Extra request headers, `(name, value)`.
    pub headers: Vec<(String, String)>,
    /// The load per Accept-Encoding.
    pub load: ProbeLoad,
    /// The server profile to predict with.
    pub server: Option<Server>,
    /// What stdout shows.
    pub format: Format,
    /// The files written at the end.
    pub exports: super::outputs::Exports,
    /// No progress lines.
    pub quiet: bool,
    /// `--dictionary`: the dictionary to offer every URL.
    pub dictionary: Option<String>,
}

impl ProbeConfig {
    /// Checks the URLs, headers and bounds.
    pub(crate) fn from_args(args: ProbeArgs) -> Result<Self> {
        let targets = args
            .urls
            .iter()
            .map(|url| target(url))
            .collect::<Result<Vec<_>>>()?;
        let headers = args
            .headers
            .iter()
            .map(|h| header(h))
            .collect::<Result<Vec<_>>>()?;
        if let Some(url) = &args.dictionary {
            target(url).map_err(|e| anyhow::anyhow!("--dictionary {e}"))?;
        }
        let load = load(&args)?;
        if let Some(server) = args.server.filter(|s| !s.has_profile()) {
            bail!(
                "--server {server}: {}, so nothing can be predicted; probe without --server",
                super::settings::no_profile(server)
            );
        }
        if args.output.markdown.is_some() {
            bail!("--export-markdown: probe writes CSV and JSON files; print Markdown with --format markdown");
        }
        let exports = super::outputs::Exports {
            csv: args.output.csv.clone(),
            json: args.output.json.clone(),
            ..Default::default()
        };
        exports.check(&[])?;
        Ok(ProbeConfig {
            targets,
            headers,
            load,
            server: args.server,
            format: args.output.format,
            exports,
            quiet: args.quiet,
            dictionary: args.dictionary,
        })
    }
}

/// The load and the bounds on what a server may send, checked.
fn load(args: &ProbeArgs) -> Result<ProbeLoad> {
    if !(1..=100_000).contains(&args.requests) {
        bail!("--requests {} must be 1 to 100,000", args.requests);
    }
    if !(args.duration.is_finite() && args.duration > 0.0 && args.duration <= 600.0) {
        bail!(
            "--duration {} must be above 0 and at most 600 seconds",
            args.duration
        );
    }
    if !(args.timeout.is_finite() && (0.1..=600.0).contains(&args.timeout)) {
        bail!("--timeout {} must be 0.1 to 600 seconds", args.timeout);
    }
    let max_body = crate::format::parse_bytes(&args.max_body)
        .filter(|bytes| (1..=MAX_BODY_CEILING).contains(bytes))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--max-body '{}' must be 1 byte to 4GiB, e.g. 64MiB",
                args.max_body
            )
        })?;
    if !(1..=64).contains(&args.concurrency) {
        bail!("--concurrency {} must be 1 to 64", args.concurrency);
    }
    Ok(ProbeLoad {
        requests: args.requests,
        duration: Duration::from_secs_f64(args.duration),
        concurrency: args.concurrency,
        insecure: args.insecure,
        timeout: Duration::from_secs_f64(args.timeout),
        max_body,
    })
}

/// `NAME: VALUE`, checked as HTTP allows.
fn header(text: &str) -> Result<(String, String)> {
    let Some((name, value)) = text.split_once(':') else {
        bail!("-H '{text}': not NAME:VALUE");
    };
    let (name, value) = (name.trim(), value.trim());
    if hyper::header::HeaderName::from_bytes(name.as_bytes()).is_err()
        || hyper::header::HeaderValue::from_str(value).is_err()
    {
        bail!("-H '{text}': not a valid header");
    }
    if name.eq_ignore_ascii_case("accept-encoding") || name.eq_ignore_ascii_case("host") {
        bail!("-H '{text}': probe sets {name} itself");
    }
    Ok((name.to_string(), value.to_string()))
}
