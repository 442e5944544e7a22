//! How `http` sends an encoding: negotiation tokens, tower-http's layer, and decoding
//! what arrives. The encoding itself is [`crate::vocab::Encoding`].

use anyhow::{bail, Result};
use tower_http::compression::{CompressionLayer, CompressionLevel};

use super::dictionary::{Coding, Dictionary};
use crate::codec::bounded::{read_bounded, Overrun};
use crate::vocab::{Encoding, AUTO_LEVEL, BROWSER_ACCEPT_ENCODING};

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

/// The largest zstd window a `zstd` body may use, 8 MB (2^23): RFC 9659 §3 holds HTTP's
/// zstd coding to it, and Chromium refuses a larger one, so probe reports it too.
const ZSTD_WINDOW_LOG_MAX: u32 = 23;

/// Decodes `body` sent with `content_encoding` (case-insensitive, as RFC 9110 §8.4.1
/// says codings are), `dcz` or `dcb` with `dictionary`, the one the request offered;
/// at most `limit` bytes of output, a chunk at a time, so that no bomb can exhaust
/// memory (see [`crate::codec::bounded`]).
pub(crate) fn decode(
    content_encoding: Option<&str>,
    body: &[u8],
    dictionary: Option<&Dictionary>,
    limit: u64,
) -> Result<Vec<u8>> {
    let coding =
        content_encoding.map_or_else(|| "identity".into(), |c| c.trim().to_ascii_lowercase());
    let decoded = match (coding.as_str(), dictionary) {
        ("identity", _) if body.len() as u64 > limit => Err(Overrun::TooLarge { limit }),
        ("identity", _) => Ok(body.to_vec()),
        ("gzip" | "x-gzip", _) => read_bounded(flate2::read::GzDecoder::new(body), limit),
        ("br", _) => read_bounded(brotlic::DecompressorReader::new(body), limit),
        ("zstd", _) => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(body)?;
            decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            read_bounded(decoder, limit)
        }
        ("dcz", Some(dictionary)) => return dictionary.decode(Coding::Dcz, body, limit),
        ("dcb", Some(dictionary)) => return dictionary.decode(Coding::Dcb, body, limit),
        ("dcz" | "dcb", None) => bail!("a {coding} body came, but no dictionary was offered"),
        (other, _) => bail!("unexpected Content-Encoding '{other}'"),
    };
    decoded.map_err(|error| error.naming(&coding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Codec, Libzstd};

    #[test]
    fn codings_are_case_insensitive_and_x_gzip_is_gzip() {
        let body = b"{\"a\":1}".repeat(100);
        let gzip = crate::codec::GzipZlibRs.compress(1, &body).unwrap();
        for coding in ["gzip", "GZIP", " Gzip ", "x-gzip"] {
            assert_eq!(
                decode(Some(coding), &gzip, None, 800).unwrap(),
                body,
                "{coding}"
            );
        }
    }

    #[test]
    fn a_bomb_stops_one_byte_past_the_limit() {
        let huge = vec![0u8; 8 << 20];
        let zstd = Libzstd.compress(19, &huge).unwrap();
        let error = decode(Some("zstd"), &zstd, None, 1000).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the zstd body decodes to more than 1,000 bytes"
        );
        assert_eq!(
            decode(Some("zstd"), &zstd, None, 8 << 20).unwrap().len(),
            8 << 20
        );
        let error = decode(None, &huge, None, 10).unwrap_err();
        assert!(error.to_string().contains("identity"), "{error}");
        let error = decode(Some("dcz"), &zstd, None, 10).unwrap_err();
        assert!(error.to_string().contains("no dictionary"), "{error}");
    }
}
