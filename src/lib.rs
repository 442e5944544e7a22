//! codecbench: reproduces a published zstd / brotli / gzip comparison for JSON API
//! responses, and runs the same measurements on your own payloads.
//!
//! Data flows one way: payload → codec → runner → stats → report.

pub mod bench;
pub mod codec;
pub mod payload;
