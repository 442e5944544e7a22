//! The encoders as Apache httpd 2.4 drives them, so that `run --server apache` predicts
//! the bytes Debian's apache2 sends.
//!
//! - gzip (mod_deflate): madler zlib's raw deflate at `DeflateCompressionLevel`, window
//!   15 bits and **memLevel 9** (`DeflateWindowSize 15`, `DeflateMemLevel 9`: nginx and
//!   zlib's own default use 8), whatever the body's length, in a 10-byte gzip header
//!   (OS 3) with the CRC-32 and length after it. Its 8,096-byte output fragments
//!   (`DeflateBufferSize`) cut the output, not the stream.
//! - br (mod_brotli): Google's C brotli at `BrotliCompressionQuality` (5 by default),
//!   window 18 bits (`BrotliCompressionWindow`) whatever the body's length, each bucket
//!   handed over with `BROTLI_OPERATION_PROCESS` and no flush.
//!
//! Both read a static file as APR's file bucket reads it: memory-mapped in pieces of up
//! to 4 MiB (`APR_MMAP_LIMIT`). Pieces matter only to brotli's qualities 0 and 1, which
//! compress each call's input as blocks of its own; 4 MiB is a whole number of their
//! blocks, so a 6 MB file's bytes are as in one piece (nginx's 32 KiB buffers are not).
//!
//! References (apache/httpd): `modules/filters/mod_deflate.c` (`deflate_out_filter`,
//! `deflateInit2` with `c->memlevel`, `DEFAULT_MEMLEVEL 9`) and
//! `modules/filters/mod_brotli.c` (`create_server_config`, `process_chunk`). The sizes
//! are checked against a real apache2 in `tests/apache.rs`.

use super::module::{ModuleBrotli, ModuleGzip};
use super::zlib::{Deflate, MAX_WINDOW_BITS};
use crate::vocab::Variant;

/// The largest piece APR memory-maps of a file at once (`APR_MMAP_LIMIT`, 4 MiB).
const MMAP_PIECE: usize = 4 * 1024 * 1024;

/// mod_brotli's default `BrotliCompressionWindow`.
const BROTLI_WINDOW_BITS: u8 = 18;

/// mod_deflate's default `DeflateMemLevel`.
const MEM_LEVEL: i32 = 9;

/// C brotli as mod_brotli runs it.
pub(crate) const BROTLI: ModuleBrotli = ModuleBrotli {
    variant: Variant::Apache,
    window: |_| BROTLI_WINDOW_BITS,
    piece: MMAP_PIECE,
};

/// madler zlib as mod_deflate runs it.
pub(crate) const GZIP: ModuleGzip = ModuleGzip {
    variant: Variant::Apache,
    deflate: |level, _| Deflate {
        level,
        window_bits: MAX_WINDOW_BITS,
        mem_level: MEM_LEVEL,
    },
    piece: MMAP_PIECE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{nginx, Codec};

    /// On a body longer than nginx's fitted windows reach, Apache's bytes differ from
    /// nginx's only through memLevel 9 and brotli's window: sizes Debian's apache2 sent
    /// (tests/apache.rs checks them live).
    #[test]
    fn apache_differs_from_nginx_where_its_parameters_do() {
        let small = crate::payload::generate(1000, 42, crate::payload::RngKind::Dotnet);
        assert_eq!(GZIP.compress(1, &small).unwrap().len(), 54_462);
        assert_eq!(nginx::GZIP.compress(1, &small).unwrap().len(), 54_379);
        assert_eq!(BROTLI.compress(5, &small).unwrap().len(), 41_100);
        let nginx = nginx::BROTLI.compress(5, &small).unwrap();
        assert_ne!(nginx.len(), 41_100);
        for codec in [&GZIP as &dyn Codec, &BROTLI] {
            let packed = codec.compress(6, &small).unwrap();
            assert_eq!(codec.decompress(&packed).unwrap(), small);
        }
    }
}
