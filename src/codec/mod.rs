//! Codecs: one trait ([`interface`]), one adapter per codec implementation, and the
//! registry of which implementations there are ([`registry`]).
//!
//! Each adapter builds a fresh encoder or decoder on every call, because that is what the
//! response-compression middleware pays for every response; the runner times the whole
//! call.

pub(crate) mod apache;
pub(crate) mod api;
pub(crate) mod aspnetcore;
pub(crate) mod bounded;
mod brotli;
pub(crate) mod brotli_c;
pub(crate) mod express;
mod gzip;
mod interface;
mod module;
pub(crate) mod nginx;
pub(crate) mod rebuild;
mod registry;
pub(crate) mod reused;
mod servers;
pub(crate) mod stj_writer;
pub(crate) mod tower_http;
pub(crate) mod zlib;
mod zstd;
pub(crate) mod zstd_dict;

#[cfg(test)]
pub(crate) use self::brotli::{Brotli, BrotliLibrary};
pub(crate) use self::gzip::GzipZlibRs;
pub use self::interface::Codec;
pub(crate) use self::interface::DotnetLevel;
pub(crate) use self::interface::{
    compress_counting_heap, invalid_input, levels_of, locked_version,
};
pub use self::registry::server_codec;
pub(crate) use self::registry::{
    all_implementations, implementations, BrotliImpl, Corrupting, EncoderChoice,
};
pub(crate) use self::servers::of_server;
pub(crate) use self::zstd::Libzstd;

#[cfg(test)]
mod tests;
