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
    /// The first port each server listens on, or `None` for free ports.
    pub first_port: Option<u16>,
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
        let installs = installs(args.node_modules, &servers)?;
        let first_port = first_port(args.port, settings.len())?;
        let exports = super::outputs::exports(&args.output, &payloads)?;
        Ok(LabConfig {
            cuts: cuts(&args.cuts)?,
            servers,
            settings,
            installs,
            first_port,
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
/// install it. Where Express is measured, the code there runs: the directory must be
/// one no other user can change ([`super::modules`]).
fn installs(node_modules: Option<std::path::PathBuf>, servers: &[Server]) -> Result<Installs> {
    let runs = servers.contains(&Server::Express);
    let node_modules = match node_modules {
        Some(dir) if !dir.is_dir() => bail!(
            "--node-modules {}: not a directory",
            crate::format::one_line(&dir.to_string_lossy())
        ),
        Some(dir) if runs => super::modules::trusted(&dir, "--node-modules")?,
        Some(dir) => dir,
        None => {
            let own = std::path::Path::new(OWN_MODULES);
            match runs && own.is_dir() {
                true => super::modules::trusted(own, "lab/express/node_modules")?,
                false => own.to_path_buf(),
            }
        }
    };
    Ok(Installs { node_modules })
}

/// codecbench's own Express modules, from `npm ci --prefix lab/express`.
const OWN_MODULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/lab/express/node_modules");

/// `--port`: from 1, with room after it for a port per setting and identity's.
fn first_port(port: Option<u16>, settings: usize) -> Result<Option<u16>> {
    let Some(first) = port else {
        return Ok(None);
    };
    let last = u32::from(first) + settings as u32;
    if first == 0 || last > u32::from(u16::MAX) {
        bail!(
            "--port {first}: 1 to {}, leaving a port for each of the {settings} settings after it (Apache takes one each)",
            u32::from(u16::MAX) - settings as u32
        );
    }
    Ok(Some(first))
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
