//! The encoders as Debian's nginx 1.22 drives them, so that `run --server nginx`
//! predicts the bytes nginx sends.
//!
//! - brotli (ngx_brotli's filter): Google's C brotli, its window fitted to the body's
//!   known length (the smallest of 2^10 up to `brotli_window`, 512k by default, that
//!   holds it), the body handed over as nginx reads it, in 32 KiB buffers
//!   (`output_buffers 2 32k`), each with `BROTLI_OPERATION_PROCESS` and no flush.
//!   Qualities 0 and 1 compress whatever one call hands them as a block of its own, so
//!   there the buffers cost bytes (52,829 B on the small payload at quality 1, against
//!   44,606 B in one piece); from quality 2 the encoder gathers its own blocks and the
//!   buffers change nothing.
//! - gzip (ngx_http_gzip_filter_module): madler zlib's raw deflate in nginx's own gzip
//!   framing, with the window and memLevel nginx fits to a known length: from
//!   `gzip_window 32k` (15 bits) and `gzip_hash 128k` (memLevel 8), one step down for
//!   each halving while the body is shorter than the window less 262 bytes.
//!
//! References: nginx's `ngx_http_gzip_filter_memory()`, ngx_brotli's
//! `ngx_http_brotli_filter_ensure_stream_initialized()`; the sizes are checked against
//! a real nginx in `tests/nginx.rs`.

use super::module::{ModuleBrotli, ModuleGzip};
use super::zlib::{Deflate, DEFAULT_MEM_LEVEL, MAX_WINDOW_BITS};
use crate::vocab::Variant;

/// The buffers nginx reads a body into before a filter sees it (`output_buffers`).
pub(crate) const READ_BUFFER: usize = 32 * 1024;

/// ngx_brotli's default `brotli_window`, 512k, as bits.
pub(crate) const BROTLI_WINDOW_BITS: u8 = 19;

/// brotli's smallest window, 2^10 bytes.
const BROTLI_MIN_WINDOW_BITS: u8 = 10;

/// ngx_brotli's window for a body of `length` bytes.
pub(crate) fn brotli_window(length: usize) -> u8 {
    let mut bits = BROTLI_MIN_WINDOW_BITS;
    while bits < BROTLI_WINDOW_BITS && length > 1 << bits {
        bits += 1;
    }
    bits
}

/// nginx's deflate parameters for a body of `length` bytes at `level`.
fn gzip_deflate(level: i32, length: usize) -> Deflate {
    let (mut window_bits, mut mem_level) = (MAX_WINDOW_BITS, DEFAULT_MEM_LEVEL);
    if length > 0 {
        // zlib's usable window is 262 bytes short of 2^bits.
        while (length as i64) < (1i64 << (window_bits - 1)) - 262 {
            window_bits -= 1;
            mem_level -= 1;
        }
        mem_level = mem_level.max(1);
    }
    Deflate {
        level,
        window_bits,
        mem_level,
    }
}

/// C brotli as ngx_brotli runs it.
pub(crate) const BROTLI: ModuleBrotli = ModuleBrotli {
    variant: Variant::Nginx,
    window: brotli_window,
    piece: READ_BUFFER,
};

/// madler zlib as nginx's gzip filter runs it.
pub(crate) const GZIP: ModuleGzip = ModuleGzip {
    variant: Variant::Nginx,
    deflate: gzip_deflate,
    piece: READ_BUFFER,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_fit_the_body_as_nginx_fits_them() {
        assert_eq!(brotli_window(290), 10);
        assert_eq!(brotli_window(100_000), 17);
        assert_eq!(brotli_window(298_727), 19);
        assert_eq!(brotli_window(3_018_756), 19);
        let fitted = |length| {
            let d = gzip_deflate(6, length);
            (d.window_bits, d.mem_level)
        };
        assert_eq!(fitted(298_727), (15, 8));
        assert_eq!(fitted(20_000), (15, 8));
        assert_eq!(fitted(10_000), (14, 7));
        assert_eq!(fitted(5_000), (13, 6));
        assert_eq!(fitted(290), (10, 3));
        assert_eq!(fitted(0), (15, 8));
    }
}
