//! The encoders as ASP.NET Core 11's response-compression middleware feeds them a JSON
//! body, so that `run --server aspnetcore` predicts what Kestrel sends rather than the
//! article's one write to a `MemoryStream`.
//!
//! The path, traced in merged upstream source (commits in `docs/servers.md`):
//!
//! - Since .NET 9, minimal APIs (`WriteAsJsonAsync`) and MVC's
//!   `SystemTextJsonOutputFormatter` both serialize into `HttpResponse.BodyWriter`, a
//!   `StreamPipeWriter` over the middleware's stream. The serializer hands its output on
//!   past 14,745 bytes and at the end; each hand-over writes the pipe's 4 KiB segments
//!   one by one, then flushes ([`super::stj_writer`] finds them).
//! - .NET 8's MVC formatter serialized into `Response.Body` through a 16 KiB buffer:
//!   one write per 14.7 KB piece and one flush at the end (`mvc-net8`).
//! - `ResponseCompressionBody` passes each write and flush to the compression stream,
//!   and disposes it at the end of the response.
//! - A write is `BROTLI_OPERATION_PROCESS`, `ZSTD_e_continue` or `Z_NO_FLUSH`; a flush
//!   is `BROTLI_OPERATION_FLUSH`, `ZSTD_e_flush` or `Z_SYNC_FLUSH`; disposing finishes.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::brotli_c;
use super::stj_writer::flushed_segments;

use crate::vocab::AspnetcoreWriter;
use crate::vocab::CodecKind;

/// One call the middleware makes on the compression stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StreamCall {
    /// `Write` of these bytes of the body.
    Write(Range<usize>),
    /// `Flush`.
    Flush,
}

/// The calls `writer` makes on the compression stream for the serialized JSON `body`,
/// before the stream is disposed.
pub(crate) fn plan(body: &[u8], writer: AspnetcoreWriter) -> Vec<StreamCall> {
    let flushes = flushed_segments(body);
    match writer {
        AspnetcoreWriter::Minimal | AspnetcoreWriter::Mvc => flushes
            .into_iter()
            .flat_map(|segments| {
                let writes = segments.into_iter().map(StreamCall::Write);
                writes.chain(std::iter::once(StreamCall::Flush))
            })
            .collect(),
        AspnetcoreWriter::MvcNet8 => {
            // The same pieces, each one write of a contiguous buffer, and one flush.
            let mut steps: Vec<StreamCall> = flushes
                .iter()
                .filter_map(|segments| Some(segments.first()?.start..segments.last()?.end))
                .map(StreamCall::Write)
                .collect();
            steps.push(StreamCall::Flush);
            steps
        }
    }
}

/// `kind`'s encoder as ASP.NET Core creates it (.NET's settings, see
/// [`super::server_codec`]), fed `body` as `writer` feeds it.
#[cfg(test)]
pub(crate) fn compress(
    kind: CodecKind,
    level: i32,
    body: &[u8],
    writer: AspnetcoreWriter,
) -> io::Result<Vec<u8>> {
    compress_by_plan(kind, level, body, &plan(body, writer))
}

/// `kind`'s encoder fed `body` by `steps`.
fn compress_by_plan(
    kind: CodecKind,
    level: i32,
    body: &[u8],
    steps: &[StreamCall],
) -> io::Result<Vec<u8>> {
    match kind {
        CodecKind::Zstd => {
            // ZstandardStream: a fresh ZSTD_CCtx at the quality, no pledged size.
            let encoder = ::zstd::stream::Encoder::new(Vec::new(), level)?;
            drive(encoder, body, steps)?.finish()
        }
        CodecKind::Brotli => {
            let quality = super::brotli::checked_quality(level)?;
            let encoder = brotli_c::writer(quality)?;
            brotli_c::finish(drive(encoder, body, steps)?)
        }
        CodecKind::Gzip => {
            // GZipStream: zlib-ng's deflateInit2 with windowBits 31 (gzip) and memLevel 8.
            let level = u32::try_from(level).map_err(super::invalid_input)?;
            let encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            drive(encoder, body, steps)?.finish()
        }
    }
}

/// The plan of the body and writer last compressed, kept so that a timed call pays for the
/// encoder alone: finding the serializer's pieces is the server's JSON writer's work,
/// not the compression's. A body is known again by its writer, address, length and a
/// sample of its bytes.
#[derive(Default)]
pub(crate) struct PlanMemo {
    last: Mutex<Option<(BodyKey, Arc<Vec<StreamCall>>)>>,
}

/// What identifies a body and its writer between calls without reading all of it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct BodyKey {
    writer: AspnetcoreWriter,
    address: usize,
    length: usize,
    sample: u64,
}

impl BodyKey {
    fn of(body: &[u8], writer: AspnetcoreWriter) -> Self {
        // 64 bytes spread over the body, folded FNV-1a style.
        let mut sample = 0xcbf2_9ce4_8422_2325u64;
        let stride = (body.len() / 64).max(1);
        for &byte in body.iter().step_by(stride).take(64) {
            sample = (sample ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        BodyKey {
            writer,
            address: body.as_ptr() as usize,
            length: body.len(),
            sample,
        }
    }
}

impl PlanMemo {
    /// `kind` fed `body` as `writer` feeds it, reusing the plan of the last body when
    /// it is the same one.
    pub(crate) fn compress(
        &self,
        kind: CodecKind,
        level: i32,
        body: &[u8],
        writer: AspnetcoreWriter,
    ) -> io::Result<Vec<u8>> {
        let key = BodyKey::of(body, writer);
        let steps = {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            match last.as_ref() {
                Some((known, steps)) if *known == key => Arc::clone(steps),
                _ => {
                    let steps = Arc::new(plan(body, writer));
                    *last = Some((key, Arc::clone(&steps)));
                    steps
                }
            }
        };
        compress_by_plan(kind, level, body, &steps)
    }
}

/// Makes `steps`' calls on `encoder`: `write` hands the library the bytes, `flush`
/// ends a block (each encoder's `flush` is its library's flush operation).
fn drive<W: Write>(mut encoder: W, body: &[u8], steps: &[StreamCall]) -> io::Result<W> {
    for step in steps {
        match step {
            StreamCall::Write(range) => encoder.write_all(&body[range.clone()])?,
            StreamCall::Flush => encoder.flush()?,
        }
    }
    Ok(encoder)
}

#[cfg(test)]
#[path = "aspnetcore_tests.rs"]
mod tests;
