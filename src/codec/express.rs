//! The encoders Node.js runs for Express's `compression` middleware, as near as
//! codecbench has them, so that the lab can time the same settings in process beside
//! what Node spends. Not a profile: Node 20.20 bundles brotli 1.1.0 and Chromium's
//! zlib, so the bytes are not predicted. On small, Node sent 42,610 B at br 4 (these
//! 42,649) and 49,439 B at gzip 1 (these 54,379).
//!
//! - br: `zlib.createBrotliCompress` with only the quality set: window 22 bits, the
//!   body in one write.
//! - gzip: `zlib.createGzip({ level })`: window 15 bits, memLevel 8, one write.
//!
//! Checked in Node 20.20.2: `gzipSync` at level 1 gives the same bytes with and
//! without `{ windowBits: 15, memLevel: 8 }` (others with memLevel 9), and
//! `brotliCompressSync` at quality 4 the same with and without `LGWIN 22` (others
//! with 18).

use super::module::{ModuleBrotli, ModuleGzip};
use super::zlib::{Deflate, DEFAULT_MEM_LEVEL, MAX_WINDOW_BITS};
use crate::vocab::{Server, Variant};

/// C brotli's default window, which Node keeps unless told.
const BROTLI_WINDOW_BITS: u8 = 22;

/// C brotli at Node's defaults.
pub(crate) const BROTLI: ModuleBrotli = ModuleBrotli {
    variant: Variant::Served {
        server: Server::Express,
    },
    window: |_| BROTLI_WINDOW_BITS,
    piece: usize::MAX,
};

/// madler zlib at Node's defaults.
pub(crate) const GZIP: ModuleGzip = ModuleGzip {
    variant: Variant::Served {
        server: Server::Express,
    },
    deflate: |level, _| Deflate {
        level,
        window_bits: MAX_WINDOW_BITS,
        mem_level: DEFAULT_MEM_LEVEL,
    },
    piece: usize::MAX,
};

/// The estimate of Node's `kind` encoder; `None` for zstd, which compression lacks.
pub(crate) fn estimate(kind: crate::vocab::CodecKind) -> Option<Box<dyn super::Codec>> {
    use crate::vocab::CodecKind;
    match kind {
        CodecKind::Brotli => Some(Box::new(BROTLI)),
        CodecKind::Gzip => Some(Box::new(GZIP)),
        CodecKind::Zstd => None,
    }
}
