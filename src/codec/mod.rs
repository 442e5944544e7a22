//! Codecs: one trait, one adapter per codec implementation.
//!
//! Each adapter builds a fresh encoder or decoder on every call, because that is what the
//! response-compression middleware pays for every response; the runner times the whole
//! call.

pub(crate) mod api;
pub(crate) mod aspnetcore;
pub(crate) mod bounded;
mod brotli;
pub(crate) mod brotli_c;
mod gzip;
pub(crate) mod nginx;
pub(crate) mod reused;
pub(crate) mod tower_http;
pub(crate) mod zlib;
mod zstd;
pub(crate) mod zstd_dict;

use std::fmt;
use std::io;
use std::ops::RangeInclusive;

pub(crate) use self::brotli::{Brotli, BrotliLibrary};
pub(crate) use self::gzip::GzipZlibRs;
pub(crate) use self::zstd::Libzstd;
use crate::vocab::{CellId, CodecKind, Library, Variant};

/// An `InvalidInput` error for `why`, as the codecs report an out-of-range setting.
pub(crate) fn invalid_input(why: impl fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why.to_string())
}

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

/// `server`'s own encoder of `kind`, where it runs in codecbench; `None` for Caddy's,
/// which is Go's. `writer` is how an ASP.NET Core endpoint writes its JSON.
pub(crate) fn of_server(
    server: crate::vocab::Server,
    kind: CodecKind,
    writer: crate::vocab::AspnetcoreWriter,
) -> Option<Box<dyn Codec>> {
    use crate::vocab::Server;
    Some(match (server, kind) {
        (Server::Aspnetcore, kind) => {
            Box::new(api::ThroughApi::new(kind, api::Api::Aspnetcore { writer }))
        }
        (Server::Nginx, CodecKind::Zstd) => Box::new(Libzstd),
        (Server::Nginx, CodecKind::Brotli) => Box::new(nginx::NginxBrotli),
        (Server::Nginx, CodecKind::Gzip) => Box::new(nginx::NginxGzip),
        (Server::TowerHttp, kind) => Box::new(tower_http::TowerHttp(kind)),
        (Server::Caddy, _) => return None,
    })
}

/// The implementation of `kind` servers run: the first of [`implementations`].
pub fn server_codec(kind: CodecKind) -> Box<dyn Codec> {
    implementations(kind).remove(0)
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

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut output = self.0.decompress(compressed)?;
        if let Some(first) = output.first_mut() {
            *first ^= 1;
        }
        Ok(output)
    }
}

/// Every implementation of every codec.
pub(crate) fn all_implementations() -> Vec<Box<dyn Codec>> {
    CodecKind::ALL
        .into_iter()
        .flat_map(implementations)
        .collect()
}

/// .NET's `System.IO.Compression.CompressionLevel` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotnetLevel {
    /// `CompressionLevel.NoCompression`.
    NoCompression,
    /// `CompressionLevel.Fastest`: the Brotli and Gzip providers' default.
    Fastest,
    /// `CompressionLevel.Optimal`.
    Optimal,
    /// `CompressionLevel.SmallestSize`.
    SmallestSize,
}

impl DotnetLevel {
    /// The name as .NET spells it.
    pub fn name(self) -> &'static str {
        match self {
            DotnetLevel::NoCompression => "NoCompression",
            DotnetLevel::Fastest => "Fastest",
            DotnetLevel::Optimal => "Optimal",
            DotnetLevel::SmallestSize => "SmallestSize",
        }
    }
}

/// One codec implementation, e.g. libzstd through the `zstd` crate.
pub trait Codec {
    /// Which content coding this implements.
    fn kind(&self) -> CodecKind;

    /// The library, without its version.
    fn library(&self) -> Library;

    /// How each response's encoder comes to be; fresh unless the adapter says otherwise.
    fn variant(&self) -> Variant {
        Variant::Fresh
    }

    /// The library's version, e.g. `1.5.7`.
    fn version(&self) -> String;

    /// What a cell of this codec at `level` measures.
    fn id(&self, level: i32) -> CellId {
        CellId {
            codec: self.kind(),
            library: self.library(),
            variant: self.variant(),
            level,
        }
    }

    /// For progress lines and errors: `libzstd 1.5.7`, or `libzstd 1.5.7 reused`.
    fn label(&self) -> String {
        match self.variant() {
            Variant::Fresh => format!("{} {}", self.library(), self.version()),
            variant => format!("{} {} {variant}", self.library(), self.version()),
        }
    }

    /// Decompresses a body whose uncompressed `size` is known; the stream decoder unless
    /// the adapter has a one-shot call that needs the size.
    fn decompress_known(&self, compressed: &[u8], size: usize) -> io::Result<Vec<u8>> {
        let _ = size;
        self.decompress(compressed)
    }

    /// Every level the library accepts.
    fn supported_levels(&self) -> RangeInclusive<i32>;

    /// The levels `run` measures when the user names none.
    fn default_levels(&self) -> Vec<i32>;

    /// The .NET `CompressionLevel` that maps to `level`, if one does.
    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel>;

    /// Compresses `input` with a freshly built encoder into a new in-memory buffer.
    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>>;

    /// Decompresses `compressed` with a freshly built decoder into a new buffer.
    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>>;

    /// Compresses as [`Codec::compress`] does, byte for byte, and also reports all the
    /// memory one response's encoder held, in bytes, where that can be measured.
    ///
    /// One definition for every library and variant: the state the encoder keeps
    /// between responses (a reused context, a dictionary it references), plus the most
    /// heap the call held at once beyond its output, plus what a C library allocated
    /// outside the Rust heap (its own `sizeof`). By default: the heap alone, as counted
    /// by [`crate::process::memory::CountingAllocator`].
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        compress_counting_heap(|| Ok((self.compress(level, input)?, 0)))
    }
}

/// Runs `compress`, which returns the output and the bytes its encoder holds outside the
/// Rust heap, and adds the most heap this thread held at once during it, beyond the
/// output's own buffer.
fn compress_counting_heap(
    compress: impl FnOnce() -> io::Result<(Vec<u8>, u64)>,
) -> io::Result<(Vec<u8>, Option<u64>)> {
    let (result, peak) = crate::process::memory::peak_during(compress);
    let (output, outside_heap) = result?;
    let encoder = peak.map(|peak| peak.saturating_sub(output.capacity() as u64) + outside_heap);
    Ok((output, encoder))
}

/// The level methods of a variant of the codec `$base` (a dictionary, a reused encoder):
/// the same range, defaults and .NET names.
macro_rules! levels_of {
    ($base:expr) => {
        fn supported_levels(&self) -> ::std::ops::RangeInclusive<i32> {
            $base.supported_levels()
        }

        fn default_levels(&self) -> Vec<i32> {
            $base.default_levels()
        }

        fn dotnet_level(&self, level: i32) -> Option<$crate::codec::DotnetLevel> {
            $base.dotnet_level(level)
        }
    };
}
pub(crate) use levels_of;

/// The version of a dependency as Cargo.lock pins it, recorded by build.rs.
macro_rules! locked_version {
    ($env:literal) => {
        match option_env!($env) {
            Some(version) => version,
            None => "unknown",
        }
    };
}
pub(crate) use locked_version;

#[cfg(test)]
mod tests;
