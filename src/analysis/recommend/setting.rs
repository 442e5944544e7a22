//! One setting's figures, as the advice uses them.

use serde::Serialize;

use super::span::Span;
use super::wire::Link;
use crate::results::CellKey;

/// One setting's figures, as the advice uses them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Setting {
    /// Which cell.
    pub key: CellKey,
    /// Compressed size in bytes.
    pub compressed_bytes: u64,
    /// Input ÷ compressed size.
    pub ratio: f64,
    /// Median seconds to compress one response.
    pub compress_s: f64,
    /// Median seconds to decompress one response.
    pub decompress_s: f64,
    /// The interval `compress_s` is known to lie in: what decisions read.
    pub compress_span: Span,
    /// The interval `decompress_s` is known to lie in.
    pub decompress_span: Span,
}

impl Setting {
    /// e.g. `zstd 1 (libzstd)`.
    pub(crate) fn name(&self) -> String {
        self.key.id.to_string()
    }

    /// Seconds from the start of compression to the end of decompression for one
    /// response sent over `link`.
    pub(crate) fn end_to_end_s(&self, link: &Link) -> f64 {
        self.compress_s
            + link.send_s(self.compressed_bytes, Some(self.key.id.codec))
            + self.decompress_s
    }

    /// [`Setting::end_to_end_s`] as an interval, from the intervals of the times.
    pub(crate) fn end_to_end_span(&self, link: &Link) -> Span {
        self.compress_span + self.delivery_span(link)
    }

    /// Seconds from the end of compression to the end of decompression, as an interval.
    pub(crate) fn delivery_span(&self, link: &Link) -> Span {
        let sent = link.send_s(self.compressed_bytes, Some(self.key.id.codec));
        Span::exactly(sent) + self.decompress_span
    }

    /// CPU cores busy compressing 1,000 responses a second: one core compresses
    /// `1 / compress_s` of them.
    pub(crate) fn cores_per_1000_per_s(&self) -> f64 {
        self.compress_s * 1000.0
    }

    /// Bytes kept off the wire by a million responses of `input_bytes` each; negative
    /// when the encoding makes bodies larger.
    pub(crate) fn bytes_saved_per_million(&self, input_bytes: u64) -> f64 {
        (input_bytes as f64 - self.compressed_bytes as f64) * 1e6
    }
}
