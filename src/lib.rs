//! codecbench: reproduces a published zstd / brotli / gzip comparison for JSON API
//! responses, and runs the same measurements on your own payloads.
//!
//! Data flows one way: payload → codec → bench (runner) → stats → results → analysis →
//! export. `cli` parses, `config` checks every input once, `commands` orchestrate.

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod codec;
pub mod commands;
pub mod config;
pub mod error;
pub mod export;
pub mod format;
pub mod http;
pub mod payload;
pub mod process;
pub mod results;
pub mod stats;
pub mod vocab;

/// Unit tests count heap bytes too, as the binary does.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: process::memory::CountingAllocator = process::memory::CountingAllocator;
