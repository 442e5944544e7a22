//! zstd through the `zstd` crate, which bundles libzstd.

use std::io::{self, Read, Write};
use std::ops::RangeInclusive;

use super::{compress_counting_heap, Codec, DotnetLevel};

use crate::vocab::{CodecKind, Library};

/// libzstd (bundled by the `zstd` crate), driven through its streaming API.
pub(crate) struct Libzstd;

impl Codec for Libzstd {
    fn kind(&self) -> CodecKind {
        CodecKind::Zstd
    }

    fn library(&self) -> Library {
        Library::Libzstd
    }

    fn version(&self) -> String {
        ::zstd::zstd_safe::version_string().to_string()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        ::zstd::zstd_safe::min_c_level()..=::zstd::zstd_safe::max_c_level()
    }

    fn default_levels(&self) -> Vec<i32> {
        (-5..=-1).chain(1..=19).collect()
    }

    fn dotnet_level(&self, level: i32) -> Option<DotnetLevel> {
        // .NET's ZstandardEncoder maps NoCompression to ZSTD_minCLevel(), which still
        // compresses, and SmallestSize to the maximum, 22.
        match level {
            1 => Some(DotnetLevel::Fastest),
            3 => Some(DotnetLevel::Optimal),
            22 => Some(DotnetLevel::SmallestSize),
            _ if level == ::zstd::zstd_safe::min_c_level() => Some(DotnetLevel::NoCompression),
            _ => None,
        }
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        // The streaming encoder gets no pledged size, like a middleware that does not know
        // the body length: the frame header then has no content size, which matches the
        // article's ZstdSharp sizes (3 bytes fewer than a one-shot call).
        let mut encoder = ::zstd::stream::Encoder::new(Vec::new(), level)?;
        encoder.write_all(input)?;
        encoder.finish()
    }

    /// libzstd's own `ZSTD_sizeof_CCtx` of a context that has just compressed this input
    /// the same way (its allocations bypass the Rust heap), plus the Rust heap the stream
    /// held beyond the output.
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        compress_counting_heap(|| {
            let mut context = context_at(level)?;
            let mut encoder = ::zstd::stream::Encoder::with_context(Vec::new(), &mut context);
            encoder.write_all(input)?;
            let output = encoder.finish()?;
            Ok((output, context.sizeof() as u64))
        })
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut decoder = ::zstd::stream::read::Decoder::with_buffer(compressed)?;
        let mut output = Vec::new();
        decoder.read_to_end(&mut output)?;
        Ok(output)
    }
}

/// A fresh libzstd context set to `level`.
pub(super) fn context_at(level: i32) -> io::Result<::zstd::zstd_safe::CCtx<'static>> {
    let mut context = ::zstd::zstd_safe::CCtx::create();
    context
        .set_parameter(::zstd::zstd_safe::CParameter::CompressionLevel(level))
        .map_err(zstd_error)?;
    Ok(context)
}

/// libzstd's error code as an I/O error with its name.
pub(super) fn zstd_error(code: ::zstd::zstd_safe::ErrorCode) -> io::Error {
    io::Error::other(::zstd::zstd_safe::get_error_name(code))
}
