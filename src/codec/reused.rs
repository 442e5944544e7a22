//! Encoders kept between responses and reset, as a server with a pool of compressors
//! would run them, beside the article's fresh encoder per response.
//!
//! - zstd: one `ZSTD_CCtx` per cell; each response starts a new frame on it
//!   (`ZSTD_CCtx_reset(session_only)`), keeping its tables.
//! - gzip: one zlib-rs `deflate` stream per cell, `deflateReset` between responses; the
//!   gzip header and trailer are written around it exactly as flate2's `GzEncoder` does.
//! - brotli: neither the C API nor the Rust port can reset an encoder
//!   (`BrotliEncoderState` has no reset call), so there is no reused brotli.
//!
//! Decompression is the same fresh decoder as the plain codec: pooling is a server-side
//! choice.

use std::cell::RefCell;
use std::io::{self, Write};

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

use super::{compress_counting_heap, levels_of, Codec, GzipZlibRs, Libzstd};

use crate::vocab::{CodecKind, Library, Variant};

/// libzstd with one context per cell, reset between responses.
pub(crate) struct LibzstdReused {
    context: RefCell<Option<(i32, zstd::zstd_safe::CCtx<'static>)>>,
}

impl LibzstdReused {
    /// No context yet; the first response creates it.
    pub(crate) fn new() -> Self {
        LibzstdReused {
            context: RefCell::new(None),
        }
    }
}

impl Default for LibzstdReused {
    fn default() -> Self {
        Self::new()
    }
}

impl Codec for LibzstdReused {
    fn kind(&self) -> CodecKind {
        CodecKind::Zstd
    }

    fn library(&self) -> Library {
        Library::Libzstd
    }

    fn variant(&self) -> Variant {
        Variant::Reused
    }

    fn version(&self) -> String {
        Libzstd.version()
    }

    levels_of!(Libzstd);

    /// The kept context's `ZSTD_sizeof_CCtx` (libzstd allocates it outside the Rust
    /// heap) plus the heap the call held beyond its output.
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        compress_counting_heap(|| {
            let output = self.compress(level, input)?;
            let context = self.context.borrow();
            let held = context.as_ref().map_or(0, |(_, c)| c.sizeof() as u64);
            Ok((output, held))
        })
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let mut slot = self.context.borrow_mut();
        if slot.as_ref().is_none_or(|(l, _)| *l != level) {
            *slot = Some((level, super::zstd::context_at(level)?));
        }
        let (_, context) = slot.as_mut().expect("set above");
        // with_context starts a new frame on the context: reset, parameters kept.
        let mut encoder = zstd::stream::Encoder::with_context(Vec::new(), context);
        encoder.write_all(input)?;
        encoder.finish()
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        Libzstd.decompress(compressed)
    }
}

/// gzip over one zlib-rs deflate stream per cell, reset between responses.
pub(crate) struct GzipReused {
    stream: RefCell<Option<(u32, Compress)>>,
}

impl GzipReused {
    /// No stream yet; the first response creates it.
    pub(crate) fn new() -> Self {
        GzipReused {
            stream: RefCell::new(None),
        }
    }
}

impl Default for GzipReused {
    fn default() -> Self {
        Self::new()
    }
}

/// flate2's gzip header: no name, comment or time; XFL 2 at the best level, 4 at the
/// fastest, else 0; OS 255 (unknown).
fn gzip_header(level: u32) -> [u8; 10] {
    let xfl = if level >= Compression::best().level() {
        2
    } else if level <= Compression::fast().level() {
        4
    } else {
        0
    };
    [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255]
}

impl Codec for GzipReused {
    fn kind(&self) -> CodecKind {
        CodecKind::Gzip
    }

    fn library(&self) -> Library {
        Library::ZlibRs
    }

    fn variant(&self) -> Variant {
        Variant::Reused
    }

    fn version(&self) -> String {
        GzipZlibRs.version()
    }

    levels_of!(GzipZlibRs);

    /// The stream is dropped first, outside the count, so that the measured call builds
    /// the one the cell then keeps: its heap and the call's, beyond the output.
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        *self.stream.borrow_mut() = None;
        compress_counting_heap(|| Ok((self.compress(level, input)?, 0)))
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let level = u32::try_from(level)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "negative gzip level"))?;
        let mut slot = self.stream.borrow_mut();
        match slot.as_mut() {
            Some((l, stream)) if *l == level => stream.reset(),
            _ => *slot = Some((level, Compress::new(Compression::new(level), false))),
        }
        let (_, stream) = slot.as_mut().expect("set above");
        let mut output = Vec::with_capacity(input.len() / 2 + 64);
        output.extend_from_slice(&gzip_header(level));
        let start_in = stream.total_in();
        // flate2's writer compresses into a 32 KiB buffer and copies it out; zlib-rs cuts
        // blocks where its output fills, so the same buffer size gives the same bytes.
        let mut chunk = Vec::with_capacity(32 * 1024);
        loop {
            chunk.clear();
            let consumed = (stream.total_in() - start_in) as usize;
            // As flate2's writer does: no flush while input remains, then finish. Finishing
            // with input still pending lets zlib-rs cut blocks differently.
            let flush = if consumed < input.len() {
                FlushCompress::None
            } else {
                FlushCompress::Finish
            };
            let status = stream
                .compress_vec(&input[consumed..], &mut chunk, flush)
                .map_err(io::Error::other)?;
            output.extend_from_slice(&chunk);
            if status == Status::StreamEnd {
                break;
            }
        }
        let mut crc = Crc::new();
        crc.update(input);
        output.extend_from_slice(&crc.sum().to_le_bytes());
        output.extend_from_slice(&crc.amount().to_le_bytes());
        Ok(output)
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        GzipZlibRs.decompress(compressed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payload::{generate, RngKind};

    #[test]
    fn reused_encoders_give_the_fresh_encoders_bytes_response_after_response() {
        let bodies = [
            generate(1000, 42, RngKind::Dotnet),
            generate(1, 42, RngKind::Dotnet),
            generate(50, 7, RngKind::Dotnet),
        ];
        let pairs: [(Box<dyn Codec>, Box<dyn Codec>); 2] = [
            (Box::new(LibzstdReused::new()), Box::new(Libzstd)),
            (Box::new(GzipReused::new()), Box::new(GzipZlibRs)),
        ];
        for (reused, fresh) in pairs {
            for level in [1, 6, 1] {
                for body in &bodies {
                    let a = reused.compress(level, body).unwrap();
                    let b = fresh.compress(level, body).unwrap();
                    let first_difference = a.iter().zip(&b).position(|(x, y)| x != y);
                    assert!(
                        a == b,
                        "{} level {level}, {}-byte body: {} vs {} bytes, first difference at {:?}",
                        reused.label(),
                        body.len(),
                        a.len(),
                        b.len(),
                        first_difference
                    );
                    assert_eq!(reused.decompress(&a).unwrap(), *body);
                }
            }
        }
    }
}
