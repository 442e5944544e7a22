//! The other two ways a server hands a body to an encoder, beside the stream of unknown
//! length every other adapter uses:
//!
//! - **one-shot**: the whole body in one call with its size known, as lzbench and
//!   `zstd -b` measure (libzstd's `ZSTD_compress2` through `zstd::bulk`, which writes the
//!   content size in the frame header; C brotli's `BrotliEncoderCompress`; one deflate
//!   call with `Z_FINISH`), and decompression in one call into a buffer of the known size;
//! - **flushed**: a stream written in pieces of a fixed size with a flush after each, as a
//!   response streamed while it is produced (`ZSTD_e_flush`, `BROTLI_OPERATION_FLUSH`,
//!   `Z_SYNC_FLUSH`), which costs ratio.
//!
//! Both use the libraries servers link: libzstd, C brotli, and zlib-rs.

use std::io::{self, Write};
use std::ops::RangeInclusive;

use super::{brotli_c, invalid_input, Codec, DotnetLevel};

use crate::vocab::{CodecKind, Library, Variant};

/// How a server hands the body to the encoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    /// A stream of unknown length, written at once: ASP.NET Core's middleware, and the
    /// article's method.
    Stream,
    /// One call with the size known.
    OneShot,
    /// A stream written `chunk` bytes at a time, flushed after each.
    Flushed {
        /// Bytes per piece.
        chunk: u32,
    },
    /// A stream fed a serialized JSON body as ASP.NET Core's middleware feeds it
    /// (`--server aspnetcore`; see [`super::aspnetcore`]).
    Aspnetcore {
        /// The endpoint style, which decides the writes and flushes.
        writer: crate::vocab::AspnetcoreWriter,
    },
}

impl Api {
    /// Parses `stream`, `oneshot` or `flush:SIZE`, SIZE in bytes or with `KiB`/`MiB`.
    pub(crate) fn parse(text: &str) -> Result<Api, String> {
        match text.trim() {
            "stream" => Ok(Api::Stream),
            "oneshot" | "one-shot" => Ok(Api::OneShot),
            other => {
                let size = other.strip_prefix("flush:").ok_or_else(|| {
                    format!("--api '{text}': the APIs are stream, oneshot and flush:SIZE")
                })?;
                let chunk = parse_size(size)
                    .filter(|&c| (64..=64 * 1024 * 1024).contains(&c))
                    .ok_or_else(|| {
                        format!("--api '{text}': SIZE is 64 bytes to 64 MiB, e.g. flush:16KiB")
                    })?;
                Ok(Api::Flushed { chunk })
            }
        }
    }
}

/// A flush size: [`crate::format::parse_bytes`] within `u32`.
fn parse_size(text: &str) -> Option<u32> {
    u32::try_from(crate::format::parse_bytes(text)?).ok()
}

/// The server library's adapter for `kind` handed its body through `api` (not
/// [`Api::Stream`], whose adapters are the codecs' own).
pub(crate) struct ThroughApi {
    kind: CodecKind,
    api: Api,
    /// The stream adapter, for the level range, defaults and version.
    stream: Box<dyn Codec>,
    /// The last body's writes and flushes, for [`Api::Aspnetcore`].
    plans: super::aspnetcore::PlanMemo,
}

impl ThroughApi {
    /// `kind` through `api`.
    pub(crate) fn new(kind: CodecKind, api: Api) -> Self {
        ThroughApi {
            kind,
            api,
            stream: super::server_codec(kind),
            plans: Default::default(),
        }
    }
}

impl Codec for ThroughApi {
    fn kind(&self) -> CodecKind {
        self.kind
    }

    fn library(&self) -> Library {
        self.stream.library()
    }

    fn variant(&self) -> Variant {
        match self.api {
            Api::Stream => Variant::Fresh,
            Api::OneShot => Variant::OneShot,
            Api::Flushed { chunk } => Variant::Flushed { chunk },
            Api::Aspnetcore { writer } => Variant::Aspnetcore { writer },
        }
    }

    fn version(&self) -> String {
        self.stream.version()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        self.stream.supported_levels()
    }

    fn default_levels(&self) -> Vec<i32> {
        self.stream.default_levels()
    }

    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel> {
        self.stream.dotnet_level(level)
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        match self.api {
            Api::Stream => self.stream.compress(level, input),
            Api::OneShot => one_shot(self.kind, level, input),
            Api::Flushed { chunk } => flushed(self.kind, level, input, chunk as usize),
            Api::Aspnetcore { writer } => self.plans.compress(self.kind, level, input, writer),
        }
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        self.stream.decompress(compressed)
    }

    fn decompress_known(&self, compressed: &[u8], size: usize) -> io::Result<Vec<u8>> {
        match self.api {
            Api::OneShot => one_shot_decompress(self.kind, compressed, size),
            Api::Stream | Api::Flushed { .. } | Api::Aspnetcore { .. } => {
                self.stream.decompress(compressed)
            }
        }
    }
}

fn quality(level: i32) -> io::Result<u8> {
    u8::try_from(level).map_err(invalid_input)
}

fn gzip_level(level: i32) -> io::Result<flate2::Compression> {
    Ok(flate2::Compression::new(
        u32::try_from(level).map_err(invalid_input)?,
    ))
}

/// The whole body in one call, its size known.
fn one_shot(kind: CodecKind, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
    match kind {
        CodecKind::Zstd => ::zstd::bulk::compress(input, level),
        CodecKind::Brotli => brotli_c::compress_one_shot(quality(level)?, input),
        CodecKind::Gzip => {
            // windowBits 15 with the gzip wrapper, as deflateInit2(…, 31, …).
            let mut deflate = flate2::Compress::new_gzip(gzip_level(level)?, 15);
            let mut output = Vec::with_capacity(input.len() + input.len() / 1000 + 64);
            loop {
                let before = deflate.total_in() as usize;
                let status = deflate
                    .compress_vec(&input[before..], &mut output, flate2::FlushCompress::Finish)
                    .map_err(io::Error::other)?;
                if status == flate2::Status::StreamEnd {
                    return Ok(output);
                }
                // The bound was short (incompressible input): give it room and go on.
                output.reserve(output.capacity().max(1024));
            }
        }
    }
}

/// One call into a buffer of the known size.
fn one_shot_decompress(kind: CodecKind, compressed: &[u8], size: usize) -> io::Result<Vec<u8>> {
    match kind {
        CodecKind::Zstd => ::zstd::bulk::decompress(compressed, size),
        CodecKind::Brotli => brotli_c::decompress_one_shot(compressed, size),
        CodecKind::Gzip => {
            let mut inflate = flate2::Decompress::new_gzip(15);
            let mut output = Vec::with_capacity(size);
            let status = inflate
                .decompress_vec(compressed, &mut output, flate2::FlushDecompress::Finish)
                .map_err(io::Error::other)?;
            if status != flate2::Status::StreamEnd {
                return Err(io::Error::other("gzip body longer than its known size"));
            }
            Ok(output)
        }
    }
}

/// A stream written `chunk` bytes at a time, flushed after each piece.
fn flushed(kind: CodecKind, level: i32, input: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
    match kind {
        CodecKind::Zstd => {
            let mut encoder = ::zstd::stream::Encoder::new(Vec::new(), level)?;
            for piece in input.chunks(chunk) {
                encoder.write_all(piece)?;
                encoder.flush()?;
            }
            encoder.finish()
        }
        CodecKind::Brotli => brotli_c::compress_flushed(quality(level)?, input, chunk),
        CodecKind::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), gzip_level(level)?);
            for piece in input.chunks(chunk) {
                encoder.write_all(piece)?;
                encoder.flush()?;
            }
            encoder.finish()
        }
    }
}

/// Reads a whole stream; for tests of what the one-shot calls write.
#[cfg(test)]
fn read_all(mut reader: impl std::io::Read) -> Vec<u8> {
    let mut out = Vec::new();
    reader.read_to_end(&mut out).unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apis_parse_with_sizes_in_bytes_or_binary_units() {
        assert_eq!(Api::parse("stream"), Ok(Api::Stream));
        assert_eq!(Api::parse("oneshot"), Ok(Api::OneShot));
        assert_eq!(Api::parse("flush:16KiB"), Ok(Api::Flushed { chunk: 16384 }));
        assert_eq!(Api::parse("flush:4096"), Ok(Api::Flushed { chunk: 4096 }));
        assert_eq!(
            Api::parse("flush:1MiB"),
            Ok(Api::Flushed { chunk: 1 << 20 })
        );
        assert!(Api::parse("flush:0").is_err());
        assert!(Api::parse("flush:12parsecs").is_err());
        assert!(Api::parse("batch")
            .unwrap_err()
            .contains("stream, oneshot and flush:SIZE"));
    }

    #[test]
    fn each_api_round_trips_every_codec() {
        let input = crate::payload::generate(30, 42, crate::payload::RngKind::Dotnet);
        for kind in CodecKind::ALL {
            for api in [Api::OneShot, Api::Flushed { chunk: 1024 }] {
                let codec = ThroughApi::new(kind, api);
                let level = if kind == CodecKind::Gzip { 6 } else { 3 };
                let compressed = codec.compress(level, &input).unwrap();
                let known = codec.decompress_known(&compressed, input.len()).unwrap();
                assert_eq!(known, input, "{kind} {api:?}");
                // Any client's stream decoder reads it too.
                assert_eq!(codec.decompress(&compressed).unwrap(), input);
            }
        }
    }

    #[test]
    fn one_shot_gzip_is_a_gzip_member() {
        let input = b"a response body, a response body, a response body".repeat(20);
        let compressed = one_shot(CodecKind::Gzip, 6, &input).unwrap();
        assert_eq!(&compressed[..3], &[0x1f, 0x8b, 8]);
        assert_eq!(
            read_all(flate2::read::GzDecoder::new(&compressed[..])),
            input
        );
    }
}
