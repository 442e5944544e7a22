//! Codecs: one trait, one adapter per codec implementation.
//!
//! Each adapter builds a fresh encoder or decoder on every call, because that is what the
//! response-compression middleware pays for every response; the runner times the whole
//! call.

mod brotli;
mod gzip;
mod zstd;

use std::fmt;
use std::io;
use std::ops::RangeInclusive;

pub use self::brotli::BrotliRust;
pub use self::gzip::GzipZlibRs;
pub use self::zstd::Libzstd;

/// The content codings the article compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum CodecKind {
    /// Zstandard (`Content-Encoding: zstd`).
    Zstd,
    /// Brotli (`br`), window 22 as .NET uses it.
    Brotli,
    /// gzip (`gzip`), a deflate stream in a gzip wrapper.
    Gzip,
}

impl CodecKind {
    /// All codecs, in ASP.NET Core 11's order of preference.
    pub const ALL: [CodecKind; 3] = [CodecKind::Zstd, CodecKind::Brotli, CodecKind::Gzip];

    /// The lower-case name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CodecKind::Zstd => "zstd",
            CodecKind::Brotli => "brotli",
            CodecKind::Gzip => "gzip",
        }
    }

    /// The adapter codecbench uses for this codec.
    pub fn codec(self) -> Box<dyn Codec> {
        match self {
            CodecKind::Zstd => Box::new(Libzstd),
            CodecKind::Brotli => Box::new(BrotliRust),
            CodecKind::Gzip => Box::new(GzipZlibRs),
        }
    }
}

impl fmt::Display for CodecKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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

    /// The library and its version, e.g. `libzstd 1.5.7`.
    fn implementation(&self) -> String;

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
}

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
mod tests {
    use super::*;

    /// A tiny JSON-like input, so the test runs fast even at the slowest levels.
    fn sample_input() -> Vec<u8> {
        crate::payload::generate(20, 1, crate::payload::RngKind::Dotnet)
    }

    #[test]
    fn every_default_level_round_trips() {
        let input = sample_input();
        for kind in CodecKind::ALL {
            let codec = kind.codec();
            for level in codec.default_levels() {
                assert!(codec.supported_levels().contains(&level));
                let compressed = codec.compress(level, &input).unwrap();
                assert!(compressed.len() < input.len(), "{kind} {level} compresses");
                assert_eq!(
                    codec.decompress(&compressed).unwrap(),
                    input,
                    "{kind} {level}"
                );
            }
        }
    }

    #[test]
    fn range_ends_round_trip() {
        let input = sample_input();
        for kind in CodecKind::ALL {
            let codec = kind.codec();
            let range = codec.supported_levels();
            for level in [*range.start(), *range.end()] {
                let compressed = codec.compress(level, &input).unwrap();
                assert_eq!(
                    codec.decompress(&compressed).unwrap(),
                    input,
                    "{kind} {level}"
                );
            }
        }
    }

    #[test]
    fn corrupt_input_is_an_error_not_a_panic() {
        for kind in CodecKind::ALL {
            let codec = kind.codec();
            let garbage = b"this is not a compressed stream at all, not even close";
            assert!(codec.decompress(garbage).is_err(), "{kind}");
        }
    }

    #[test]
    fn dotnet_names_follow_the_mapping_table() {
        use DotnetLevel::*;
        let names = |kind: CodecKind| {
            let codec = kind.codec();
            codec
                .supported_levels()
                .filter_map(|level| codec.dotnet_level(level).map(|name| (level, name)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(CodecKind::Zstd),
            vec![
                (::zstd::zstd_safe::min_c_level(), NoCompression),
                (1, Fastest),
                (3, Optimal),
                (22, SmallestSize)
            ]
        );
        assert_eq!(
            names(CodecKind::Brotli),
            vec![
                (0, NoCompression),
                (1, Fastest),
                (4, Optimal),
                (11, SmallestSize)
            ]
        );
        assert_eq!(
            names(CodecKind::Gzip),
            vec![
                (0, NoCompression),
                (1, Fastest),
                (6, Optimal),
                (9, SmallestSize)
            ]
        );
    }
}
