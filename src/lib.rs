//! codecbench: reproduces a published zstd / brotli / gzip comparison for JSON API
//! responses, and runs the same measurements on your own payloads.
//!
//! Data flows one way: payload → codec → bench (runner) → stats → results → analysis →
//! export. `cli` parses, `config` checks every input once, `commands` orchestrate.
//!
//! The modules are private, so that rustc reports what nothing uses. The binary and the
//! end-to-end tests see only the items re-exported below.

#![deny(unreachable_pub)]

mod analysis;
mod bench;
mod cli;
mod codec;
mod commands;
mod config;
mod error;
mod export;
mod format;
mod http;
mod lab;
mod live;
mod payload;
mod process;
mod results;
mod servers;
mod stats;
mod vocab;

// What the binary needs.
pub use commands::main;
pub use process::memory::CountingAllocator;

// What the end-to-end tests build their inputs and expectations with.
pub use codec::{server_codec, tower_http::TowerHttp, Codec};
pub use http::dictionary::{Coding, Dictionary, DCB_MAGIC, DCZ_MAGIC};
pub use lab::listens_alone;
pub use payload::{change::change_records, generate, sha256_hex, RngKind};
pub use vocab::CodecKind;

/// The saved-run reader, for the fuzz target (`fuzz/`): how many results `bytes` hold as
/// a saved run of any kind (at least one), or why they are not one. Never panics.
pub fn saved_run_results(bytes: &[u8]) -> anyhow::Result<usize> {
    Ok(results::parse(bytes, "fuzz", "fuzz")?.results.len())
}

/// Unit tests count heap bytes too, as the binary does.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: process::memory::CountingAllocator = process::memory::CountingAllocator;
