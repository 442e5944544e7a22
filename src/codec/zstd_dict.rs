//! zstd with a trained dictionary, for small responses.
//!
//! The dictionary is trained once, with libzstd's `ZDICT_trainFromBuffer` (the `zstd`
//! crate's `dict::from_samples`), on generated records kept apart from the ones measured,
//! and prepared once per level (`ZSTD_createCDict`, `ZSTD_createDDict`), as a server would
//! at start-up. Each response still gets a fresh encoder or decoder that references the
//! prepared dictionary, inside the timed region.

use std::cell::RefCell;
use std::io::{self, Read, Write};

use zstd::dict::{DecoderDictionary, EncoderDictionary};

use super::{levels_of, Codec, CodecKind, Libzstd};

/// Seeds of the training records start here, far from the measured payloads' seed.
pub const TRAINING_SEED_BASE: i32 = 1_000_000;

/// libzstd with one trained dictionary.
pub struct ZstdDict {
    label: String,
    dictionary: Vec<u8>,
    decoder: DecoderDictionary<'static>,
    encoders: RefCell<Vec<(i32, EncoderDictionary<'static>)>>,
}

impl ZstdDict {
    /// Trains a dictionary of at most `max_bytes` on `samples`.
    pub fn train(samples: &[Vec<u8>], max_bytes: usize) -> io::Result<Self> {
        let dictionary = zstd::dict::from_samples(samples, max_bytes)?;
        Ok(ZstdDict {
            label: size_label(max_bytes),
            decoder: DecoderDictionary::copy(&dictionary),
            dictionary,
            encoders: RefCell::new(Vec::new()),
        })
    }

    /// The trained dictionary's size in bytes (at most what was asked for).
    pub fn dictionary_bytes(&self) -> usize {
        self.dictionary.len()
    }

    fn with_encoder_dictionary<T>(
        &self,
        level: i32,
        use_it: impl FnOnce(&EncoderDictionary<'static>) -> T,
    ) -> T {
        let mut encoders = self.encoders.borrow_mut();
        let index = match encoders.iter().position(|(l, _)| *l == level) {
            Some(index) => index,
            None => {
                encoders.push((level, EncoderDictionary::copy(&self.dictionary, level)));
                encoders.len() - 1
            }
        };
        use_it(&encoders[index].1)
    }
}

/// `1 KiB`, `64 KiB`, or bytes when not a whole number of KiB.
fn size_label(bytes: usize) -> String {
    if bytes.is_multiple_of(1024) {
        format!("{}KiB", bytes / 1024)
    } else {
        format!("{bytes}B")
    }
}

impl Codec for ZstdDict {
    fn kind(&self) -> CodecKind {
        CodecKind::Zstd
    }

    /// e.g. `libzstd+dict4KiB 1.5.7`: its own library name, so that runs keep it apart
    /// from plain zstd.
    fn implementation(&self) -> String {
        format!(
            "libzstd+dict{} {}",
            self.label,
            ::zstd::zstd_safe::version_string()
        )
    }

    levels_of!(Libzstd);

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        self.with_encoder_dictionary(level, |dictionary| {
            let mut encoder =
                zstd::stream::write::Encoder::with_prepared_dictionary(Vec::new(), dictionary)?;
            encoder.write_all(input)?;
            encoder.finish()
        })
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        let mut decoder =
            zstd::stream::read::Decoder::with_prepared_dictionary(compressed, &self.decoder)?;
        let mut output = Vec::new();
        decoder.read_to_end(&mut output)?;
        Ok(output)
    }
}

/// `count` single-record bodies for training, from seeds no measured payload uses.
pub fn training_samples(count: usize, rng: crate::payload::RngKind) -> Vec<Vec<u8>> {
    (0..count as i32)
        .map(|i| crate::payload::generate(1, TRAINING_SEED_BASE + i, rng))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payload::{generate, RngKind};

    #[test]
    fn a_dictionary_makes_one_record_much_smaller_and_round_trips() {
        let samples = training_samples(1000, RngKind::Dotnet);
        let codec = ZstdDict::train(&samples, 4 * 1024).unwrap();
        assert!(codec.dictionary_bytes() <= 4 * 1024);
        assert_eq!(
            codec.implementation().split(' ').next(),
            Some("libzstd+dict4KiB")
        );
        let single = generate(1, 42, RngKind::Dotnet);
        let plain = Libzstd.compress(1, &single).unwrap();
        let with_dictionary = codec.compress(1, &single).unwrap();
        assert!(
            with_dictionary.len() * 2 < plain.len(),
            "{} vs {} bytes",
            with_dictionary.len(),
            plain.len()
        );
        assert_eq!(codec.decompress(&with_dictionary).unwrap(), single);
        // Prepared once per level, then reused.
        codec.compress(1, &single).unwrap();
        codec.compress(3, &single).unwrap();
        assert_eq!(codec.encoders.borrow().len(), 2);
    }
}
