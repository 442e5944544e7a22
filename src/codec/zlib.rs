//! gzip through madler's zlib, the library nginx, Apache and Node link, built from the
//! source `libz-sys` bundles (no system package). Its deflate is not zlib-ng's: on the
//! small payload level 1 gives 54,379 B where zlib-ng gives 69,832 B.
//!
//! The gzip framing is nginx's: a 10-byte header (no name, no time, OS 3) around a raw
//! deflate stream, then the CRC-32 and the length (RFC 1952). zlib's own gzip wrapper
//! is as long, so the sizes are those of any server on this library.

use std::io;
use std::mem::MaybeUninit;
use std::os::raw::{c_int, c_uint, c_void};

use libz_sys as z;

use super::invalid_input;

/// nginx's gzip header: magic, deflate, no flags, no time, no extra flags, Unix.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];

/// zlib's largest window (32 KiB) and default memory level, which nginx starts from.
pub(super) const MAX_WINDOW_BITS: i32 = 15;
/// zlib's default `memLevel`, nginx's `gzip_hash 128k`.
pub(super) const DEFAULT_MEM_LEVEL: i32 = 8;

/// `zlibVersion()`, e.g. `1.3.1`.
pub(super) fn version() -> String {
    // SAFETY: zlibVersion returns a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(z::zlibVersion()) }
        .to_string_lossy()
        .into_owned()
}

/// deflate's parameters.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deflate {
    /// 0 to 9.
    pub level: i32,
    /// 9 to 15: the window is 2^bits bytes.
    pub window_bits: i32,
    /// 1 to 9: the hash table is 2^(memLevel + 7) entries.
    pub mem_level: i32,
}

/// A fresh z_stream, its allocator set: zlib's own `zalloc`/`zfree` are non-nullable
/// function pointers in `libz-sys`, so the stream is never a zeroed struct.
fn stream() -> MaybeUninit<z::z_stream> {
    extern "C" fn alloc(_: *mut c_void, items: c_uint, size: c_uint) -> *mut c_void {
        // SAFETY: calloc with zlib's counts; zlib checks for null.
        unsafe { libc::calloc(items as usize, size as usize) }
    }
    extern "C" fn free(_: *mut c_void, address: *mut c_void) {
        // SAFETY: `address` came from `alloc` above.
        unsafe { libc::free(address) }
    }
    let mut stream = MaybeUninit::<z::z_stream>::zeroed();
    let raw = stream.as_mut_ptr();
    // SAFETY: writing the two fields of a zeroed struct that must not be null.
    unsafe {
        std::ptr::addr_of_mut!((*raw).zalloc).write(alloc);
        std::ptr::addr_of_mut!((*raw).zfree).write(free);
    }
    stream
}

/// One gzip member: nginx's header, `input` deflated with `deflate` and handed over in
/// pieces of `piece` bytes (no flush between them, as nginx's buffers), and the trailer.
pub(super) fn gzip(deflate: Deflate, input: &[u8], piece: usize) -> io::Result<Vec<u8>> {
    if !(0..=9).contains(&deflate.level) {
        return Err(invalid_input(format!(
            "gzip level {} is not in 0..=9",
            deflate.level
        )));
    }
    let mut out = GZIP_HEADER.to_vec();
    out.extend(raw_deflate(deflate, input, piece)?);
    // SAFETY: crc32 reads `input.len()` bytes from a live slice.
    let crc = unsafe { z::crc32(0, input.as_ptr(), input.len() as c_uint) } as u32;
    out.extend(crc.to_le_bytes());
    out.extend((input.len() as u32).to_le_bytes());
    Ok(out)
}

fn raw_deflate(deflate: Deflate, input: &[u8], piece: usize) -> io::Result<Vec<u8>> {
    let mut stream = stream();
    let strm = stream.as_mut_ptr();
    // SAFETY: a negative window asks for raw deflate; the version and size are zlib's.
    let status = unsafe {
        z::deflateInit2_(
            strm,
            deflate.level,
            z::Z_DEFLATED,
            -deflate.window_bits,
            deflate.mem_level,
            z::Z_DEFAULT_STRATEGY,
            z::zlibVersion(),
            std::mem::size_of::<z::z_stream>() as c_int,
        )
    };
    if status != z::Z_OK {
        return Err(io::Error::other(format!("deflateInit2 failed ({status})")));
    }
    // SAFETY: the stream was initialised above, and is ended below whatever happens.
    let result = unsafe { run_deflate(strm, input, piece) };
    unsafe { z::deflateEnd(strm) };
    result
}

/// Feeds `input` to the initialised `strm` a piece at a time and finishes it.
///
/// # Safety
/// `strm` must be a stream that `deflateInit2_` initialised.
unsafe fn run_deflate(strm: *mut z::z_stream, input: &[u8], piece: usize) -> io::Result<Vec<u8>> {
    let bound = z::deflateBound(strm, input.len() as z::uLong) as usize;
    let mut out: Vec<u8> = Vec::with_capacity(bound + 64);
    let pieces: Vec<&[u8]> = if input.is_empty() {
        vec![input]
    } else {
        input.chunks(piece).collect()
    };
    for (index, chunk) in pieces.iter().enumerate() {
        let flush = if index + 1 == pieces.len() {
            z::Z_FINISH
        } else {
            z::Z_NO_FLUSH
        };
        (*strm).next_in = chunk.as_ptr() as *mut u8;
        (*strm).avail_in = chunk.len() as c_uint;
        loop {
            if out.capacity() == out.len() {
                out.reserve(out.capacity().max(64));
            }
            let spare = out.capacity() - out.len();
            (*strm).next_out = out.as_mut_ptr().add(out.len());
            (*strm).avail_out = spare as c_uint;
            let status = z::deflate(strm, flush);
            let written = spare - (*strm).avail_out as usize;
            out.set_len(out.len() + written);
            match status {
                z::Z_STREAM_END => return Ok(out),
                z::Z_OK | z::Z_BUF_ERROR if (*strm).avail_out == 0 => continue,
                z::Z_OK | z::Z_BUF_ERROR if flush == z::Z_NO_FLUSH => break,
                z::Z_OK => continue,
                other => return Err(io::Error::other(format!("deflate failed ({other})"))),
            }
        }
    }
    Err(io::Error::other("deflate did not finish"))
}

/// Inflates one gzip member with madler's inflate, checking its CRC and length.
pub(super) fn gunzip(compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut stream = stream();
    let strm = stream.as_mut_ptr();
    // SAFETY: window bits 15 + 16 asks inflate for a gzip wrapper.
    let status = unsafe {
        z::inflateInit2_(
            strm,
            MAX_WINDOW_BITS + 16,
            z::zlibVersion(),
            std::mem::size_of::<z::z_stream>() as c_int,
        )
    };
    if status != z::Z_OK {
        return Err(io::Error::other(format!("inflateInit2 failed ({status})")));
    }
    // SAFETY: initialised above and ended below.
    let result = unsafe { run_inflate(strm, compressed) };
    unsafe { z::inflateEnd(strm) };
    result
}

/// # Safety
/// `strm` must be a stream that `inflateInit2_` initialised.
unsafe fn run_inflate(strm: *mut z::z_stream, compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(compressed.len() * 4 + 64);
    (*strm).next_in = compressed.as_ptr() as *mut u8;
    (*strm).avail_in = compressed.len() as c_uint;
    loop {
        if out.capacity() == out.len() {
            out.reserve(out.capacity());
        }
        let spare = out.capacity() - out.len();
        (*strm).next_out = out.as_mut_ptr().add(out.len());
        (*strm).avail_out = spare as c_uint;
        let status = z::inflate(strm, z::Z_NO_FLUSH);
        out.set_len(out.len() + spare - (*strm).avail_out as usize);
        match status {
            z::Z_STREAM_END => return Ok(out),
            z::Z_OK => continue,
            z::Z_BUF_ERROR if (*strm).avail_in > 0 || (*strm).avail_out == 0 => continue,
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("not a whole gzip stream (inflate {status})"),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ops::RangeInclusive;

    use super::super::{Codec, DotnetLevel};

    use super::*;
    use crate::vocab::{CodecKind, Library};

    /// madler zlib's deflate with its defaults (window 15, memLevel 8), in one gzip member.
    struct GzipZlib;

    impl Codec for GzipZlib {
        fn kind(&self) -> CodecKind {
            CodecKind::Gzip
        }

        fn library(&self) -> Library {
            Library::Zlib
        }

        fn version(&self) -> String {
            version()
        }

        fn supported_levels(&self) -> RangeInclusive<i32> {
            0..=9
        }

        fn default_levels(&self) -> Vec<i32> {
            vec![1, 6, 9]
        }

        fn dotnet_level(&self, _level: i32) -> Option<DotnetLevel> {
            None // .NET ships zlib-ng, not this library
        }

        fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
            let deflate = Deflate {
                level,
                window_bits: MAX_WINDOW_BITS,
                mem_level: DEFAULT_MEM_LEVEL,
            };
            gzip(deflate, input, input.len().max(1))
        }

        fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
            gunzip(compressed)
        }
    }

    #[test]
    fn madler_zlib_gives_nginx_sizes_and_round_trips() {
        let small = crate::payload::generate(1000, 42, crate::payload::RngKind::Dotnet);
        // What Debian's nginx sent for the small payload at gzip 1 and 6 (and Python's
        // zlib gives): madler zlib, not zlib-ng's 69,832 and 45,591.
        assert_eq!(GzipZlib.compress(1, &small).unwrap().len(), 54_379);
        assert_eq!(GzipZlib.compress(6, &small).unwrap().len(), 47_113);
        let packed = GzipZlib.compress(9, &small).unwrap();
        assert_eq!(GzipZlib.decompress(&packed).unwrap(), small);
        // Any gzip decoder reads it.
        assert_eq!(super::super::GzipZlibRs.decompress(&packed).unwrap(), small);
        // Pieces without a flush between them give the same stream.
        let deflate = Deflate {
            level: 6,
            window_bits: MAX_WINDOW_BITS,
            mem_level: DEFAULT_MEM_LEVEL,
        };
        assert_eq!(
            gzip(deflate, &small, 32 * 1024).unwrap(),
            GzipZlib.compress(6, &small).unwrap()
        );
        assert!(GzipZlib.decompress(&packed[..packed.len() - 3]).is_err());
        assert!(GzipZlib.compress(10, &small).is_err());
    }
}
