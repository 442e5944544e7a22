//! Which way a speed was measured: a codec's two directions, or an HTTP response.

use serde::Serialize;

/// One speed's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Direction {
    /// Compression.
    Compress,
    /// Decompression.
    Decompress,
    /// An HTTP response, request to last byte.
    HttpLatency,
}

impl Direction {
    /// For summaries.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Direction::Compress => "compress",
            Direction::Decompress => "decompress",
            Direction::HttpLatency => "http latency",
        }
    }
}
