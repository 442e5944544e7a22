//! What `codecbench probe` writes: per URL, one row per `Accept-Encoding` it sent, with
//! what the server answered and, with `--server`, what codecbench predicted.

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use super::environment::Environment;
use super::timing::Timing;

/// The `kind` of a probe document.
pub(crate) const PROBE_KIND: &str = "probe";

/// A whole `probe`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ProbeReport {
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
    /// Whether a stop request (Ctrl-C, SIGTERM) ended the probe before every URL and
    /// `Accept-Encoding` was done: the rows are those finished, the one in flight
    /// marked as stopped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// Everything one URL answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct UrlResult {
    /// The URL.
    pub url: String,
    /// The uncompressed body's size, from the `identity` request; `None` when it failed.
    pub identity_bytes: Option<u64>,
    /// One row per `Accept-Encoding` sent.
    pub rows: Vec<ProbeRow>,
    /// The dictionary the `dcz` and `dcb` rows offered, when the server linked one (or
    /// `--dictionary` named it); `None` when there was none, and no such rows.
    #[serde(default)]
    pub dictionary: Option<OfferedDictionary>,
}

/// A dictionary a server offered for a URL (RFC 9842).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct OfferedDictionary {
    /// Where it was fetched from.
    pub url: String,
    /// Its size; `None` when it could not be fetched.
    pub bytes: Option<u64>,
}

/// What one `Accept-Encoding` got.
// NOTE: the CSV columns in export/probe.rs and docs/schema.md follow these fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ProbeRow {
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
    pub(crate) fn failures(&self) -> Vec<String> {
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

/// Identifies one probe row across saved probes: the URL and the `Accept-Encoding` sent.
/// What the server chose to send is a finding, not part of the identity: a change of
/// encoding shows as a change of size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub(crate) struct ProbeKey {
    /// The URL.
    pub url: String,
    /// The `Accept-Encoding` sent.
    pub accept_encoding: String,
}

impl ProbeKey {
    /// Whether this is the `identity` request every other row of its URL is judged
    /// against.
    pub(crate) fn is_identity(&self) -> bool {
        self.accept_encoding == "identity"
    }
}

impl std::fmt::Display for ProbeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (Accept-Encoding: {})",
            self.url, self.accept_encoding
        )
    }
}

/// One row of a saved probe, read where it lies in the document.
#[derive(Clone, Debug)]
pub(crate) struct ProbeCell<'a> {
    /// Which URL and `Accept-Encoding`.
    pub key: ProbeKey,
    /// The URL it was sent to.
    pub url: &'a UrlResult,
    /// What the server answered.
    pub row: &'a ProbeRow,
}

impl<'a> ProbeCell<'a> {
    /// The identity body's size; 0 when the identity request failed.
    pub(crate) fn input_bytes(&self) -> u64 {
        self.url.identity_bytes.unwrap_or(0)
    }

    /// The body's bytes as sent, rounded to a byte.
    pub(crate) fn body_bytes(&self) -> u64 {
        self.row.body_bytes.round() as u64
    }

    /// Time to the body's last byte: the median is the p50, the samples every
    /// response's (JSON only).
    pub(crate) fn latency(&self) -> Timing<'a> {
        Timing::of_ms(self.row.total_p50_ms, &self.row.total_ms)
    }
}

impl ProbeReport {
    /// Refuses what no probe writes: an empty identity body, negative sizes, and times
    /// of a row that did not fail that are not above 0.
    pub(crate) fn validate(&self) -> Result<()> {
        for url in &self.urls {
            if url.identity_bytes == Some(0) {
                bail!("{}: identity_bytes must be above 0", url.url);
            }
            for row in url.rows.iter().filter(|r| r.failure.is_none()) {
                let at = || format!("{} (Accept-Encoding: {})", url.url, row.accept_encoding);
                if !(row.body_bytes >= 0.0 && row.wire_bytes >= 0.0) {
                    bail!("{}: sizes must not be negative", at());
                }
                let times = std::iter::once(row.total_p50_ms).chain(row.total_ms.iter().copied());
                if let Some(bad) = times.into_iter().find(|t| !(t.is_finite() && *t > 0.0)) {
                    bail!("{}: time {bad} ms must be above 0", at());
                }
            }
        }
        Ok(())
    }
}
