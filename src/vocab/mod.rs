//! What a measurement is of: a codec, its library, how each response's encoder comes to
//! be, a cell's identity, and an HTTP encoding. Every layer speaks these words, so they
//! live here, in a leaf that imports no other part of codecbench.

mod cell;
mod encoding;
pub(crate) mod media_type;
mod server;

use std::fmt;

pub(crate) use cell::{CellId, Library, Variant};
pub(crate) use encoding::{Encoding, AUTO_LEVEL, BROWSER_ACCEPT_ENCODING};
pub(crate) use server::{AspnetcoreWriter, Server};

/// The content codings the article compares.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum CodecKind {
    /// Zstandard (`Content-Encoding: zstd`).
    Zstd,
    /// Brotli (`br`), window 22 as .NET uses it.
    Brotli,
    /// gzip (`gzip`), a deflate stream in a gzip wrapper.
    Gzip,
}

impl CodecKind {
    /// All codecs, in ASP.NET Core 11's order of preference.
    pub const ALL: [CodecKind; 3] = [CodecKind::Zstd, CodecKind::Brotli, CodecKind::Gzip];

    /// The lower-case name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CodecKind::Zstd => "zstd",
            CodecKind::Brotli => "brotli",
            CodecKind::Gzip => "gzip",
        }
    }

    /// The HTTP content coding (RFC 9110 §8.4.1): `zstd`, `br` or `gzip`.
    pub fn content_coding(self) -> &'static str {
        match self {
            CodecKind::Zstd => "zstd",
            CodecKind::Brotli => "br",
            CodecKind::Gzip => "gzip",
        }
    }
}

impl std::str::FromStr for CodecKind {
    type Err = String;

    /// `zstd`, `brotli` or `gzip`.
    fn from_str(text: &str) -> Result<Self, String> {
        CodecKind::ALL
            .into_iter()
            .find(|kind| kind.name() == text)
            .ok_or_else(|| format!("unknown codec '{text}' (zstd, brotli, gzip)"))
    }
}

impl fmt::Display for CodecKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
