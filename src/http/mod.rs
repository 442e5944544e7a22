//! `codecbench http`: the codecs measured through a real HTTP/1.1 server and client on
//! loopback.
//!
//! For each encoding, an axum server on `127.0.0.1:0` serves the payload as a dynamic
//! response (the body is built anew for every request) through tower-http's
//! `CompressionLayer`, configured for that one encoding and quality, the way ASP.NET
//! Core's response-compression middleware sits in front of an endpoint. hyper clients
//! send `Accept-Encoding` for that encoding, check `Content-Encoding`, count every byte
//! that arrives on the socket (status line, headers, chunk framing and body), decode the
//! body with codecbench's own codecs and compare it with the payload byte for byte.
//!
//! The load is bounded by a request count or a duration, whichever is given, and always
//! by [`MAX_REQUESTS`] and [`MAX_DURATION`]; it stops by itself.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::results::http::{EncodingResult, LoadSettings};

/// The most requests one encoding may send, whatever the options say.
pub(crate) const MAX_REQUESTS: usize = 1_000_000;
/// The longest one encoding may run, whatever the options say.
pub(crate) const MAX_DURATION: Duration = Duration::from_secs(600);

mod client;
pub(crate) mod dictionary;
mod encoding;
mod offer;
pub(crate) mod probe;
pub(crate) mod probing;
pub(crate) mod serve;
mod server;
mod shaping;
mod tls;

use crate::vocab::Encoding;
use client::measure_encoding;
use dictionary::Dictionary;
use encoding::decode;
use server::{start_server, ServerThread};
use shaping::{Counting, Throttled};

/// How often a request in flight looks for a stop request.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Resolves once a stop (Ctrl-C, SIGTERM) is requested.
async fn stopped() {
    while !crate::process::interrupt::requested() {
        tokio::time::sleep(STOP_POLL).await;
    }
}

/// How much load to send per encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Load {
    /// Connections, each sending one request at a time.
    pub concurrency: usize,
    /// Stop after this many requests in all, if given.
    pub requests: Option<usize>,
    /// Stop after this long, if given.
    pub duration: Option<Duration>,
    /// Shape each connection's server-to-client stream to this many Mbit/s (10^6 bits
    /// per second) with a token bucket, if given.
    pub bandwidth_mbit: Option<f64>,
}

/// The load as saved with the results.
impl From<Load> for LoadSettings {
    fn from(load: Load) -> Self {
        LoadSettings {
            concurrency: load.concurrency,
            requests: load.requests,
            duration_s: load.duration.map(|d| d.as_secs_f64()),
            bandwidth_mbit: load.bandwidth_mbit,
        }
    }
}

/// What the server sends, and the dictionary a client already holds, if any (RFC 9842:
/// for `dcz`, the client's previous version of the resource).
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    /// The body the server sends for every request.
    pub body: Arc<Vec<u8>>,
    /// A dictionary both sides hold, for `dcz` encodings.
    pub dictionary: Option<Dictionary>,
}

/// Measures every encoding in turn on `payload` (compressed against `dictionary` for
/// `dcz`), calling `on_result` after each.
pub(crate) fn measure(
    payload: &[u8],
    dictionary: Option<Dictionary>,
    encodings: &[Encoding],
    load: Load,
    on_result: &mut dyn FnMut(&EncodingResult) -> Result<()>,
) -> Result<Vec<EncodingResult>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let server = ServerThread::start()?;
    let resource = Resource {
        body: Arc::new(payload.to_vec()),
        dictionary,
    };
    let mut results = Vec::new();
    for &encoding in encodings {
        if crate::process::interrupt::requested() {
            break;
        }
        let result =
            runtime.block_on(measure_encoding(&server, resource.clone(), encoding, load))?;
        on_result(&result)?;
        results.push(result);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::{TcpListener, TcpStream};

    #[test]
    fn encodings_parse_with_their_ranges() {
        assert_eq!(Encoding::parse("zstd:1").unwrap(), Encoding::Zstd(1));
        assert_eq!(Encoding::parse("br:11").unwrap(), Encoding::Br(11));
        assert_eq!(Encoding::parse("identity").unwrap(), Encoding::Identity);
        assert_eq!(Encoding::parse("auto").unwrap(), Encoding::Auto);
        assert_eq!(Encoding::Gzip(6).label(), "gzip:6");
        for bad in ["zstd", "zstd:x", "lz4:1", "br:12", "gzip:10", "zstd:0"] {
            assert!(Encoding::parse(bad).is_err(), "{bad}");
        }
    }

    /// On tokio's paused clock: 100,000 bytes at 10 Mbit/s take the bucket's 16 KiB
    /// burst at once and the rest at 1.25 MB/s.
    #[tokio::test(start_paused = true)]
    async fn the_bucket_paces_writes_to_the_rate() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let reader = tokio::spawn(async move {
            let mut received = Vec::new();
            client.read_to_end(&mut received).await.unwrap();
            received.len()
        });
        let mut throttled = Throttled::new(server, 10.0);
        let start = tokio::time::Instant::now();
        throttled.write_all(&vec![7u8; 100_000]).await.unwrap();
        throttled.shutdown().await.unwrap();
        let elapsed = start.elapsed();
        assert_eq!(reader.await.unwrap(), 100_000);
        let expected = Duration::from_secs_f64((100_000.0 - 16_384.0) / 1.25e6);
        // tokio's timer rounds each of the ~6 waits up to a whole millisecond.
        assert!(
            elapsed >= expected && elapsed <= expected + Duration::from_millis(7),
            "{elapsed:?} against {expected:?}"
        );
    }

    #[test]
    fn negotiation_follows_asp_net_core_preference_and_q_values() {
        let payload = crate::payload::generate(10, 42, crate::payload::RngKind::Dotnet);
        let cases = [
            (crate::vocab::BROWSER_ACCEPT_ENCODING, Some("zstd")),
            ("gzip, br", Some("br")),
            ("gzip", Some("gzip")),
            ("zstd;q=0, br;q=0, gzip", Some("gzip")),
            ("br;q=0, gzip, zstd", Some("zstd")),
            ("zstd;q=0.5, br;q=1.0, gzip;q=0.8", Some("br")),
            ("gzip;q=0.9, br;q=0.9, zstd;q=0.9", Some("zstd")),
            ("identity", None),
            ("deflate", None),
        ];
        for (accept, expected) in cases {
            let chosen = client::negotiate(&payload, accept).unwrap();
            assert_eq!(chosen.as_deref(), expected, "Accept-Encoding: {accept}");
        }
    }

    #[test]
    fn every_encoding_round_trips_through_a_real_server() {
        let payload = crate::payload::generate(100, 42, crate::payload::RngKind::Dotnet);
        let encodings = [
            Encoding::Zstd(1),
            Encoding::Br(4),
            Encoding::Gzip(1),
            Encoding::Identity,
            Encoding::Auto,
        ];
        let load = Load {
            concurrency: 2,
            requests: Some(24),
            duration: None,
            bandwidth_mbit: None,
        };
        let results = measure(&payload, None, &encodings, load, &mut |_| Ok(())).unwrap();
        assert_eq!(results.len(), 5);
        for result in &results {
            assert_eq!(result.requests, 24, "{}", result.encoding);
            assert_eq!(result.latencies_ms.len(), 24);
            // The status line, a handful of headers and the chunk framing: more than
            // 50 bytes, well under a kilobyte.
            let overhead = result.wire_bytes - result.body_bytes;
            assert!(overhead > 50.0 && overhead < 1024.0, "{result:?}");
            #[cfg(unix)]
            assert!(
                result.server_cpu_ms.is_some_and(|ms| ms > 0.0),
                "{result:?}"
            );
        }
        let identity = &results[3];
        assert_eq!(identity.body_bytes, payload.len() as f64);
        for compressed in results[..3].iter().chain(&results[4..]) {
            assert!(
                compressed.body_bytes < identity.body_bytes / 3.0,
                "{compressed:?}"
            );
        }
    }
}
