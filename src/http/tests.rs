//! Tests of the loopback benchmark across its files: encodings, shaping, negotiation
//! and round trips through a real server.

use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use super::client;
use super::load::Load;
use super::measure::measure;
use super::shaping::Throttled;
use crate::vocab::Encoding;

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
