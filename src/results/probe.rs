//! What `codecbench probe` writes: per URL, one row per `Accept-Encoding` it sent, with
//! what the server answered and, with `--server`, what codecbench predicted.

use serde::{Deserialize, Serialize};

use super::environment::Environment;

/// The `kind` of a probe document.
pub const PROBE_KIND: &str = "probe";

/// A whole `probe`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProbeReport {
    /// The results schema version, as `run`'s.
    pub schema_version: u32,
    /// [`PROBE_KIND`].
    pub kind: String,
    /// Where the client ran.
    pub environment: Environment,
    /// Requests per `Accept-Encoding`, at most.
    pub requests: usize,
    /// Seconds per `Accept-Encoding`, at most.
    pub duration_s: f64,
    /// Connections per `Accept-Encoding`.
    pub concurrency: usize,
    /// The server profile predictions were made for, e.g. `nginx`; `None` without.
    pub server: Option<String>,
    /// One entry per URL, in the order given.
    pub urls: Vec<UrlResult>,
}

/// Everything one URL answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UrlResult {
    /// The URL.
    pub url: String,
    /// The uncompressed body's size, from the `identity` request; `None` when it failed.
    pub identity_bytes: Option<u64>,
    /// One row per `Accept-Encoding` sent.
    pub rows: Vec<ProbeRow>,
}

/// What one `Accept-Encoding` got.
// NOTE: the CSV columns in export/probe.rs and docs/schema.md follow these fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeRow {
    /// The `Accept-Encoding` sent, e.g. `br` or a browser's `gzip, deflate, br, zstd`.
    pub accept_encoding: String,
    /// Responses received.
    pub requests: usize,
    /// The first response's status code; 0 when none came.
    pub status: u16,
    /// Its `Content-Encoding`, or `identity`.
    pub encoding: String,
    /// Its `Vary`, if any.
    pub vary: Option<String>,
    /// The body's bytes as sent (mean over the responses).
    pub body_bytes: f64,
    /// Bytes on the socket per response: status line, headers, framing, body (mean).
    pub wire_bytes: f64,
    /// With `--server`: the level whose predicted body matches (or comes nearest).
    pub predicted_level: Option<i32>,
    /// With `--server`: that level's predicted body, in bytes.
    pub predicted_body_bytes: Option<u64>,
    /// With `--server`: codecbench's median time to compress the body at that level, ms.
    pub predicted_compress_ms: Option<f64>,
    /// Time to the response's head, percentiles in ms.
    pub ttfb_p50_ms: f64,
    /// 99th percentile.
    pub ttfb_p99_ms: f64,
    /// Time to the body's last byte, percentiles in ms.
    pub total_p50_ms: f64,
    /// 99th percentile.
    pub total_p99_ms: f64,
    /// The server's time to the head beyond the `identity` request's (p50), in ms: what
    /// compressing costs it, to set beside `predicted_compress_ms`.
    pub server_extra_ms: Option<f64>,
    /// Every response's time to the last byte, in ms (JSON only).
    #[serde(default)]
    pub total_ms: Vec<f64>,
    /// Why the row failed: unreachable, a redirect, a non-2xx status, or a body that
    /// does not decode to the identity body. `None` when it did not.
    pub failure: Option<String>,
}

impl ProbeReport {
    /// Every failed row, as `URL (Accept-Encoding: X): why`.
    pub fn failures(&self) -> Vec<String> {
        self.urls
            .iter()
            .flat_map(|u| {
                u.rows.iter().filter_map(move |r| {
                    let why = r.failure.as_ref()?;
                    Some(format!(
                        "{} (Accept-Encoding: {}): {why}",
                        u.url, r.accept_encoding
                    ))
                })
            })
            .collect()
    }
}
