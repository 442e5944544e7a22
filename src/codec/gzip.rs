//! gzip through flate2 on the zlib-rs backend, which reproduces zlib-ng's output.

use std::io::{self, Read, Write};
use std::ops::RangeInclusive;

use super::{locked_version, Codec, DotnetLevel};

use crate::vocab::{CodecKind, Library};

/// flate2's gzip encoder and decoder on zlib-rs, a pure-Rust zlib-ng. .NET has shipped
/// zlib-ng since .NET 9, so this gives .NET's sizes; classic zlib and miniz_oxide do not.
pub(crate) struct GzipZlibRs;

impl Codec for GzipZlibRs {
    fn kind(&self) -> CodecKind {
        CodecKind::Gzip
    }

    fn library(&self) -> Library {
        Library::ZlibRs
    }

    fn version(&self) -> String {
        locked_version!("CODECBENCH_ZLIB_RS_VERSION").to_string()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        0..=9
    }

    fn default_levels(&self) -> Vec<i32> {
        vec![1, 6, 9]
    }

    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel> {
        match level {
            0 => Some(DotnetLevel::NoCompression),
            1 => Some(DotnetLevel::Fastest),
            6 => Some(DotnetLevel::Optimal),
            9 => Some(DotnetLevel::SmallestSize),
            _ => None,
        }
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let level = u32::try_from(level)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "negative gzip level"))?;
        let mut encoder =
            flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
        encoder.write_all(input)?;
        encoder.finish()
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut decoder = flate2::read::GzDecoder::new(compressed);
        let mut output = Vec::new();
        decoder.read_to_end(&mut output)?;
        Ok(output)
    }
}
