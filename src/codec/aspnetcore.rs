//! The encoders as ASP.NET Core 11's response-compression middleware feeds them a JSON
//! body, so that `run --server aspnetcore` predicts what Kestrel sends rather than the
//! article's one write to a `MemoryStream`.
//!
//! The path, traced in the upstream source (commits in `docs/servers.md`):
//!
//! - System.Text.Json serializes into a buffer and hands it on once more than 90% of
//!   it is full, checking after each property and array element
//!   (`JsonTypeInfoOfT.WriteHelpers.cs`). Both buffers make that 14,745 bytes:
//!   90% of 4 pipe segments of 4,096 bytes, or of the 16 KiB `DefaultBufferSize`.
//! - Minimal APIs (`WriteAsJsonAsync`) serialize into `HttpResponse.BodyWriter`, a
//!   `StreamPipeWriter` over the middleware's stream. Its segments start at 4,096 bytes
//!   and double; its `FlushAsync` writes each segment, then flushes the stream.
//! - MVC's `SystemTextJsonOutputFormatter` serializes into the stream through a
//!   `PooledByteBufferWriter`, which writes each buffer without flushing; the formatter
//!   flushes the stream once at the end.
//! - `ResponseCompressionBody` passes each write and flush to the compression stream,
//!   and disposes it at the end of the response.
//! - A write is `BROTLI_OPERATION_PROCESS`, `ZSTD_e_continue` or `Z_NO_FLUSH`; a flush
//!   is `BROTLI_OPERATION_FLUSH`, `ZSTD_e_flush` or `Z_SYNC_FLUSH`; disposing finishes.
//!
//! Where this is a model and not Kestrel: the serializer's writer starts a new segment
//! when the next token's worst case does not fit, so a real segment ends a few bytes
//! short of its capacity; here each is filled to capacity.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::brotli_c;

use crate::vocab::AspnetcoreWriter;
use crate::vocab::CodecKind;

/// The serializer hands its output on once more than this many bytes are pending:
/// `(int)(4 * 4096 * 0.9f)` for a `PipeWriter`, `(int)(16384 * 0.9f)` for a `Stream`.
pub(crate) const FLUSH_THRESHOLD: usize = 14_745;

/// A `StreamPipeWriter`'s first segment; each next one is twice the last.
pub(crate) const FIRST_SEGMENT: usize = 4_096;

/// One call the middleware makes on the compression stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `Write` of these bytes of the body.
    Write(Range<usize>),
    /// `Flush`.
    Flush,
}

/// The calls `writer` makes on the compression stream for the serialized JSON `body`,
/// before the stream is disposed.
pub(crate) fn plan(body: &[u8], writer: AspnetcoreWriter) -> Vec<Step> {
    let mut steps = Vec::new();
    for window in serializer_pieces(body) {
        match writer {
            AspnetcoreWriter::Minimal => {
                steps.extend(segments(window).map(Step::Write));
                steps.push(Step::Flush);
            }
            AspnetcoreWriter::Mvc => steps.push(Step::Write(window)),
        }
    }
    if writer == AspnetcoreWriter::Mvc {
        steps.push(Step::Flush);
    }
    steps
}

/// The pieces the serializer hands on: each ends at the first value boundary after
/// more than [`FLUSH_THRESHOLD`] bytes, the last at the end of the body.
pub(crate) fn serializer_pieces(body: &[u8]) -> Vec<Range<usize>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for end in value_ends(body) {
        if end - start > FLUSH_THRESHOLD {
            pieces.push(start..end);
            start = end;
        }
    }
    if start < body.len() || pieces.is_empty() {
        pieces.push(start..body.len());
    }
    pieces
}

/// `window` cut into a `StreamPipeWriter`'s segments: 4,096 bytes, then 8,192, and so on.
fn segments(window: Range<usize>) -> impl Iterator<Item = Range<usize>> {
    let mut start = window.start;
    let mut capacity = FIRST_SEGMENT;
    std::iter::from_fn(move || {
        (start < window.end).then(|| {
            let end = (start + capacity).min(window.end);
            let piece = start..end;
            start = end;
            capacity *= 2;
            piece
        })
    })
}

/// The offsets just after each value that is a property or an element of an array:
/// where the serializer checks whether to hand its buffer on. Bytes that are not JSON
/// end no value.
pub(crate) fn value_ends(json: &[u8]) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut in_scalar = false;
    for (i, &byte) in json.iter().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    // A property's name is followed by ':'; only a value ends here.
                    if depth > 0 && next_significant(json, i + 1) != Some(b':') {
                        ends.push(i + 1);
                    }
                }
                _ => {}
            }
            continue;
        }
        let ends_scalar = matches!(byte, b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t');
        if in_scalar && ends_scalar {
            in_scalar = false;
            if depth > 0 {
                ends.push(i);
            }
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth > 0 {
                    ends.push(i + 1);
                }
            }
            b',' | b':' | b' ' | b'\n' | b'\r' | b'\t' => {}
            _ => in_scalar = true,
        }
    }
    ends
}

/// The first byte at or after `from` that is not white space.
fn next_significant(json: &[u8], from: usize) -> Option<u8> {
    json.get(from..)?
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace())
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
    steps: &[Step],
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
    last: Mutex<Option<(BodyKey, Arc<Vec<Step>>)>>,
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
fn drive<W: Write>(mut encoder: W, body: &[u8], steps: &[Step]) -> io::Result<W> {
    for step in steps {
        match step {
            Step::Write(range) => encoder.write_all(&body[range.clone()])?,
            Step::Flush => encoder.flush()?,
        }
    }
    Ok(encoder)
}

#[cfg(test)]
#[path = "aspnetcore_tests.rs"]
mod tests;
