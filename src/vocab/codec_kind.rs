//! The content codings the article compares: zstd, brotli and gzip.

use std::fmt;

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
