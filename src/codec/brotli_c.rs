//! brotli through `brotlic`, which compiles Google's C library from source with `cc`.

use std::io::{self, Read, Write};

use brotlic::{BrotliEncoderOptions, CompressorWriter, DecompressorReader, Quality, WindowSize};

use super::brotli::{invalid_input, WINDOW_BITS};

/// `BrotliEncoderVersion()` as `major.minor.patch`; the library packs it as
/// `major << 24 | minor << 12 | patch`.
pub(super) fn library_version() -> String {
    let packed = brotlic::BrotliEncoder::version();
    format!(
        "{}.{}.{}",
        packed >> 24,
        (packed >> 12) & 0xfff,
        packed & 0xfff
    )
}

/// Compresses with a fresh streaming encoder, as .NET's `BrotliStream` does.
pub(super) fn compress(quality: u8, input: &[u8]) -> io::Result<Vec<u8>> {
    let encoder = BrotliEncoderOptions::new()
        .quality(Quality::new(quality).map_err(invalid_input)?)
        .window_size(WindowSize::new(WINDOW_BITS as u8).map_err(invalid_input)?)
        .build()
        .map_err(invalid_input)?;
    let mut writer = CompressorWriter::with_encoder(encoder, Vec::new());
    writer.write_all(input)?;
    // into_inner() finishes the stream, as disposing the BrotliStream does.
    writer
        .into_inner()
        .map_err(|e| io::Error::other(e.to_string()))
}

/// Decompresses with a fresh streaming decoder.
pub(super) fn decompress(compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut output = Vec::new();
    DecompressorReader::new(compressed).read_to_end(&mut output)?;
    Ok(output)
}
