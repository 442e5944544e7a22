//! Compression Dictionary Transport (RFC 9842): a response the client kept becomes the
//! dictionary for the next request of the same resource.
//!
//! - The client names the dictionary it holds in `Available-Dictionary`, a Structured
//!   Field Byte Sequence (RFC 8941 §3.3.5: base64 between colons) of its SHA-256, and
//!   lists `dcz` in `Accept-Encoding` (RFC 9842 §2.2, §6.1).
//! - A server that holds the same dictionary answers `Content-Encoding: dcz` and
//!   `Vary: accept-encoding, available-dictionary` (§6.2). The body is a zstd skippable
//!   frame that carries the dictionary's hash (the 8 bytes `5e 2a 4d 18 20 00 00 00`, then
//!   the 32-byte SHA-256), followed by a zstd frame compressed with the dictionary as raw
//!   content (§5), with a window of at most 8 MB, which every client must accept.
//! - `dcb` (§4) is the same with brotli: the 4 bytes `ff 44 43 42`, the hash, then a
//!   brotli stream compressed with the dictionary attached as a raw shared dictionary
//!   (C brotli's prepared-dictionary calls), window 22 (at most 16 MB is allowed).
//! - A server that does not hold it answers as if no dictionary were offered.

use std::io::{self, Write};
use std::sync::Arc;

use anyhow::{bail, Context as _, Result};

use crate::codec::bounded::read_bounded;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::codec::brotli_c;

/// The first 8 bytes of a dcz body: a zstd skippable frame's magic (0x184D2A5E, little
/// endian) and its 32-byte length.
pub const DCZ_MAGIC: [u8; 8] = [0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00];

/// The first 4 bytes of a dcb body, before the hash.
pub const DCB_MAGIC: [u8; 4] = [0xff, 0x44, 0x43, 0x42];

/// The two dictionary-compressed content codings of RFC 9842.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// Brotli with a shared dictionary (§4).
    Dcb,
    /// Zstandard with a dictionary (§5).
    Dcz,
}

impl Coding {
    /// The `Content-Encoding` token.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Dcb => "dcb",
            Coding::Dcz => "dcz",
        }
    }

    fn magic(self) -> &'static [u8] {
        match self {
            Coding::Dcb => &DCB_MAGIC,
            Coding::Dcz => &DCZ_MAGIC,
        }
    }
}

/// The largest zstd window a dcz frame uses: 8 MB, which RFC 9842 §5 requires every
/// client to accept.
const WINDOW_LOG: u32 = 23;

/// A dictionary both sides hold, and its SHA-256.
#[derive(Clone, Debug)]
pub struct Dictionary {
    bytes: Arc<Vec<u8>>,
    hash: [u8; 32],
}

impl Dictionary {
    /// `bytes` as a dictionary.
    pub fn new(bytes: Vec<u8>) -> Self {
        let hash = Sha256::digest(&bytes).into();
        Dictionary {
            bytes: Arc::new(bytes),
            hash,
        }
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `Available-Dictionary` value a client holding it sends: `:<base64>:`.
    pub fn available_dictionary(&self) -> String {
        format!(
            ":{}:",
            base64::engine::general_purpose::STANDARD.encode(self.hash)
        )
    }

    /// Whether an `Available-Dictionary` value names this dictionary.
    pub fn is_named_by(&self, header: &str) -> bool {
        byte_sequence(header).is_some_and(|hash| hash == self.hash)
    }

    /// `body` as a `coding` body at `level`: the magic and the hash, then the body
    /// compressed with the dictionary.
    pub fn encode(&self, coding: Coding, body: &[u8], level: i32) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(coding.magic().len() + 32 + body.len() / 4);
        out.extend_from_slice(coding.magic());
        out.extend_from_slice(&self.hash);
        match coding {
            Coding::Dcz => {
                let mut encoder =
                    zstd::stream::write::Encoder::with_ref_prefix(out, level, &self.bytes)?;
                encoder.window_log(WINDOW_LOG)?;
                encoder.write_all(body)?;
                encoder.finish()
            }
            Coding::Dcb => {
                let quality = u8::try_from(level).map_err(io::Error::other)?;
                let stream = brotli_c::compress_with_dictionary(quality, &self.bytes, body)?;
                out.extend_from_slice(&stream);
                Ok(out)
            }
        }
    }

    /// The body of a `coding` response, checked against this dictionary's hash, at most
    /// `limit` bytes decoded (see [`crate::codec::bounded`]).
    pub fn decode(&self, coding: Coding, encoded: &[u8], limit: u64) -> Result<Vec<u8>> {
        let (name, magic) = (coding.token(), coding.magic());
        let header = magic.len() + 32;
        if encoded.len() < header || &encoded[..magic.len()] != magic {
            bail!("a {name} body must start with the {name} magic and a 32-byte hash");
        }
        if encoded[magic.len()..header] != self.hash {
            bail!("the {name} body names another dictionary than the one offered");
        }
        let stream = &encoded[header..];
        let body = match coding {
            Coding::Dcz => {
                let mut decoder =
                    zstd::stream::read::Decoder::with_ref_prefix(stream, &self.bytes)?;
                decoder.window_log_max(self.dcz_window_log_max())?;
                read_bounded(decoder, limit)
            }
            Coding::Dcb => brotli_c::decompress_with_dictionary(&self.bytes, stream, limit),
        };
        body.map_err(|error| error.naming(name))
    }

    /// The largest window a dcz frame may use with this dictionary (RFC 9842 §5): 8 MB,
    /// or 1.25 times the dictionary where that is more, up to 128 MB.
    fn dcz_window_log_max(&self) -> u32 {
        let allowed = (self.bytes.len() as u64 * 5 / 4).clamp(1 << WINDOW_LOG, 1 << 27);
        u64::BITS - (allowed - 1).leading_zeros()
    }
}

/// Where the dictionary a client holds comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Source {
    /// The payload as it was, while the server sends a version with this share (0 to 1)
    /// of its records updated.
    Previous {
        /// The share of records updated.
        changed: f64,
    },
    /// A zstd dictionary of at most this many KiB, trained on records apart from the
    /// payload's and fetched once; the server sends the payload as it is.
    Trained {
        /// The most the dictionary may hold, in KiB.
        kib: u32,
    },
}

/// Records a trained dictionary learns from.
const TRAINING_RECORDS: usize = 1000;

/// A [`Source`] made ready once for every payload: a trained dictionary is trained
/// here, not again for each payload.
pub(crate) enum Prepared {
    /// Each payload's previous version, with this share of its records updated.
    Previous {
        /// The share of records updated.
        changed: f64,
        /// Chooses the records.
        seed: u64,
    },
    /// One trained dictionary for every payload.
    Trained(Dictionary),
}

impl Prepared {
    /// `source` made ready; `seed` chooses updated records, `rng` makes training ones.
    pub(crate) fn new(source: Source, seed: i32, rng: crate::payload::RngKind) -> Result<Self> {
        Ok(match source {
            Source::Previous { changed } => Prepared::Previous {
                changed,
                seed: seed as u64,
            },
            Source::Trained { kib } => {
                let samples = crate::codec::zstd_dict::training_samples(TRAINING_RECORDS, rng);
                let trained = zstd::dict::from_samples(&samples, kib as usize * 1024)
                    .context("training the dictionary")?;
                Prepared::Trained(Dictionary::new(trained))
            }
        })
    }

    /// The body every encoding sends for `payload` (named `name`) and the dictionary
    /// the client holds.
    pub(crate) fn version(&self, name: &str, payload: &[u8]) -> Result<(Vec<u8>, Dictionary)> {
        match self {
            Prepared::Previous { changed, seed } => {
                let updated = crate::payload::change::change_records(payload, *changed, *seed)
                    .with_context(|| name.to_string())?;
                Ok((updated, Dictionary::new(payload.to_vec())))
            }
            Prepared::Trained(dictionary) => Ok((payload.to_vec(), dictionary.clone())),
        }
    }
}

/// The bytes of a Structured Field Byte Sequence (`:<base64>:`, RFC 8941 §3.3.5), or
/// `None` if `text` is not one.
pub(crate) fn byte_sequence(text: &str) -> Option<Vec<u8>> {
    let inner = text.trim().strip_prefix(':')?.strip_suffix(':')?;
    base64::engine::general_purpose::STANDARD.decode(inner).ok()
}

/// Whether an `Accept-Encoding` value lists `coding` (with a q-value above 0).
pub(crate) fn accepts(accept_encoding: &str, coding: Coding) -> bool {
    accept_encoding.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f64>().ok())
                .is_some_and(|q| q == 0.0)
        });
        name.eq_ignore_ascii_case(coding.token()) && !refused
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chromium's dcz test vector (net/filter tests): "This is compressed test data
    /// using a test dictionary" against the dictionary "A dictionary", made with
    /// `zstd -D`.
    const CHROMIUM_DCZ: [u8; 105] = [
        0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00, 0x0a, 0xa3, 0x69, 0x01, 0x4f, 0x7f, 0xab,
        0x37, 0x0b, 0xe9, 0x40, 0x74, 0x69, 0x85, 0x45, 0xc7, 0xbb, 0x93, 0x2e, 0xc4, 0x61, 0x25,
        0x27, 0x8f, 0x37, 0xbf, 0x34, 0xab, 0x02, 0xa3, 0x5a, 0xec, 0x28, 0xb5, 0x2f, 0xfd, 0x24,
        0x34, 0xa1, 0x01, 0x00, 0x54, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20, 0x63, 0x6f, 0x6d,
        0x70, 0x72, 0x65, 0x73, 0x73, 0x65, 0x64, 0x20, 0x74, 0x65, 0x73, 0x74, 0x20, 0x64, 0x61,
        0x74, 0x61, 0x20, 0x75, 0x73, 0x69, 0x6e, 0x67, 0x20, 0x61, 0x20, 0x74, 0x65, 0x73, 0x74,
        0x20, 0x64, 0x69, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x61, 0x72, 0x79, 0x9e, 0x99, 0xf2, 0xbc,
    ];

    #[test]
    fn a_dcz_body_made_by_another_encoder_decodes() {
        let dictionary = Dictionary::new(b"A dictionary".to_vec());
        let body = dictionary
            .decode(Coding::Dcz, &CHROMIUM_DCZ, 1 << 30)
            .unwrap();
        assert_eq!(
            body,
            b"This is compressed test data using a test dictionary"
        );
        assert_eq!(CHROMIUM_DCZ[8..40], dictionary.hash);
    }

    #[test]
    fn dcz_round_trips_and_starts_with_the_header() {
        let dictionary = Dictionary::new(b"{\"id\":1,\"name\":\"Customer 1\"}".repeat(40));
        let body = b"{\"id\":1,\"name\":\"Customer 2\"}".repeat(40);
        let encoded = dictionary.encode(Coding::Dcz, &body, 3).unwrap();
        assert_eq!(encoded[..8], DCZ_MAGIC);
        assert_eq!(encoded[8..40], dictionary.hash);
        assert_eq!(
            dictionary.decode(Coding::Dcz, &encoded, 1 << 30).unwrap(),
            body
        );
        let other = Dictionary::new(b"another".to_vec());
        let message = other
            .decode(Coding::Dcz, &encoded, 1 << 30)
            .unwrap_err()
            .to_string();
        assert!(message.contains("another dictionary"), "{message}");
        assert!(dictionary
            .decode(Coding::Dcz, &encoded[..20], 1 << 30)
            .is_err());
    }

    #[test]
    fn available_dictionary_is_a_structured_field_byte_sequence() {
        // RFC 9842 §2.2's example value.
        let example = ":pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=:";
        assert_eq!(byte_sequence(example).unwrap().len(), 32);
        assert_eq!(byte_sequence("pZGm1Av0"), None);
        let dictionary = Dictionary::new(b"A dictionary".to_vec());
        let header = dictionary.available_dictionary();
        assert!(header.starts_with(':') && header.ends_with(':'));
        assert!(dictionary.is_named_by(&header));
        assert!(!dictionary.is_named_by(example));
    }

    #[test]
    fn dcz_must_be_accepted_with_a_q_value_above_zero() {
        assert!(accepts("gzip, br, zstd, dcb, dcz", Coding::Dcz));
        assert!(accepts("DCZ;q=0.5", Coding::Dcz));
        assert!(!accepts("gzip, dcz;q=0", Coding::Dcz));
        assert!(!accepts("gzip, br, zstd", Coding::Dcz));
        assert!(accepts("gzip, dcb", Coding::Dcb));
        assert!(!accepts("gzip, dcz", Coding::Dcb));
    }

    /// Chromium's dcb test vector: the same text against the same dictionary, made with
    /// `brotli -D`.
    const CHROMIUM_DCB: [u8; 77] = [
        0xff, 0x44, 0x43, 0x42, 0x0a, 0xa3, 0x69, 0x01, 0x4f, 0x7f, 0xab, 0x37, 0x0b, 0xe9, 0x40,
        0x74, 0x69, 0x85, 0x45, 0xc7, 0xbb, 0x93, 0x2e, 0xc4, 0x61, 0x25, 0x27, 0x8f, 0x37, 0xbf,
        0x34, 0xab, 0x02, 0xa3, 0x5a, 0xec, 0xa1, 0x98, 0x01, 0x80, 0x22, 0xe0, 0x26, 0x4b, 0x95,
        0x5c, 0x19, 0x18, 0x9d, 0xc1, 0xc3, 0x44, 0x0e, 0x5c, 0x6a, 0x09, 0x9d, 0xf0, 0xb0, 0x01,
        0x47, 0x14, 0x87, 0x14, 0x6d, 0xfb, 0x60, 0x96, 0xdb, 0xae, 0x9e, 0x79, 0x54, 0xe3, 0x69,
        0x03, 0x29,
    ];

    #[test]
    fn a_dcb_body_made_by_another_encoder_decodes_and_ours_round_trips() {
        let dictionary = Dictionary::new(b"A dictionary".to_vec());
        let body = dictionary
            .decode(Coding::Dcb, &CHROMIUM_DCB, 1 << 30)
            .unwrap();
        assert_eq!(
            body,
            b"This is compressed test data using a test dictionary"
        );
        let previous = crate::payload::generate(30, 42, crate::payload::RngKind::Dotnet);
        let next = crate::payload::change::change_records(&previous, 0.1, 1).unwrap();
        let dictionary = Dictionary::new(previous);
        let encoded = dictionary.encode(Coding::Dcb, &next, 5).unwrap();
        assert_eq!(encoded[..4], DCB_MAGIC);
        assert_eq!(
            dictionary.decode(Coding::Dcb, &encoded, 1 << 30).unwrap(),
            next
        );
        // The dictionary is what makes it small.
        use crate::codec::Codec;
        let plain = crate::codec::Brotli(crate::codec::BrotliLibrary::C)
            .compress(5, &next)
            .unwrap();
        assert!(
            encoded.len() * 5 < plain.len(),
            "{} against {}",
            encoded.len(),
            plain.len()
        );
    }
}
