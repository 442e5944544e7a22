//! brotli, in two implementations that share .NET's settings: Google's C library (through
//! `brotlic`, in brotli_c.rs) and the `brotli` crate's Rust port (here).

use std::io::{self, Read, Write};
use std::ops::RangeInclusive;

use super::{
    brotli_c::{self, WINDOW_BITS},
    compress_counting_heap, invalid_input, locked_version, Codec, DotnetLevel,
};

use crate::vocab::{CodecKind, Library};

/// Size of the Rust port's internal staging buffers.
const BUFFER_SIZE: usize = 4096;

/// Which library does the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BrotliLibrary {
    /// Google's C library, as .NET, nginx and browsers run it.
    C,
    /// The `brotli` crate, a Rust port of the C library.
    RustPort,
}

/// A brotli encoder and decoder, built fresh for every call.
pub(crate) struct Brotli(pub BrotliLibrary);

impl Codec for Brotli {
    fn kind(&self) -> CodecKind {
        CodecKind::Brotli
    }

    fn library(&self) -> Library {
        match self.0 {
            BrotliLibrary::C => Library::Libbrotli,
            BrotliLibrary::RustPort => Library::BrotliRs,
        }
    }

    fn version(&self) -> String {
        match self.0 {
            BrotliLibrary::C => brotli_c::library_version(),
            BrotliLibrary::RustPort => locked_version!("CODECBENCH_BROTLI_VERSION").to_string(),
        }
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
        let quality = checked_quality(level)?;
        match self.0 {
            BrotliLibrary::C => brotli_c::compress(quality, input),
            BrotliLibrary::RustPort => compress_rust(quality, input),
        }
    }

    /// The C encoder gets an allocator that allocates on the Rust heap, so one heap count
    /// sees the C encoder's state and the Rust buffers alike.
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        match self.0 {
            BrotliLibrary::C => compress_counting_heap(|| {
                let (output, _) = brotli_c::compress_tracked(checked_quality(level)?, input)?;
                Ok((output, 0))
            }),
            BrotliLibrary::RustPort => {
                compress_counting_heap(|| Ok((self.compress(level, input)?, 0)))
            }
        }
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        match self.0 {
            BrotliLibrary::C => brotli_c::decompress(compressed),
            BrotliLibrary::RustPort => decompress_rust(compressed),
        }
    }
}

/// `level` as a brotli quality, 0 to 11.
pub(super) fn checked_quality(level: i32) -> io::Result<u8> {
    u8::try_from(level)
        .ok()
        .filter(|q| *q <= 11)
        .ok_or_else(|| invalid_input(format!("brotli quality {level} is not in 0..=11")))
}

fn compress_rust(quality: u8, input: &[u8]) -> io::Result<Vec<u8>> {
    let mut encoder =
        ::brotli::CompressorWriter::new(Vec::new(), BUFFER_SIZE, u32::from(quality), WINDOW_BITS);
    encoder.write_all(input)?;
    // into_inner() finishes the stream. A flush() first would emit an extra empty
    // metadata block and break byte-equality with C brotli.
    Ok(encoder.into_inner())
}

fn decompress_rust(compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut decoder = ::brotli::Decompressor::new(compressed, BUFFER_SIZE);
    let mut output = Vec::new();
    decoder.read_to_end(&mut output)?;
    Ok(output)
}
