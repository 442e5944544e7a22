//! The clients: hyper connections that send requests, verify every body and time it;
//! one encoding's load, and negotiation.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::*;
use crate::stats::percentile;

/// One response, as the client saw it.
pub(super) struct Sample {
    pub(super) latency: Duration,
    pub(super) wire_bytes: u64,
    pub(super) body_bytes: u64,
}

/// One connection's loop: requests until `claim` says stop, verifying every body.
pub(super) async fn client(
    address: std::net::SocketAddr,
    encoding: Encoding,
    payload: Arc<Vec<u8>>,
    claim: Arc<dyn Fn() -> bool + Send + Sync>,
) -> Result<Vec<Sample>> {
    let stream = TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let read = Arc::new(AtomicU64::new(0));
    let io = TokioIo::new(Counting {
        stream,
        read: read.clone(),
    });
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await?;
    tokio::spawn(connection);
    let mut samples = Vec::new();
    while claim() {
        let request = hyper::Request::get("/payload")
            .header(hyper::header::HOST, address.to_string())
            .header(hyper::header::ACCEPT_ENCODING, encoding.accept_encoding())
            .body(Empty::<Bytes>::new())?;
        // hyper 1.x lets one request through before the connection is ready; waiting for
        // readiness first makes every later one safe ("connection was not ready").
        sender.ready().await?;
        let before = read.load(Ordering::Relaxed);
        let start = Instant::now();
        let response = sender.send_request(request).await?;
        let status = response.status();
        let content_encoding = response
            .headers()
            .get(hyper::header::CONTENT_ENCODING)
            .map(|v| v.to_str().unwrap_or("?").to_string());
        let body = response.into_body().collect().await?.to_bytes();
        let latency = start.elapsed();
        let wire_bytes = read.load(Ordering::Relaxed) - before;

        if status != hyper::StatusCode::OK {
            bail!("{}: the server answered {status}", encoding.label());
        }
        let expected = encoding.expected_content_encoding().map(String::from);
        if content_encoding != expected {
            bail!(
                "{}: Content-Encoding was {:?}, expected {:?}",
                encoding.label(),
                content_encoding,
                expected
            );
        }
        let decoded =
            decode(content_encoding.as_deref(), &body).with_context(|| encoding.label())?;
        if decoded != *payload {
            bail!(
                "{}: the decoded body ({} bytes) differs from the payload ({} bytes)",
                encoding.label(),
                decoded.len(),
                payload.len()
            );
        }
        samples.push(Sample {
            latency,
            wire_bytes,
            body_bytes: body.len() as u64,
        });
    }
    Ok(samples)
}

/// Starts the `auto` server, sends one request with `accept_encoding`, checks that the
/// body decodes to `payload`, and returns the `Content-Encoding` the server chose
/// (`None` for an uncompressed answer).
pub fn negotiate(payload: &[u8], accept_encoding: &str) -> Result<Option<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let server = ServerThread::start()?;
    runtime.block_on(async {
        let payload = Arc::new(payload.to_vec());
        let (address, stop) =
            start_server(&server.handle, payload.clone(), Encoding::Auto, None).await?;
        let stream = TcpStream::connect(address).await?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        let request = hyper::Request::get("/payload")
            .header(hyper::header::HOST, address.to_string())
            .header(hyper::header::ACCEPT_ENCODING, accept_encoding)
            .body(Empty::<Bytes>::new())?;
        sender.ready().await?;
        let response = sender.send_request(request).await?;
        let chosen = response
            .headers()
            .get(hyper::header::CONTENT_ENCODING)
            .map(|v| v.to_str().unwrap_or("?").to_string());
        let body = response.into_body().collect().await?.to_bytes();
        let _ = stop.send(());
        if decode(chosen.as_deref(), &body)? != *payload {
            bail!("the {chosen:?} body does not decode to the payload");
        }
        Ok(chosen)
    })
}

/// Runs the load for one encoding against its own server.
pub(super) async fn measure_encoding(
    server: &ServerThread,
    payload: Arc<Vec<u8>>,
    encoding: Encoding,
    load: Load,
) -> Result<EncodingResult> {
    let (address, stop) = start_server(
        &server.handle,
        payload.clone(),
        encoding,
        load.bandwidth_mbit,
    )
    .await?;
    let budget = load.requests.unwrap_or(MAX_REQUESTS).min(MAX_REQUESTS);
    let deadline = Instant::now() + load.duration.unwrap_or(MAX_DURATION).min(MAX_DURATION);
    let claimed = Arc::new(AtomicUsize::new(0));
    let claim: Arc<dyn Fn() -> bool + Send + Sync> = Arc::new(move || {
        Instant::now() < deadline
            && claimed.fetch_add(1, Ordering::Relaxed) < budget
            && !crate::bench::interrupt::requested()
    });
    let cpu_before = server.cpu_time().await;
    let start = Instant::now();
    let clients: Vec<_> = (0..load.concurrency.max(1))
        .map(|_| tokio::spawn(client(address, encoding, payload.clone(), claim.clone())))
        .collect();
    let mut samples = Vec::new();
    for handle in clients {
        samples.extend(handle.await.context("a client task failed")??);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu_after = server.cpu_time().await;
    let _ = stop.send(());

    let n = samples.len().max(1) as f64;
    let mut latencies: Vec<f64> = samples
        .iter()
        .map(|s| s.latency.as_secs_f64() * 1e3)
        .collect();
    latencies.sort_by(f64::total_cmp);
    Ok(EncodingResult {
        encoding: encoding.label(),
        requests: samples.len(),
        requests_per_s: samples.len() as f64 / elapsed.max(1e-9),
        p50_ms: percentile(&latencies, 50.0),
        p90_ms: percentile(&latencies, 90.0),
        p99_ms: percentile(&latencies, 99.0),
        wire_bytes: samples.iter().map(|s| s.wire_bytes as f64).sum::<f64>() / n,
        body_bytes: samples.iter().map(|s| s.body_bytes as f64).sum::<f64>() / n,
        server_cpu_ms: match (cpu_before, cpu_after) {
            (Some(before), Some(after)) if !samples.is_empty() => {
                Some(after.saturating_sub(before).as_secs_f64() * 1e3 / n)
            }
            _ => None,
        },
        latencies_ms: samples
            .iter()
            .map(|s| s.latency.as_secs_f64() * 1e3)
            .collect(),
    })
}
