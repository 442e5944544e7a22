//! How `http` sends an encoding: negotiation tokens, tower-http's layer, and decoding
//! what arrives. The encoding itself is [`crate::vocab::Encoding`].

use anyhow::{bail, Context as _, Result};
use tower_http::compression::{CompressionLayer, CompressionLevel};

use super::dictionary::{Coding, Dictionary};
use crate::codec::{Brotli, BrotliLibrary, Codec, GzipZlibRs, Libzstd};
pub use crate::vocab::{Encoding, AUTO_LEVEL, BROWSER_ACCEPT_ENCODING};

/// What the HTTP layer needs of an encoding beyond its identity.
pub(super) trait Transport {
    /// The RFC 9842 coding and level of `dcz` and `dcb`.
    fn dictionary_coding(self) -> Option<(super::dictionary::Coding, i32)>;
    /// The `Accept-Encoding` the client sends for this encoding.
    fn accept_encoding(self) -> &'static str;
    /// The `Content-Encoding` the response must carry; `None` for none. `auto` answers
    /// a browser with zstd.
    fn expected_content_encoding(self) -> Option<&'static str>;
    /// tower-http's layer with exactly this encoding enabled; `None` for identity.
    fn layer(self) -> Option<CompressionLayer>;
}

impl Transport for Encoding {
    fn dictionary_coding(self) -> Option<(super::dictionary::Coding, i32)> {
        match self {
            Encoding::Dcz(level) => Some((super::dictionary::Coding::Dcz, level)),
            Encoding::Dcb(level) => Some((super::dictionary::Coding::Dcb, level)),
            _ => None,
        }
    }

    fn accept_encoding(self) -> &'static str {
        match self {
            Encoding::Auto => BROWSER_ACCEPT_ENCODING,
            // What Chrome sends where it holds a dictionary for the URL.
            Encoding::Dcz(_) | Encoding::Dcb(_) => "gzip, deflate, br, zstd, dcb, dcz",
            other => other.token(),
        }
    }

    fn expected_content_encoding(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Auto => Some("zstd"),
            other => Some(other.token()),
        }
    }

    fn layer(self) -> Option<CompressionLayer> {
        let none = CompressionLayer::new()
            .no_br()
            .no_deflate()
            .no_gzip()
            .no_zstd();
        let (layer, level) = match self {
            Encoding::Zstd(l) => (none.zstd(true), l),
            Encoding::Br(l) => (none.br(true), l),
            Encoding::Gzip(l) => (none.gzip(true), l),
            Encoding::Auto => (none.zstd(true).br(true).gzip(true), AUTO_LEVEL),
            Encoding::Identity | Encoding::Dcz(_) | Encoding::Dcb(_) => return None,
        };
        Some(layer.quality(CompressionLevel::Precise(level)))
    }
}

/// Decodes `body` sent with `content_encoding` using codecbench's own decoders, and
/// `dcz` or `dcb` with `dictionary`, the one the request offered.
pub(super) fn decode(
    content_encoding: Option<&str>,
    body: &[u8],
    dictionary: Option<&Dictionary>,
) -> Result<Vec<u8>> {
    // The codec adapters are unit structs: building one per response costs nothing.
    let decoder: Box<dyn Codec> = match (content_encoding, dictionary) {
        (None | Some("identity"), _) => return Ok(body.to_vec()),
        (Some("dcz"), Some(dictionary)) => return dictionary.decode(Coding::Dcz, body),
        (Some("dcb"), Some(dictionary)) => return dictionary.decode(Coding::Dcb, body),
        (Some(coding), _) => match coding {
            "zstd" => Box::new(Libzstd),
            "br" => Box::new(Brotli(BrotliLibrary::C)),
            "gzip" => Box::new(GzipZlibRs),
            other => bail!("unexpected Content-Encoding '{other}'"),
        },
    };
    decoder
        .decompress(body)
        .with_context(|| format!("a {} body does not decode", decoder.kind()))
}
