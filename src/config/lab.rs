//! Checks of `codecbench lab`'s input.

use anyhow::{bail, Result};

use super::levels::checked_levels;
use super::payloads::payload_sources;
use crate::cli::LabArgs;
use crate::export::exporter::Format;
use crate::lab::{Installs, Load, Setting};
use crate::payload::{PayloadSource, RngKind};
use crate::vocab::{CodecKind, Server};

/// Settings of `codecbench lab`.
pub(crate) struct LabConfig {
    /// The servers to measure through, each once, in the order given.
    pub servers: Vec<Server>,
    /// The settings each is configured with.
    pub settings: Vec<Setting>,
    /// Where the Express app's modules are.
    pub installs: Installs,
    /// Batches and requests per setting.
    pub load: Load,
    /// The bodies served.
    pub payloads: Vec<PayloadSource>,
    /// The sizes of the smaller bodies cut from each, ascending.
    pub cuts: Vec<u64>,
    /// Generator seed, for built-in payloads.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
    /// What stdout shows.
    pub format: Format,
    /// The files written at the end.
    pub exports: super::outputs::Exports,
    /// No progress lines.
    pub quiet: bool,
}

impl LabConfig {
    /// Checks the servers, levels, load and outputs.
    pub(crate) fn from_args(args: LabArgs) -> Result<Self> {
        let mut servers: Vec<Server> = Vec::new();
        for server in args.servers {
            if !matches!(
                server,
                Server::Nginx | Server::Apache | Server::Caddy | Server::Express
            ) {
                bail!("--servers {server}: the lab starts nginx, apache, caddy and express");
            }
            if !servers.contains(&server) {
                servers.push(server);
            }
        }
        let mut settings = Vec::new();
        for (codec, text, option) in [
            (CodecKind::Brotli, &args.brotli_levels, "--brotli-levels"),
            (CodecKind::Gzip, &args.gzip_levels, "--gzip-levels"),
        ] {
            let range = if codec == CodecKind::Brotli {
                0..=11
            } else {
                1..=9
            };
            for level in checked_levels(text, option, codec.name(), range, "the servers")? {
                settings.push(Setting { codec, level });
            }
        }
        if !(6..=1000).contains(&args.batches) {
            bail!(
                "--batches {}: 6 to 1000 (6 is the fewest that gives a 95% interval)",
                args.batches
            );
        }
        if !(1..=10_000).contains(&args.requests) {
            bail!("--requests {}: 1 to 10,000 per batch", args.requests);
        }
        let names = match args.payloads.is_empty() {
            true => vec!["small".to_string()],
            false => args.payloads,
        };
        let payloads = payload_sources(&names, &[])?;
        let exports = super::outputs::exports(&args.output, &payloads)?;
        Ok(LabConfig {
            cuts: cuts(&args.cuts)?,
            servers,
            settings,
            installs: installs(args.node_modules)?,
            load: Load {
                batches: args.batches,
                requests: args.requests,
            },
            payloads,
            seed: args.generator.seed,
            rng: args.generator.rng,
            format: args.output.format,
            exports,
            quiet: args.quiet,
        })
    }
}

/// Where the Express app's modules are: `--node-modules`, which must be a directory, or
/// codecbench's own `lab/express`, whose absence skips Express with a word on how to
/// install it.
fn installs(node_modules: Option<std::path::PathBuf>) -> Result<Installs> {
    let node_modules = match node_modules {
        Some(dir) if !dir.is_dir() => bail!(
            "--node-modules {}: not a directory",
            crate::format::one_line(&dir.to_string_lossy())
        ),
        Some(dir) => dir,
        None => concat!(env!("CARGO_MANIFEST_DIR"), "/lab/express/node_modules").into(),
    };
    Ok(Installs { node_modules })
}

/// `--cuts`: sizes from 16 bytes to 256 MiB, or `none`.
fn cuts(text: &str) -> Result<Vec<u64>> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    let mut sizes = Vec::new();
    for word in text.split(',') {
        match crate::format::parse_bytes(word) {
            Some(size @ 16..=0x1000_0000) => sizes.push(size),
            _ => bail!(
                "--cuts {}: sizes from 16 bytes to 256MiB, e.g. 1KiB,64KiB, or none",
                crate::format::one_line(word)
            ),
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}
