//! What a measurement is of: a codec, its library, how each response's encoder comes to
//! be, a cell's identity, and an HTTP encoding. Every layer speaks these words, so they
//! live here, in a leaf that imports no other part of codecbench.

mod cell;
mod codec_kind;
mod encoding;
pub(crate) mod media_type;
mod server;

pub(crate) use cell::{CellId, Library, Variant};
pub use codec_kind::CodecKind;
pub(crate) use encoding::{Encoding, AUTO_LEVEL, BROWSER_ACCEPT_ENCODING};
pub(crate) use server::{AspnetcoreWriter, Server};
