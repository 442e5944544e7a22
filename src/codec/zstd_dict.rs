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

use super::{compress_counting_heap, levels_of, Codec, Libzstd};

use crate::vocab::{CodecKind, Library, Variant};

/// Seeds of the training records start here, far from the measured payloads' seed.
pub(crate) const TRAINING_SEED_BASE: i32 = 1_000_000;

/// libzstd with one trained dictionary.
pub(crate) struct ZstdDict {
    kib: u32,
    dictionary: Vec<u8>,
    decoder: DecoderDictionary<'static>,
    encoders: RefCell<Vec<(i32, EncoderDictionary<'static>)>>,
}

impl ZstdDict {
    /// Trains a dictionary of at most `kib` KiB on `samples`.
    pub(crate) fn train(samples: &[Vec<u8>], kib: u32) -> io::Result<Self> {
        let dictionary = zstd::dict::from_samples(samples, kib as usize * 1024)?;
        Ok(Self::of(dictionary, kib))
    }

    /// The codec of a `dictionary` trained to at most `kib` KiB; one larger is refused.
    pub(crate) fn of_bytes(dictionary: Vec<u8>, kib: u32) -> io::Result<Self> {
        if dictionary.len() > kib as usize * 1024 {
            return Err(super::invalid_input(format!(
                "a {kib} KiB dictionary of {} bytes",
                dictionary.len()
            )));
        }
        Ok(Self::of(dictionary, kib))
    }

    fn of(dictionary: Vec<u8>, kib: u32) -> Self {
        ZstdDict {
            kib,
            decoder: DecoderDictionary::copy(&dictionary),
            dictionary,
            encoders: RefCell::new(Vec::new()),
        }
    }

    /// The trained dictionary's size in bytes (at most what was asked for).
    #[cfg(test)]
    fn dictionary_bytes(&self) -> usize {
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

impl Codec for ZstdDict {
    fn kind(&self) -> CodecKind {
        CodecKind::Zstd
    }

    fn library(&self) -> Library {
        Library::Libzstd
    }

    fn variant(&self) -> Variant {
        Variant::Dictionary { kib: self.kib }
    }

    fn version(&self) -> String {
        Libzstd.version()
    }

    fn dictionary(&self) -> Option<&[u8]> {
        Some(&self.dictionary)
    }

    levels_of!(Libzstd);

    /// The streamed call's heap beyond its output, plus the `sizeof` of a context that
    /// references the prepared dictionary and has streamed this input the same way (no
    /// size pledged), and of the prepared dictionary itself (libzstd allocates both
    /// outside the Rust heap).
    fn compress_measuring_memory(
        &self,
        level: i32,
        input: &[u8],
    ) -> io::Result<(Vec<u8>, Option<u64>)> {
        let (output, heap) = compress_counting_heap(|| Ok((self.compress(level, input)?, 0)))?;
        let held = self.with_encoder_dictionary(level, |dictionary| -> io::Result<u64> {
            let mut context = zstd::zstd_safe::CCtx::create();
            context
                .ref_cdict(dictionary.as_cdict())
                .map_err(super::zstd::zstd_error)?;
            stream_unsized(&mut context, input).map_err(super::zstd::zstd_error)?;
            Ok((context.sizeof() + dictionary.as_cdict().sizeof()) as u64)
        })?;
        Ok((output, heap.map(|heap| heap + held)))
    }

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

/// Streams `input` through `context` as the `zstd` crate's writer does: the input with
/// `ZSTD_e_continue`, then `ZSTD_e_end` with none, so that no size is pledged and the
/// context sizes itself as for a body of unknown length.
fn stream_unsized(
    context: &mut zstd::zstd_safe::CCtx<'_>,
    input: &[u8],
) -> Result<Vec<u8>, zstd::zstd_safe::ErrorCode> {
    use zstd::zstd_safe::zstd_sys::ZSTD_EndDirective::{ZSTD_e_continue, ZSTD_e_end};
    use zstd::zstd_safe::{InBuffer, OutBuffer};
    let bound = zstd::zstd_safe::compress_bound(input.len()) + 1024;
    let mut output: Vec<u8> = Vec::with_capacity(bound);
    {
        let mut out = OutBuffer::around(&mut output);
        let mut source = InBuffer::around(input);
        while source.pos() < input.len() {
            context.compress_stream2(&mut out, &mut source, ZSTD_e_continue)?;
        }
        let mut nothing = InBuffer::around(&[]);
        while context.compress_stream2(&mut out, &mut nothing, ZSTD_e_end)? != 0 {}
    }
    Ok(output)
}

/// `count` single-record bodies for training, from seeds no measured payload uses.
pub(crate) fn training_samples(count: usize, rng: crate::payload::RngKind) -> Vec<Vec<u8>> {
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
        let codec = ZstdDict::train(&samples, 4).unwrap();
        assert!(codec.dictionary_bytes() <= 4 * 1024);
        assert_eq!(codec.variant(), Variant::Dictionary { kib: 4 });
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
        // Measuring memory gives the same bytes.
        let (measured, bytes) = codec.compress_measuring_memory(1, &single).unwrap();
        assert_eq!(measured, with_dictionary);
        assert!(bytes.unwrap() > codec.dictionary_bytes() as u64);
    }
}
