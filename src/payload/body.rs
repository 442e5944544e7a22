//! One body to benchmark, and the largest codecbench measures.

/// The largest body codecbench measures: 256 MiB. A benchmark holds the body, its
/// compressed form and a decompressed copy at once, besides the encoders; anything bigger
/// is not a response a server compresses per request.
pub(crate) const MAX_PAYLOAD_BYTES: u64 = 256 * 1024 * 1024;

/// One payload to benchmark: a name for the reports and its bytes.
#[derive(Clone, Debug)]
pub(crate) struct Payload {
    /// `single`, `small`, `large`, or the file's path as the user gave it.
    pub name: String,
    /// The uncompressed body.
    pub bytes: Vec<u8>,
    /// The content type a body from a HAR capture was served as.
    pub content_type: Option<String>,
}
