//! What `codecbench http` writes: per payload, one result per encoding, with the load
//! it was measured under.

use serde::{Deserialize, Serialize};

/// What one encoding measured.
// NOTE: the `http_` CSV columns in export/http.rs and docs/schema.md follow these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct EncodingResult {
    /// `zstd:1`, …, `identity`.
    pub encoding: String,
    /// Responses received and verified.
    pub requests: usize,
    /// Requests per second over the whole load.
    pub requests_per_s: f64,
    /// Latency percentiles, from sending the request to the last body byte, in ms.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Bytes that arrived on the socket per response: status line, headers, chunk
    /// framing and body (mean).
    pub wire_bytes: f64,
    /// The encoded body's bytes (mean).
    pub body_bytes: f64,
    /// The server thread's CPU time per response, in ms: routing, building the body,
    /// compressing it and writing it; `None` where the OS has no per-thread CPU clock.
    pub server_cpu_ms: Option<f64>,
    /// Every response's latency in ms, in the order they completed (JSON only), so that
    /// `compare` can judge a change against the spread.
    #[serde(default)]
    pub latencies_ms: Vec<f64>,
    /// Requests that failed (refused, cut off, timed out, or a body that did not
    /// check); the load went on after each. Their latencies are not in the figures.
    #[serde(default)]
    pub errors: usize,
    /// The first failure's message, if any.
    #[serde(default)]
    pub first_error: Option<String>,
}

/// The load settings, as saved with the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct LoadSettings {
    /// Connections per encoding.
    pub concurrency: usize,
    /// The request count asked for, if any.
    pub requests: Option<usize>,
    /// The duration asked for, in seconds, if any.
    pub duration_s: Option<f64>,
    /// The shaped link speed in Mbit/s; `None` for plain loopback.
    pub bandwidth_mbit: Option<f64>,
}

/// Describes a load for matching results across runs: `1 connection, 10 Mbit/s` or
/// `4 connections, unshaped`. Runs under different loads do not compare.
pub(crate) fn load_label(concurrency: usize, bandwidth_mbit: Option<f64>) -> String {
    let connections = if concurrency == 1 {
        "1 connection".to_string()
    } else {
        format!("{concurrency} connections")
    };
    match bandwidth_mbit {
        Some(mbit) => format!("{connections}, {mbit} Mbit/s"),
        None => format!("{connections}, unshaped"),
    }
}

/// The `kind` of a JSON document written by `http --json`.
pub(crate) const HTTP_KIND: &str = "http";

/// Everything `http` measured on one payload.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct HttpPayloadResult {
    /// `single`, `small`, `large`, or the file path.
    pub payload: String,
    /// Uncompressed size in bytes.
    pub input_bytes: u64,
    /// SHA-256 of the uncompressed body, lower-case hex; `None` when read from CSV.
    pub sha256: Option<String>,
    /// True when a stop request cut the payload short.
    #[serde(default)]
    pub interrupted: bool,
    /// One entry per encoding, in the order they ran.
    pub encodings: Vec<EncodingResult>,
}

/// The JSON document of `http --json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct HttpReport {
    /// The same [`super::run::SCHEMA_VERSION`] as `run`'s documents.
    pub schema_version: u32,
    /// Always [`HTTP_KIND`]: tells these documents from `run`'s.
    pub kind: String,
    /// Where and with what it ran.
    pub environment: crate::results::environment::Environment,
    /// Seed of the record generator.
    pub seed: i32,
    /// Random stream of the record generator.
    pub rng: String,
    /// The load each encoding was measured under.
    pub load: LoadSettings,
    /// One entry per payload, in the order they ran.
    pub payloads: Vec<HttpPayloadResult>,
}
