//! brotli through `brotlic`, which compiles Google's C library from source with `cc`,
//! and through the raw C API (`brotlic-sys`) to measure the encoder's memory.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::ffi::c_void;
use std::io::{self, Read, Write};
use std::ptr;

use brotlic_sys::{
    BrotliEncoderCompressStream, BrotliEncoderCreateInstance, BrotliEncoderDestroyInstance,
    BrotliEncoderHasMoreOutput, BrotliEncoderIsFinished, BrotliEncoderOperation,
    BrotliEncoderOperation_BROTLI_OPERATION_FINISH,
    BrotliEncoderOperation_BROTLI_OPERATION_PROCESS, BrotliEncoderParameter_BROTLI_PARAM_LGWIN,
    BrotliEncoderParameter_BROTLI_PARAM_QUALITY, BrotliEncoderSetParameter, BrotliEncoderState,
};

use super::bounded::Overrun;
use brotlic::{BrotliEncoderOptions, CompressorWriter, DecompressorReader, Quality, WindowSize};

use super::invalid_input;

/// .NET's BrotliEncoder uses a 22-bit window (4 MiB) for every quality; the Rust port is
/// given the same.
pub(super) const WINDOW_BITS: u32 = 22;

/// `BrotliEncoderVersion()` as `major.minor.patch`; the library packs it as
/// `major << 24 | minor << 12 | patch`.
pub(super) fn library_version() -> String {
    let packed = brotlic::BrotliEncoder::version();
    format!(
        "{}.{}.{}",
        packed >> 24,
        (packed >> 12) & 0xfff,
        packed & 0xfff
    )
}

/// A fresh streaming encoder at `quality`, window 22, writing into a vector.
pub(super) fn writer(quality: u8) -> io::Result<CompressorWriter<Vec<u8>>> {
    writer_with_window(quality, WINDOW_BITS as u8)
}

/// A fresh streaming encoder at `quality` with a window of 2^`window_bits` bytes.
fn writer_with_window(quality: u8, window_bits: u8) -> io::Result<CompressorWriter<Vec<u8>>> {
    let encoder = BrotliEncoderOptions::new()
        .quality(Quality::new(quality).map_err(invalid_input)?)
        .window_size(WindowSize::new(window_bits).map_err(invalid_input)?)
        .build()
        .map_err(invalid_input)?;
    Ok(CompressorWriter::with_encoder(encoder, Vec::new()))
}

/// Compresses with a fresh streaming encoder of window 2^`window_bits`, handed `piece`
/// bytes at a time, flushed after each piece when `flush` says so: how a server's
/// filter meets a body read into buffers.
pub(super) fn compress_in_pieces(
    quality: u8,
    window_bits: u8,
    input: &[u8],
    piece: usize,
    flush: bool,
) -> io::Result<Vec<u8>> {
    let mut writer = writer_with_window(quality, window_bits)?;
    for chunk in input.chunks(piece.max(1)) {
        writer.write_all(chunk)?;
        if flush {
            writer.flush()?;
        }
    }
    finish(writer)
}

/// Finishes the stream, as disposing the BrotliStream does, and returns its bytes.
pub(super) fn finish(writer: CompressorWriter<Vec<u8>>) -> io::Result<Vec<u8>> {
    writer
        .into_inner()
        .map_err(|e| io::Error::other(e.to_string()))
}

/// Compresses with a fresh streaming encoder, as .NET's `BrotliStream` does.
pub(super) fn compress(quality: u8, input: &[u8]) -> io::Result<Vec<u8>> {
    let mut writer = writer(quality)?;
    writer.write_all(input)?;
    finish(writer)
}

/// Compresses with a fresh streaming encoder, writing `chunk` bytes at a time and
/// flushing after each, as a response written in pieces is.
pub(super) fn compress_flushed(quality: u8, input: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
    compress_in_pieces(quality, WINDOW_BITS as u8, input, chunk, true)
}

/// Compresses in one call with the input's size known (`BrotliEncoderCompress`).
pub(super) fn compress_one_shot(quality: u8, input: &[u8]) -> io::Result<Vec<u8>> {
    // SAFETY: the output buffer's capacity is BrotliEncoderMaxCompressedSize bytes, which
    // the encoder never exceeds; its length is set to what the encoder wrote. Both
    // buffers outlive the call. Not zero-filled: that would time a memset per response.
    unsafe {
        let capacity = brotlic_sys::BrotliEncoderMaxCompressedSize(input.len());
        let mut output = Vec::with_capacity(capacity);
        let mut written = capacity;
        let ok = brotlic_sys::BrotliEncoderCompress(
            i32::from(quality),
            WINDOW_BITS as i32,
            brotlic_sys::BrotliEncoderMode_BROTLI_MODE_GENERIC,
            input.len(),
            input.as_ptr(),
            &mut written,
            output.as_mut_ptr(),
        );
        if ok != brotlic_sys::BROTLI_TRUE {
            return Err(io::Error::other("BrotliEncoderCompress failed"));
        }
        output.set_len(written);
        Ok(output)
    }
}

/// Decompresses in one call into a buffer of the known `size`
/// (`BrotliDecoderDecompress`).
pub(super) fn decompress_one_shot(compressed: &[u8], size: usize) -> io::Result<Vec<u8>> {
    let mut output = Vec::with_capacity(size);
    let mut written = size;
    // SAFETY: `written` is the output buffer's capacity, and its length is set to what the
    // decoder wrote; both buffers outlive the call. Not zero-filled, as above.
    let result = unsafe {
        brotlic_sys::BrotliDecoderDecompress(
            compressed.len(),
            compressed.as_ptr(),
            &mut written,
            output.as_mut_ptr(),
        )
    };
    if result != brotlic_sys::BrotliDecoderResult_BROTLI_DECODER_RESULT_SUCCESS {
        return Err(io::Error::other("BrotliDecoderDecompress failed"));
    }
    // SAFETY: the decoder wrote `written` bytes, at most the capacity.
    unsafe { output.set_len(written) };
    Ok(output)
}

/// Compresses with a fresh encoder that has `dictionary` attached as a raw shared
/// dictionary (`BrotliEncoderPrepareDictionary`), as an RFC 9842 `dcb` body holds.
pub(crate) fn compress_with_dictionary(
    quality: u8,
    dictionary: &[u8],
    input: &[u8],
) -> io::Result<Vec<u8>> {
    // SAFETY: `dictionary` outlives the prepared dictionary and the encoder, both
    // destroyed below, encoder first; null allocators mean malloc and free.
    unsafe {
        let prepared = brotlic_sys::BrotliEncoderPrepareDictionary(
            brotlic_sys::BrotliSharedDictionaryType_BROTLI_SHARED_DICTIONARY_RAW,
            dictionary.len(),
            dictionary.as_ptr(),
            i32::from(quality),
            None,
            None,
            ptr::null_mut(),
        );
        if prepared.is_null() {
            return Err(io::Error::other("BrotliEncoderPrepareDictionary failed"));
        }
        let state = BrotliEncoderCreateInstance(None, None, ptr::null_mut());
        let result = if state.is_null() {
            Err(io::Error::other("BrotliEncoderCreateInstance failed"))
        } else if brotlic_sys::BrotliEncoderAttachPreparedDictionary(state, prepared) == 0 {
            Err(io::Error::other(
                "BrotliEncoderAttachPreparedDictionary failed",
            ))
        } else {
            stream_through(state, quality, input)
        };
        if !state.is_null() {
            BrotliEncoderDestroyInstance(state);
        }
        brotlic_sys::BrotliEncoderDestroyPreparedDictionary(prepared);
        result
    }
}

/// Decompresses a stream made against `dictionary` (`BrotliDecoderAttachDictionary`),
/// at most `limit` bytes of output, a chunk at a time (see [`super::bounded`]).
pub(crate) fn decompress_with_dictionary(
    dictionary: &[u8],
    compressed: &[u8],
    limit: u64,
) -> Result<Vec<u8>, Overrun> {
    use brotlic_sys::{
        BrotliDecoderResult_BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT as MORE_OUTPUT,
        BrotliDecoderResult_BROTLI_DECODER_RESULT_SUCCESS as SUCCESS,
    };
    let failed = |why: &str| Overrun::Failed(io::Error::other(why.to_string()));
    // SAFETY: `dictionary` and `compressed` outlive the decoder, destroyed below; every
    // pointer passed points into them or `chunk` with the lengths beside it.
    unsafe {
        let state = brotlic_sys::BrotliDecoderCreateInstance(None, None, ptr::null_mut());
        if state.is_null() {
            return Err(failed("BrotliDecoderCreateInstance failed"));
        }
        let attached = brotlic_sys::BrotliDecoderAttachDictionary(
            state,
            brotlic_sys::BrotliSharedDictionaryType_BROTLI_SHARED_DICTIONARY_RAW,
            dictionary.len(),
            dictionary.as_ptr(),
        );
        let (mut next_in, mut available_in) = (compressed.as_ptr(), compressed.len());
        let mut output = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        let result = loop {
            if attached == 0 {
                break Err(failed("BrotliDecoderAttachDictionary failed"));
            }
            if crate::process::interrupt::requested() {
                break Err(Overrun::Stopped);
            }
            let mut next_out = chunk.as_mut_ptr();
            let mut available_out = chunk.len();
            let status = brotlic_sys::BrotliDecoderDecompressStream(
                state,
                &mut available_in,
                &mut next_in,
                &mut available_out,
                &mut next_out,
                ptr::null_mut(),
            );
            let produced = chunk.len() - available_out;
            if output.len() as u64 + produced as u64 > limit {
                break Err(Overrun::TooLarge { limit });
            }
            output.extend_from_slice(&chunk[..produced]);
            match status {
                SUCCESS => break Ok(output),
                MORE_OUTPUT => continue,
                _ => break Err(failed("a brotli body does not decode with the dictionary")),
            }
        };
        brotlic_sys::BrotliDecoderDestroyInstance(state);
        result
    }
}

/// Decompresses with a fresh streaming decoder.
pub(super) fn decompress(compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut output = Vec::new();
    DecompressorReader::new(compressed).read_to_end(&mut output)?;
    Ok(output)
}

/// Bytes the C encoder holds: live now and the most at once. The encoder calls back into
/// [`track_alloc`] and [`track_free`] with a pointer to this as its `opaque` handle.
#[derive(Default)]
struct Tracker {
    live: Cell<usize>,
    peak: Cell<usize>,
}

/// Room before each block for its size, keeping the block 16-byte aligned as malloc's is.
const HEADER: usize = 16;

extern "C" fn track_alloc(opaque: *mut c_void, size: usize) -> *mut c_void {
    let Some(layout) = size
        .checked_add(HEADER)
        .and_then(|total| Layout::from_size_align(total, HEADER).ok())
    else {
        return ptr::null_mut();
    };
    // SAFETY: `layout` has a non-zero size (HEADER > 0).
    let base = unsafe { alloc::alloc(layout) };
    if base.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: `opaque` is the `Tracker` that outlives the encoder (see `compress_tracked`);
    // `base` has room and alignment for a usize.
    unsafe {
        let tracker = &*(opaque as *const Tracker);
        tracker.live.set(tracker.live.get() + size);
        tracker.peak.set(tracker.peak.get().max(tracker.live.get()));
        (base as *mut usize).write(size);
        base.add(HEADER) as *mut c_void
    }
}

extern "C" fn track_free(opaque: *mut c_void, address: *mut c_void) {
    if address.is_null() {
        return;
    }
    // SAFETY: `address` came from `track_alloc`, so its size sits HEADER bytes before it,
    // and the layout below is the one it was allocated with.
    unsafe {
        let base = (address as *mut u8).sub(HEADER);
        let size = (base as *const usize).read();
        let tracker = &*(opaque as *const Tracker);
        tracker.live.set(tracker.live.get() - size);
        alloc::dealloc(
            base,
            Layout::from_size_align_unchecked(size + HEADER, HEADER),
        );
    }
}

/// Compresses as [`compress`] does, through the C API with an allocator that counts, and
/// returns the output with the most bytes the encoder held at once.
pub(super) fn compress_tracked(quality: u8, input: &[u8]) -> io::Result<(Vec<u8>, u64)> {
    let tracker = Tracker::default();
    let opaque = &tracker as *const Tracker as *mut c_void;
    // SAFETY: the callbacks match the C signatures; `tracker` outlives the state, which is
    // destroyed below before `tracker` goes out of scope.
    let state = unsafe { BrotliEncoderCreateInstance(Some(track_alloc), Some(track_free), opaque) };
    if state.is_null() {
        return Err(io::Error::other("BrotliEncoderCreateInstance failed"));
    }
    let result = stream_through(state, quality, input);
    // SAFETY: `state` is a live encoder and is not used again.
    unsafe { BrotliEncoderDestroyInstance(state) };
    result.map(|output| (output, tracker.peak.get() as u64))
}

/// Feeds `input` through `state` as the streaming writer does: PROCESS with the whole
/// input, then FINISH until the encoder is done.
fn stream_through(
    state: *mut BrotliEncoderState,
    quality: u8,
    input: &[u8],
) -> io::Result<Vec<u8>> {
    let calls = [
        (BrotliEncoderOperation_BROTLI_OPERATION_PROCESS, input),
        (BrotliEncoderOperation_BROTLI_OPERATION_FINISH, &[][..]),
    ];
    run_calls(state, quality, &calls)
}

/// Compresses through the C API alone, a fresh encoder (window 22) making `calls` in
/// order, each with its input: what a stream's writes, flushes and end come to. For
/// tests that check a stream's calls against the library's own API.
#[cfg(test)]
pub(crate) fn compress_by_calls(
    quality: u8,
    calls: &[(BrotliEncoderOperation, &[u8])],
) -> io::Result<Vec<u8>> {
    // SAFETY: default allocators; the state is destroyed below and not used again.
    let state = unsafe { BrotliEncoderCreateInstance(None, None, ptr::null_mut()) };
    if state.is_null() {
        return Err(io::Error::other("BrotliEncoderCreateInstance failed"));
    }
    let result = run_calls(state, quality, calls);
    // SAFETY: `state` is a live encoder and is not used again.
    unsafe { BrotliEncoderDestroyInstance(state) };
    result
}

/// Sets `state` to `quality` and window 22, then makes each call until it has taken
/// its input and given all its output (FINISH: until the encoder is finished).
fn run_calls(
    state: *mut BrotliEncoderState,
    quality: u8,
    calls: &[(BrotliEncoderOperation, &[u8])],
) -> io::Result<Vec<u8>> {
    // SAFETY (all calls below): `state` is a live encoder owned by the caller, and every
    // pointer passed points into a call's input or `chunk` with the lengths passed.
    unsafe {
        let quality_ok = BrotliEncoderSetParameter(
            state,
            BrotliEncoderParameter_BROTLI_PARAM_QUALITY,
            u32::from(quality),
        );
        let window_ok = BrotliEncoderSetParameter(
            state,
            BrotliEncoderParameter_BROTLI_PARAM_LGWIN,
            WINDOW_BITS,
        );
        if quality_ok == 0 || window_ok == 0 {
            return Err(invalid_input(format!("brotli quality {quality} rejected")));
        }
        let mut output = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        for &(op, input) in calls {
            let (mut next_in, mut available_in) = (input.as_ptr(), input.len());
            loop {
                let mut next_out = chunk.as_mut_ptr();
                let mut available_out = chunk.len();
                if BrotliEncoderCompressStream(
                    state,
                    op,
                    &mut available_in,
                    &mut next_in,
                    &mut available_out,
                    &mut next_out,
                    ptr::null_mut(),
                ) == 0
                {
                    return Err(io::Error::other("BrotliEncoderCompressStream failed"));
                }
                output.extend_from_slice(&chunk[..chunk.len() - available_out]);
                let done = if op == BrotliEncoderOperation_BROTLI_OPERATION_FINISH {
                    BrotliEncoderIsFinished(state) != 0
                } else {
                    available_in == 0 && BrotliEncoderHasMoreOutput(state) == 0
                };
                if done {
                    break;
                }
            }
        }
        Ok(output)
    }
}
