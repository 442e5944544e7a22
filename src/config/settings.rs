//! The codec settings `run` measures: each codec's implementations, APIs and encoder
//! variants, or a server's own encoders (`--server`), at the levels asked for.

use anyhow::{bail, Result};

use super::levels;
use crate::bench::settings::CodecSetting;
use crate::cli::MeasureArgs;
use crate::codec::api::{Api, ThroughApi};
use crate::codec::EncoderChoice;
use crate::vocab::CodecKind;
use crate::vocab::{AspnetcoreWriter, Server};

/// Every codec's settings: its implementations (and reused encoder) with its levels,
/// checked against its range.
pub(super) fn codec_settings(args: &MeasureArgs) -> Result<Vec<CodecSetting>> {
    // Each codec once, in the order first named: `gzip,zstd,gzip` is gzip then zstd.
    let mut codecs: Vec<CodecKind> = Vec::new();
    for codec in &args.codecs {
        if !codecs.contains(codec) {
            codecs.push(*codec);
        }
    }
    let level_options = [
        (CodecKind::Zstd, args.zstd_levels.as_deref()),
        (CodecKind::Brotli, args.brotli_levels.as_deref()),
        (CodecKind::Gzip, args.gzip_levels.as_deref()),
    ];
    for (kind, list) in level_options {
        if list.is_some() && !codecs.contains(&kind) {
            bail!("--{kind}-levels was given but {kind} is not in --codecs");
        }
    }
    if args.aspnetcore_writer.is_some() && args.server != Some(Server::Aspnetcore) {
        bail!("--aspnetcore-writer is for --server aspnetcore: other servers write bodies their own way");
    }
    if let Some(server) = args.server {
        let writer = args.aspnetcore_writer.unwrap_or_default();
        return server_settings(server, writer, &codecs, &level_options);
    }
    let stream = ["stream".to_string()];
    let apis = apis(args.api.as_deref().unwrap_or(&stream), args.encoder)?;
    let stream = apis.contains(&Api::Stream);
    let mut settings = Vec::new();
    for kind in codecs {
        let mut implementations = crate::codec::implementations(kind);
        implementations.retain(|c| args.brotli_impl.includes(c.as_ref()));
        let list = level_options
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, list)| *list);
        // Every implementation of a codec shares its level range and defaults.
        let levels = levels_of(implementations[0].as_ref(), list)?;
        if stream {
            settings.extend(stream_settings(
                kind,
                implementations,
                &levels,
                args.encoder,
            )?);
        }
        for &api in apis.iter().filter(|&&a| a != Api::Stream) {
            settings.push(CodecSetting {
                codec: Box::new(ThroughApi::new(kind, api)),
                levels: levels.clone(),
            });
        }
    }

    Ok(settings)
}

/// The levels `list` names for `codec` (checked against its range), or its defaults.
fn levels_of(codec: &dyn crate::codec::Codec, list: Option<&str>) -> Result<Vec<i32>> {
    let kind = codec.kind();
    match list {
        None => Ok(codec.default_levels()),
        Some(text) => levels::checked_levels(
            text,
            &format!("--{kind}-levels"),
            kind.name(),
            codec.supported_levels(),
            &codec.label(),
        ),
    }
}

/// Why `server`'s own encoders cannot run in codecbench, and what measures them.
pub(super) fn no_profile(server: Server) -> &'static str {
    match server {
        Server::Express => "Node.js compresses with Chromium's zlib and a later C brotli, which do not run in codecbench; codecbench lab measures through Express",
        _ => "Caddy compresses with Go's libraries, which do not run in codecbench; codecbench lab measures through Caddy",
    }
}

/// The settings of `server`'s own encoders, for `codecs` at the levels asked for.
fn server_settings(
    server: Server,
    writer: AspnetcoreWriter,
    codecs: &[CodecKind],
    level_options: &[(CodecKind, Option<&str>)],
) -> Result<Vec<CodecSetting>> {
    if !server.has_profile() {
        bail!("--server {server}: {}", no_profile(server));
    }
    let mut settings = Vec::new();
    for &kind in codecs {
        // A codec the server does not send (Apache's zstd) is left out of its run.
        let Some(codec) = crate::codec::of_server(server, kind, writer) else {
            continue;
        };
        let list = level_options
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, list)| *list);
        let levels = levels_of(codec.as_ref(), list)?;
        settings.push(CodecSetting { codec, levels });
    }
    if settings.is_empty() {
        bail!("--server {server} sends none of the codecs in --codecs: httpd has no zstd module; measure brotli or gzip");
    }
    Ok(settings)
}

/// The stream API's settings of `kind`: each implementation with a fresh encoder, and
/// the reused encoder, as `encoder` asks.
fn stream_settings(
    kind: CodecKind,
    implementations: Vec<Box<dyn crate::codec::Codec>>,
    levels: &[i32],
    encoder: EncoderChoice,
) -> Result<Vec<CodecSetting>> {
    let mut settings = Vec::new();
    if encoder != EncoderChoice::Reused {
        for codec in implementations {
            settings.push(CodecSetting {
                codec,
                levels: levels.to_vec(),
            });
        }
    }
    if encoder != EncoderChoice::Fresh {
        match EncoderChoice::reused(kind) {
            Some(codec) => settings.push(CodecSetting {
                codec,
                levels: levels.to_vec(),
            }),
            None if encoder == EncoderChoice::Reused => bail!(
                "--encoder reused: {kind} encoders cannot be reset between responses; leave {kind} out of --codecs or use --encoder both"
            ),
            None => {}
        }
    }
    Ok(settings)
}

/// The APIs of `--api`, each once, in the order given; encoder reuse (`encoder`) needs
/// the stream API.
fn apis(texts: &[String], encoder: EncoderChoice) -> Result<Vec<Api>> {
    let mut apis = Vec::new();
    for text in texts {
        let api = Api::parse(text).map_err(|why| anyhow::anyhow!(why))?;
        if !apis.contains(&api) {
            apis.push(api);
        }
    }
    if !apis.contains(&Api::Stream) && encoder != EncoderChoice::Fresh {
        bail!(
            "--encoder {}: encoder reuse is measured on the stream API; add stream to --api",
            clap::ValueEnum::to_possible_value(&encoder)
                .map_or_else(String::new, |v| v.get_name().to_string())
        );
    }
    Ok(apis)
}
