//! codecbench: reproduces a published zstd / brotli / gzip comparison for JSON API
//! responses, and runs the same measurements on your own payloads.
//!
//! Data flows one way: payload → codec → runner → stats → report.

pub mod app;
pub mod bench;
pub mod cli;
pub mod codec;
pub mod compare;
pub mod config;
pub mod environment;
pub mod exit_codes;
pub mod http;
pub mod merge;
pub mod payload;
pub mod progress;
pub mod recommend;
pub mod report;
pub mod reproduce;
pub mod runs;
pub mod zstd_params;

/// Unit tests count heap bytes too, as the binary does.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: bench::memory::CountingAllocator = bench::memory::CountingAllocator;
