//! The clients: hyper connections that send requests, verify every body and time it;
//! one encoding's load, and negotiation.

use super::encoding::Transport as _;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::axum_server::{start_server, ServerThread};
use super::encoding::decode;
use super::load::{Load, Resource, MAX_DURATION, MAX_REQUESTS};
use super::shaping::Counting;
use crate::process::interrupt::stopped;
use crate::results::http::EncodingResult;
use crate::stats::percentile;
use crate::vocab::Encoding;

/// One response, as the client saw it.
pub(super) struct Sample {
    pub(super) latency: Duration,
    pub(super) wire_bytes: u64,
    pub(super) body_bytes: u64,
}

/// One connection's requests: what the client counted, good and bad.
#[derive(Default)]
pub(super) struct Outcome {
    pub(super) samples: Vec<Sample>,
    /// Requests that failed: refused, cut off, timed out, or a body that did not check.
    pub(super) errors: usize,
    /// The first failure's message.
    pub(super) first_error: Option<String>,
}

/// How long a request may take past the load's deadline before it counts as failed.
const GRACE: Duration = Duration::from_secs(2);

/// A connection to `address` whose bytes read are counted into `read`.
async fn connect(
    address: std::net::SocketAddr,
    read: &Arc<AtomicU64>,
) -> Result<hyper::client::conn::http1::SendRequest<Empty<Bytes>>> {
    let stream = TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let io = TokioIo::new(Counting {
        stream,
        read: read.clone(),
    });
    let (sender, connection) = hyper::client::conn::http1::handshake(io).await?;
    tokio::spawn(connection);
    Ok(sender)
}

/// One connection's loop: requests until `claim` says stop, verifying every body. A
/// failed request is counted and the loop goes on over a new connection; each request
/// must end by `deadline` (plus [`GRACE`]), and a stop request ends it at once.
pub(super) async fn client(
    address: std::net::SocketAddr,
    encoding: Encoding,
    resource: Resource,
    claim: Arc<dyn Fn() -> bool + Send + Sync>,
    deadline: Instant,
) -> Outcome {
    let read = Arc::new(AtomicU64::new(0));
    let mut outcome = Outcome::default();
    let mut sender = None;
    while claim() {
        let attempt = async {
            if sender.is_none() {
                sender = Some(connect(address, &read).await?);
            }
            let connection = sender.as_mut().expect("connected above");
            request(connection, address, encoding, &resource, &read).await
        };
        let limit = deadline.saturating_duration_since(Instant::now()) + GRACE;
        let result = tokio::select! {
            result = tokio::time::timeout(limit, attempt) => match result {
                Ok(result) => result,
                Err(_) => Err(anyhow::anyhow!("no response within {:.1} s", limit.as_secs_f64())),
            },
            () = stopped() => break,
        };
        match result {
            Ok(sample) => outcome.samples.push(sample),
            Err(error) => {
                outcome.errors += 1;
                outcome
                    .first_error
                    .get_or_insert_with(|| format!("{}: {error:#}", encoding.label()));
                sender = None; // start over on a fresh connection
            }
        }
    }
    outcome
}

/// One request on `sender`, timed from sending to the last body byte, its body decoded
/// and checked against the resource's. For `dcz` the client offers the dictionary it
/// holds in `Available-Dictionary`.
async fn request(
    sender: &mut hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
    address: std::net::SocketAddr,
    encoding: Encoding,
    resource: &Resource,
    read: &AtomicU64,
) -> Result<Sample> {
    let mut request = hyper::Request::get("/payload")
        .header(hyper::header::HOST, address.to_string())
        .header(hyper::header::ACCEPT_ENCODING, encoding.accept_encoding());
    let offered = resource
        .dictionary
        .as_ref()
        .filter(|_| encoding.uses_dictionary());
    if let Some(dictionary) = offered {
        request = request.header("available-dictionary", dictionary.available_dictionary());
    }
    let request = request.body(Empty::<Bytes>::new())?;
    let payload = resource.body.as_slice();
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
        bail!("the server answered {status}");
    }
    let expected = encoding.expected_content_encoding().map(String::from);
    if content_encoding != expected {
        bail!("Content-Encoding was {content_encoding:?}, expected {expected:?}");
    }
    let limit = payload.len() as u64;
    let decoded = decode(content_encoding.as_deref(), &body, offered, limit)?;
    if decoded != payload {
        bail!(
            "the decoded body ({} bytes) differs from the payload ({} bytes)",
            decoded.len(),
            payload.len()
        );
    }
    Ok(Sample {
        latency,
        wire_bytes,
        body_bytes: body.len() as u64,
    })
}

/// Starts the `auto` server, sends one request with `accept_encoding`, checks that the
/// body decodes to `payload`, and returns the `Content-Encoding` the server chose
/// (`None` for an uncompressed answer).
#[cfg(test)]
pub(crate) fn negotiate(payload: &[u8], accept_encoding: &str) -> Result<Option<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let server = ServerThread::start()?;
    runtime.block_on(async {
        let payload = Arc::new(payload.to_vec());
        let resource = Resource {
            body: payload.clone(),
            dictionary: None,
        };
        let (address, stop) = start_server(&server.handle, resource, Encoding::Auto, None).await?;
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
        if decode(chosen.as_deref(), &body, None, payload.len() as u64)? != *payload {
            bail!("the {chosen:?} body does not decode to the payload");
        }
        Ok(chosen)
    })
}

/// Runs the load for one encoding against its own server.
pub(super) async fn measure_encoding(
    server: &ServerThread,
    resource: Resource,
    encoding: Encoding,
    load: Load,
) -> Result<EncodingResult> {
    let (address, stop) = start_server(
        &server.handle,
        resource.clone(),
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
            && !crate::process::interrupt::requested()
    });
    let cpu_before = server.cpu_time().await;
    let start = Instant::now();
    let clients: Vec<_> = (0..load.concurrency.max(1))
        .map(|_| {
            let client = client(address, encoding, resource.clone(), claim.clone(), deadline);
            tokio::spawn(client)
        })
        .collect();
    let mut all = Outcome::default();
    for handle in clients {
        let outcome = handle.await.context("a client task failed")?;
        all.samples.extend(outcome.samples);
        all.errors += outcome.errors;
        all.first_error = all.first_error.or(outcome.first_error);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu_after = server.cpu_time().await;
    let _ = stop.send(());
    let server_cpu = match (cpu_before, cpu_after) {
        (Some(before), Some(after)) => Some(after.saturating_sub(before)),
        _ => None,
    };
    Ok(summary(encoding, all, elapsed, server_cpu))
}

/// One encoding's figures from what every connection counted, taken over `elapsed`
/// seconds while the server spent `server_cpu`.
fn summary(
    encoding: Encoding,
    outcome: Outcome,
    elapsed: f64,
    server_cpu: Option<Duration>,
) -> EncodingResult {
    let samples = &outcome.samples;
    let n = samples.len().max(1) as f64;
    let mut latencies: Vec<f64> = samples
        .iter()
        .map(|s| s.latency.as_secs_f64() * 1e3)
        .collect();
    latencies.sort_by(f64::total_cmp);
    EncodingResult {
        encoding: encoding.label(),
        requests: samples.len(),
        requests_per_s: samples.len() as f64 / elapsed.max(1e-9),
        p50_ms: percentile(&latencies, 50.0),
        p90_ms: percentile(&latencies, 90.0),
        p99_ms: percentile(&latencies, 99.0),
        wire_bytes: samples.iter().map(|s| s.wire_bytes as f64).sum::<f64>() / n,
        body_bytes: samples.iter().map(|s| s.body_bytes as f64).sum::<f64>() / n,
        server_cpu_ms: server_cpu
            .filter(|_| !samples.is_empty())
            .map(|cpu| cpu.as_secs_f64() * 1e3 / n),
        latencies_ms: samples
            .iter()
            .map(|s| s.latency.as_secs_f64() * 1e3)
            .collect(),
        errors: outcome.errors,
        first_error: outcome.first_error,
    }
}
