//! Which implementations codecbench has of each codec, which one a server runs, and
//! the choices `run` offers between them.

use std::io;
use std::ops::RangeInclusive;

use super::brotli::{Brotli, BrotliLibrary};
use super::gzip::GzipZlibRs;
use super::interface::{Codec, DotnetLevel};
use super::reused;
use super::zstd::Libzstd;
use crate::vocab::{CodecKind, Library, Variant};

/// Every implementation codecbench has of `kind`, the one servers run first.
pub(crate) fn implementations(kind: CodecKind) -> Vec<Box<dyn Codec>> {
    match kind {
        CodecKind::Zstd => vec![Box::new(Libzstd)],
        CodecKind::Brotli => vec![
            Box::new(Brotli(BrotliLibrary::C)),
            Box::new(Brotli(BrotliLibrary::RustPort)),
        ],
        CodecKind::Gzip => vec![Box::new(GzipZlibRs)],
    }
}

/// The implementation of `kind` servers run: the first codecbench has of it.
pub fn server_codec(kind: CodecKind) -> Box<dyn Codec> {
    implementations(kind).remove(0)
}

/// Every implementation of every codec.
pub(crate) fn all_implementations() -> Vec<Box<dyn Codec>> {
    CodecKind::ALL
        .into_iter()
        .flat_map(implementations)
        .collect()
}

/// Whether each response gets a fresh encoder, a reused one, or both are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EncoderChoice {
    /// A new encoder per response: the article's method, and what ASP.NET Core does.
    Fresh,
    /// One encoder per cell, reset between responses, where the library can reset one
    /// (zstd and gzip; brotli cannot).
    Reused,
    /// Both, the reused right after the fresh.
    Both,
}

impl EncoderChoice {
    /// The reused-encoder implementation of `kind`, if the library can reset one.
    pub(crate) fn reused(kind: CodecKind) -> Option<Box<dyn Codec>> {
        match kind {
            CodecKind::Zstd => Some(Box::new(reused::LibzstdReused::new())),
            CodecKind::Gzip => Some(Box::new(reused::GzipReused::new())),
            CodecKind::Brotli => None,
        }
    }
}

/// Which brotli implementation(s) `run` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BrotliImpl {
    /// The `brotli` crate, a Rust port.
    Rust,
    /// Google's C library through `brotlic`, as .NET, nginx and browsers run it.
    C,
    /// Both, C first.
    Both,
}

impl BrotliImpl {
    /// Whether `codec` is one of the chosen implementations; codecs other than brotli
    /// always are.
    pub(crate) fn includes(self, codec: &dyn Codec) -> bool {
        let is_rust_port = codec.library() == Library::BrotliRs;
        match (codec.kind(), self) {
            (CodecKind::Brotli, BrotliImpl::Rust) => is_rust_port,
            (CodecKind::Brotli, BrotliImpl::C) => !is_rust_port,
            _ => true,
        }
    }
}

/// A test aid: `inner` with a decoder that flips the first bit of what it returns, so
/// every round trip fails. `CODECBENCH_TEST_CORRUPT=CODEC` puts it in front of that codec,
/// to prove end to end that a wrong figure never reaches a report as valid.
pub(crate) struct Corrupting(pub Box<dyn Codec>);

impl Codec for Corrupting {
    fn kind(&self) -> CodecKind {
        self.0.kind()
    }

    fn library(&self) -> Library {
        self.0.library()
    }

    fn variant(&self) -> Variant {
        self.0.variant()
    }

    fn version(&self) -> String {
        self.0.version()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        self.0.supported_levels()
    }

    fn default_levels(&self) -> Vec<i32> {
        self.0.default_levels()
    }

    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel> {
        self.0.dotnet_level(level)
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        self.0.compress(level, input)
    }

    fn dictionary(&self) -> Option<&[u8]> {
        self.0.dictionary()
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut output = self.0.decompress(compressed)?;
        if let Some(first) = output.first_mut() {
            *first ^= 1;
        }
        Ok(output)
    }
}
