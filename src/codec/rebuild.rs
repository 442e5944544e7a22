//! A codec built again from what names it: its codec, library and variant (a cell's
//! identity less its level), and for a dictionary variant the dictionary's bytes. A worker
//! process builds its cells this way from the spec it is sent (see
//! [`crate::bench::protocol`]), never from the user's options.

use super::api::{Api, ThroughApi};
use super::interface::Codec;
use super::registry::{all_implementations, EncoderChoice};
use super::servers::of_server;
use super::zstd_dict::ZstdDict;
use crate::vocab::{AspnetcoreWriter, CodecKind, Library, Server, Variant};

/// The codec `codec` × `library` × `variant`, with `dictionary` for a dictionary
/// variant; why not, when nothing here builds that codec.
pub(crate) fn codec_named(
    codec: CodecKind,
    library: Library,
    variant: Variant,
    dictionary: Option<Vec<u8>>,
) -> Result<Box<dyn Codec>, String> {
    let built: Option<Box<dyn Codec>> = match variant {
        Variant::Fresh => all_implementations()
            .into_iter()
            .find(|c| c.kind() == codec && c.library() == library),
        Variant::Reused => EncoderChoice::reused(codec),
        Variant::OneShot => Some(Box::new(ThroughApi::new(codec, Api::OneShot))),
        Variant::Flushed { chunk } => {
            Some(Box::new(ThroughApi::new(codec, Api::Flushed { chunk })))
        }
        Variant::Nginx => of_server(Server::Nginx, codec, AspnetcoreWriter::default()),
        Variant::TowerHttp => of_server(Server::TowerHttp, codec, AspnetcoreWriter::default()),
        Variant::Apache => of_server(Server::Apache, codec, AspnetcoreWriter::default()),
        // A server's own process measured it; nothing here runs as it.
        Variant::Served { .. } => None,
        Variant::Aspnetcore { writer } => of_server(Server::Aspnetcore, codec, writer),
        Variant::Dictionary { kib } => {
            let bytes =
                dictionary.ok_or_else(|| format!("{codec} dict {kib} KiB: no dictionary sent"))?;
            Some(Box::new(
                ZstdDict::of_bytes(bytes, kib).map_err(|e| e.to_string())?,
            ))
        }
    };
    let named =
        |c: &dyn Codec| c.kind() == codec && c.library() == library && c.variant() == variant;
    match built {
        Some(c) if named(c.as_ref()) => Ok(c),
        _ => Err(format!(
            "no {codec} codec of {library} with the {variant} variant here"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_a_run_builds_is_built_again_from_its_name() {
        let mut codecs = all_implementations();
        codecs
            .extend([CodecKind::Zstd, CodecKind::Gzip].map(|k| EncoderChoice::reused(k).unwrap()));
        for kind in CodecKind::ALL {
            codecs.push(Box::new(ThroughApi::new(kind, Api::OneShot)));
            codecs.push(Box::new(ThroughApi::new(
                kind,
                Api::Flushed { chunk: 16_384 },
            )));
            for server in [
                Server::Nginx,
                Server::TowerHttp,
                Server::Aspnetcore,
                Server::Apache,
            ] {
                codecs.extend(of_server(server, kind, AspnetcoreWriter::default()));
            }
        }
        let samples =
            crate::codec::zstd_dict::training_samples(50, crate::payload::RngKind::Dotnet);
        codecs.push(Box::new(ZstdDict::train(&samples, 4).unwrap()));
        let input = br#"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#;
        for codec in &codecs {
            let again = codec_named(
                codec.kind(),
                codec.library(),
                codec.variant(),
                codec.dictionary().map(<[u8]>::to_vec),
            )
            .unwrap();
            assert_eq!(again.id(3), codec.id(3));
            assert_eq!(
                again.compress(3, input).unwrap(),
                codec.compress(3, input).unwrap(),
                "{}",
                codec.label()
            );
        }
    }

    #[test]
    fn what_nothing_builds_is_refused_with_its_name() {
        let refused = codec_named(CodecKind::Brotli, Library::Libbrotli, Variant::Reused, None);
        assert_eq!(
            refused.err().unwrap(),
            "no brotli codec of libbrotli with the reused variant here"
        );
        let no_bytes = codec_named(
            CodecKind::Zstd,
            Library::Libzstd,
            Variant::Dictionary { kib: 4 },
            None,
        );
        assert_eq!(
            no_bytes.err().unwrap(),
            "zstd dict 4 KiB: no dictionary sent"
        );
    }
}
