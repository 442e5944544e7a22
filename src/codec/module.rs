//! A web server's compression module as a codec: Google's C brotli or madler zlib, fed
//! as the module feeds them, with the window and memory its configuration gives a body.
//! `nginx.rs` and `apache.rs` hold each server's parameters.

use std::io;
use std::ops::RangeInclusive;

use super::zlib::{self, Deflate};
use super::{brotli_c, Codec, DotnetLevel};
use crate::vocab::{CodecKind, Library, Variant};

/// C brotli as a server's module runs it.
#[derive(Clone, Copy)]
pub(crate) struct ModuleBrotli {
    /// The server's variant.
    pub(super) variant: Variant,
    /// The window, in bits, for a body of this many bytes.
    pub(super) window: fn(usize) -> u8,
    /// The pieces the body reaches the encoder in, each without a flush.
    pub(super) piece: usize,
}

/// madler zlib as a server's gzip module runs it.
#[derive(Clone, Copy)]
pub(crate) struct ModuleGzip {
    /// The server's variant.
    pub(super) variant: Variant,
    /// deflate's parameters at a level, for a body of this many bytes.
    pub(super) deflate: fn(i32, usize) -> Deflate,
    /// The pieces the body reaches the encoder in, each without a flush.
    pub(super) piece: usize,
}

impl Codec for ModuleBrotli {
    fn kind(&self) -> CodecKind {
        CodecKind::Brotli
    }

    fn library(&self) -> Library {
        Library::Libbrotli
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn version(&self) -> String {
        brotli_c::library_version()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        0..=11
    }

    fn default_levels(&self) -> Vec<i32> {
        vec![1, 5, 11]
    }

    fn dotnet_level(&self, _level: i32) -> Option<DotnetLevel> {
        None
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let quality = super::brotli::checked_quality(level)?;
        let window = (self.window)(input.len());
        brotli_c::compress_in_pieces(quality, window, input, self.piece, false)
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        brotli_c::decompress(compressed)
    }
}

impl Codec for ModuleGzip {
    fn kind(&self) -> CodecKind {
        CodecKind::Gzip
    }

    fn library(&self) -> Library {
        Library::Zlib
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn version(&self) -> String {
        zlib::version()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        1..=9
    }

    fn default_levels(&self) -> Vec<i32> {
        vec![1, 6, 9]
    }

    fn dotnet_level(&self, _level: i32) -> Option<DotnetLevel> {
        None
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        zlib::gzip((self.deflate)(level, input.len()), input, self.piece)
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        zlib::gunzip(compressed)
    }
}
