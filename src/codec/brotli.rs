//! brotli through the `brotli` crate, a Rust port of Google's C library.

use std::io::{self, Read, Write};
use std::ops::RangeInclusive;

use super::{locked_version, Codec, CodecKind, DotnetLevel};

/// .NET's BrotliEncoder uses a 22-bit window (4 MiB) for every quality.
const WINDOW_BITS: u32 = 22;
/// Size of the encoder's and decoder's internal staging buffers.
const BUFFER_SIZE: usize = 4096;

/// The `brotli` crate's pure-Rust encoder and decoder.
pub struct BrotliRust;

impl Codec for BrotliRust {
    fn kind(&self) -> CodecKind {
        CodecKind::Brotli
    }

    fn implementation(&self) -> String {
        format!("brotli-rs {}", locked_version!("CODECBENCH_BROTLI_VERSION"))
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        0..=11
    }

    fn default_levels(&self) -> Vec<i32> {
        vec![1, 4, 11]
    }

    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel> {
        match level {
            0 => Some(DotnetLevel::NoCompression),
            1 => Some(DotnetLevel::Fastest),
            4 => Some(DotnetLevel::Optimal),
            11 => Some(DotnetLevel::SmallestSize),
            _ => None,
        }
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let quality = u32::try_from(level)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "negative brotli quality"))?;
        let mut encoder =
            ::brotli::CompressorWriter::new(Vec::new(), BUFFER_SIZE, quality, WINDOW_BITS);
        encoder.write_all(input)?;
        // into_inner() finishes the stream. A flush() first would emit an extra empty
        // metadata block and break byte-equality with C brotli.
        Ok(encoder.into_inner())
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut decoder = ::brotli::Decompressor::new(compressed, BUFFER_SIZE);
        let mut output = Vec::new();
        decoder.read_to_end(&mut output)?;
        Ok(output)
    }
}
