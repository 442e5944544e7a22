//! What every analysis across runs reads of one result, written once for the three kinds
//! of cursor: a codec cell ([`RunCell`]), an HTTP encoding ([`HttpCell`]) and a probe row
//! ([`ProbeCell`]). `compare` and `merge` each add what only they need.

use std::hash::Hash;

use super::probe::{ProbeCell, ProbeKey};
use super::{CellKey, HttpCell, HttpKey, RunCell};
use crate::vocab::{CellId, CodecKind, Encoding};

/// One result as an analysis across runs reads it.
pub(crate) trait Cursor {
    /// What identifies it across runs.
    type Key: Eq + Hash + Clone;
    /// Its identity across runs: two results with one key are the same result.
    fn key(&self) -> &Self::Key;
    /// Where its reference is found: its payload and load, or its URL. Results of one
    /// context can be each other's reference.
    fn context(&self) -> (&str, &str);
    /// The payload's name, or the URL.
    fn payload(&self) -> &str;
    /// Uncompressed bytes.
    fn input_bytes(&self) -> u64;
    /// Compressed or body bytes.
    fn size(&self) -> u64;
    /// Why it failed, if it did.
    fn failure(&self) -> Option<&str>;
    /// Whether it is the reference of its context for `--normalize-to CODEC:LEVEL`. A
    /// probe row's is its own probe's identity request, whatever that names.
    fn is_reference(&self, codec: CodecKind, level: i32) -> bool;
    /// Input ÷ compressed size.
    fn ratio(&self) -> f64 {
        self.input_bytes() as f64 / self.size().max(1) as f64
    }
}

impl Cursor for RunCell<'_> {
    type Key = CellKey;
    fn key(&self) -> &CellKey {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.payload, "")
    }
    fn payload(&self) -> &str {
        &self.key.payload
    }
    fn input_bytes(&self) -> u64 {
        RunCell::input_bytes(self)
    }
    fn size(&self) -> u64 {
        self.cell.compressed_bytes
    }
    fn failure(&self) -> Option<&str> {
        RunCell::failure(self)
    }
    fn is_reference(&self, codec: CodecKind, level: i32) -> bool {
        self.key.id == CellId::reference(codec, level)
    }
    fn ratio(&self) -> f64 {
        RunCell::ratio(self)
    }
}

impl Cursor for HttpCell<'_> {
    type Key = HttpKey;
    fn key(&self) -> &HttpKey {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.payload, &self.key.load)
    }
    fn payload(&self) -> &str {
        &self.key.payload
    }
    fn input_bytes(&self) -> u64 {
        self.payload.input_bytes
    }
    fn size(&self) -> u64 {
        self.body_bytes()
    }
    fn failure(&self) -> Option<&str> {
        None
    }
    fn is_reference(&self, codec: CodecKind, level: i32) -> bool {
        self.key.encoding == Encoding::of(codec, level)
    }
}

impl Cursor for ProbeCell<'_> {
    type Key = ProbeKey;
    fn key(&self) -> &ProbeKey {
        &self.key
    }
    fn context(&self) -> (&str, &str) {
        (&self.key.url, "")
    }
    fn payload(&self) -> &str {
        &self.key.url
    }
    fn input_bytes(&self) -> u64 {
        ProbeCell::input_bytes(self)
    }
    fn size(&self) -> u64 {
        self.body_bytes()
    }
    fn failure(&self) -> Option<&str> {
        self.row.failure.as_deref()
    }
    fn is_reference(&self, _: CodecKind, _: i32) -> bool {
        self.key.is_identity()
    }
}
