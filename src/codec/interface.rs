//! What every codec adapter is: the [`Codec`] trait, the .NET level names it maps to,
//! and the helpers the adapters share.

use std::fmt;
use std::io;
use std::ops::RangeInclusive;

use crate::vocab::{CellId, CodecKind, Library, Variant};

/// An `InvalidInput` error for `why`, as the codecs report an out-of-range setting.
pub(crate) fn invalid_input(why: impl fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why.to_string())
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

    /// The trained dictionary this codec references, if it references one: what a worker
    /// process is sent to build the same codec.
    fn dictionary(&self) -> Option<&[u8]> {
        None
    }
}

/// Runs `compress`, which returns the output and the bytes its encoder holds outside the
/// Rust heap, and adds the most heap this thread held at once during it, beyond the
/// output's own buffer.
pub(crate) fn compress_counting_heap(
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
