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

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower_http::compression::{CompressionLayer, CompressionLevel};

use crate::codec::{Brotli, BrotliLibrary, Codec, GzipZlibRs, Libzstd};
pub use crate::results::http::{
    load_label, EncodingResult, HttpPayloadResult, HttpReport, LoadSettings, HTTP_KIND,
};
use crate::stats::percentile;

/// The most requests one encoding may send, whatever the options say.
pub const MAX_REQUESTS: usize = 1_000_000;
/// The longest one encoding may run, whatever the options say.
pub const MAX_DURATION: Duration = Duration::from_secs(600);

/// A content coding and its level, as `zstd:1`, `br:4`, `gzip:1` or `identity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Encoding {
    /// `Content-Encoding: zstd` at this level.
    Zstd(i32),
    /// `Content-Encoding: br` at this quality.
    Br(i32),
    /// `Content-Encoding: gzip` at this level.
    Gzip(i32),
    /// No compression.
    Identity,
    /// zstd, br and gzip offered together at level 1, the server choosing by the
    /// request's `Accept-Encoding` in ASP.NET Core 11's order of preference (zstd, then
    /// br, then gzip); the client sends a browser's `gzip, deflate, br, zstd`.
    Auto,
}

/// What a browser sends: Chrome and Firefox list all four.
pub const BROWSER_ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

impl serde::Serialize for Encoding {
    /// As its label: `zstd:1`.
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

impl Encoding {
    /// `codec` at `level`, as HTTP names it.
    pub fn of(codec: crate::codec::CodecKind, level: i32) -> Self {
        match codec {
            crate::codec::CodecKind::Zstd => Encoding::Zstd(level),
            crate::codec::CodecKind::Brotli => Encoding::Br(level),
            crate::codec::CodecKind::Gzip => Encoding::Gzip(level),
        }
    }

    /// Parses `zstd:1`, `br:4`, `gzip:6` or `identity`, checking the level's range.
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "identity" => return Ok(Encoding::Identity),
            "auto" => return Ok(Encoding::Auto),
            _ => {}
        }
        let Some((name, level)) = text.split_once(':') else {
            bail!("encoding '{text}' is not CODING:LEVEL (zstd:1, br:4, gzip:1), identity or auto");
        };
        let level: i32 = level
            .parse()
            .with_context(|| format!("encoding '{text}': '{level}' is not an integer level"))?;
        let (encoding, range) = match name {
            "zstd" => (Encoding::Zstd(level), 1..=19),
            "br" => (Encoding::Br(level), 0..=11),
            "gzip" => (Encoding::Gzip(level), 0..=9),
            other => {
                bail!("encoding '{text}': unknown coding '{other}' (zstd, br, gzip, identity)")
            }
        };
        if !range.contains(&level) {
            bail!(
                "encoding '{text}': {name} levels here are {}..={}",
                range.start(),
                range.end()
            );
        }
        Ok(encoding)
    }

    /// The `Content-Encoding` token; `identity` for none.
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Zstd(_) => "zstd",
            Encoding::Br(_) => "br",
            Encoding::Gzip(_) => "gzip",
            Encoding::Identity => "identity",
            Encoding::Auto => "auto",
        }
    }

    /// The `Accept-Encoding` the client sends for this encoding.
    fn accept_encoding(self) -> &'static str {
        match self {
            Encoding::Auto => BROWSER_ACCEPT_ENCODING,
            other => other.token(),
        }
    }

    /// The `Content-Encoding` the response must carry; `None` for none. `auto` answers
    /// a browser with zstd.
    fn expected_content_encoding(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Auto => Some("zstd"),
            other => Some(other.token()),
        }
    }

    /// `zstd:1`, or `identity`.
    pub fn label(self) -> String {
        match self {
            Encoding::Zstd(l) | Encoding::Br(l) | Encoding::Gzip(l) => {
                format!("{}:{l}", self.token())
            }
            Encoding::Identity | Encoding::Auto => self.token().into(),
        }
    }

    /// tower-http's layer with exactly this encoding enabled; `None` for identity.
    fn layer(self) -> Option<CompressionLayer> {
        let none = CompressionLayer::new()
            .no_br()
            .no_deflate()
            .no_gzip()
            .no_zstd();
        let (layer, level) = match self {
            Encoding::Zstd(l) => (none.zstd(true), l),
            Encoding::Br(l) => (none.br(true), l),
            Encoding::Gzip(l) => (none.gzip(true), l),
            Encoding::Auto => (none.zstd(true).br(true).gzip(true), 1),
            Encoding::Identity => return None,
        };
        Some(layer.quality(CompressionLevel::Precise(level)))
    }
}

/// Decodes `body` sent with `content_encoding` using codecbench's own decoders.
fn decode(content_encoding: Option<&str>, body: &[u8]) -> Result<Vec<u8>> {
    // The codec adapters are unit structs: building one per response costs nothing.
    let decoder: Box<dyn Codec> = match content_encoding {
        None => return Ok(body.to_vec()),
        Some("zstd") => Box::new(Libzstd),
        Some("br") => Box::new(Brotli(BrotliLibrary::C)),
        Some("gzip") => Box::new(GzipZlibRs),
        Some(other) => bail!("unexpected Content-Encoding '{other}'"),
    };
    decoder
        .decompress(body)
        .with_context(|| format!("a {} body does not decode", decoder.kind()))
}

/// How much load to send per encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Load {
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

/// A TCP stream that counts the bytes it reads.
struct Counting {
    stream: TcpStream,
    read: Arc<AtomicU64>,
}

impl AsyncRead for Counting {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        self.read.fetch_add(read, Ordering::Relaxed);
        poll
    }
}

impl AsyncWrite for Counting {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A server-side TCP stream whose writes pass a token bucket: `rate` bytes per second,
/// at most `burst` bytes at once, so loopback behaves like a link of that speed.
struct Throttled {
    stream: TcpStream,
    rate: f64,
    burst: f64,
    tokens: f64,
    // tokio's clock, so that tests can pause and advance it.
    last: tokio::time::Instant,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Throttled {
    fn new(stream: TcpStream, mbit: f64) -> Self {
        let rate = mbit * 1e6 / 8.0;
        // 16 KiB, or a millisecond's worth on links faster than 128 Mbit/s.
        let burst = (rate / 1000.0).max(16.0 * 1024.0);
        Throttled {
            stream,
            rate,
            burst,
            tokens: burst,
            last: tokio::time::Instant::now(),
            sleep: None,
        }
    }

    fn refill(&mut self) {
        let now = tokio::time::Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        // Keep up to 2 ms of surplus past the burst: the timer wakes up to a millisecond
        // late, and dropping what was earned meanwhile would slow the link below its rate.
        self.tokens = (self.tokens + earned).min(self.burst + self.rate * 0.002);
        self.last = now;
    }
}

impl AsyncRead for Throttled {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Throttled {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        // Write in chunks of up to a burst, each once it has been earned in full: writing
        // whatever trickle has accrued would mean thousands of tiny writes a second.
        let wanted = (buf.len() as f64).min(self.burst).max(1.0);
        loop {
            self.refill();
            if self.tokens >= wanted {
                let allowed = buf.len().min(self.tokens as usize);
                let written =
                    std::task::ready!(Pin::new(&mut self.stream).poll_write(cx, &buf[..allowed]))?;
                self.tokens -= written as f64;
                return Poll::Ready(Ok(written));
            }
            let wait = Duration::from_secs_f64((wanted - self.tokens) / self.rate);
            let sleep = self
                .sleep
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
            std::task::ready!(sleep.as_mut().poll(cx));
            self.sleep = None;
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The server's own thread: a single-threaded tokio runtime, so that its CPU time is
/// the server's alone (the clients run on another runtime).
struct ServerThread {
    handle: tokio::runtime::Handle,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ServerThread {
    fn start() -> Result<Self> {
        let (handle_tx, handle_rx) = std::sync::mpsc::channel();
        let (shutdown, shutdown_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("codecbench-server".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = handle_tx.send(Err(e));
                        return;
                    }
                };
                let _ = handle_tx.send(Ok(runtime.handle().clone()));
                runtime.block_on(async {
                    let _ = shutdown_rx.await;
                });
            })
            .context("cannot start the server thread")?;
        let handle = handle_rx
            .recv()
            .context("the server thread did not start")?
            .context("cannot start the server's runtime")?;
        Ok(ServerThread {
            handle,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// CPU time the server thread has used so far; `None` where the OS cannot tell.
    async fn cpu_time(&self) -> Option<Duration> {
        self.handle.spawn(async { thread_cpu_time() }).await.ok()?
    }
}

impl Drop for ServerThread {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The calling thread's CPU time (user and system), from `CLOCK_THREAD_CPUTIME_ID`.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// No portable per-thread CPU clock here.
#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// Starts a server for `encoding` on an ephemeral loopback port, on `server`'s thread;
/// returns its address and a sender that stops it.
async fn start_server(
    server: &tokio::runtime::Handle,
    payload: Arc<Vec<u8>>,
    encoding: Encoding,
    bandwidth_mbit: Option<f64>,
) -> Result<(std::net::SocketAddr, tokio::sync::oneshot::Sender<()>)> {
    // A dynamic response: the body is built for each request, not served from a cache.
    let handler = move || {
        let payload = payload.clone();
        async move {
            (
                [(hyper::header::CONTENT_TYPE, "application/json")],
                payload.as_ref().clone(),
            )
        }
    };
    let mut app = axum::Router::new().route("/payload", axum::routing::get(handler));
    if let Some(layer) = encoding.layer() {
        app = app.layer(layer);
    }
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let (bound_tx, bound_rx) = tokio::sync::oneshot::channel();
    server.spawn(async move {
        let listener = match TcpListener::bind(("127.0.0.1", 0)).await {
            Ok(listener) => listener,
            Err(e) => {
                let _ = bound_tx.send(Err(e));
                return;
            }
        };
        let _ = bound_tx.send(listener.local_addr());
        // hyper's own HTTP/1.1 server, so that each accepted stream can be throttled.
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(_) => continue,
                },
                _ = &mut stopped => break,
            };
            let _ = stream.set_nodelay(true);
            let service = hyper_util::service::TowerToHyperService::new(app.clone());
            let builder = hyper::server::conn::http1::Builder::new();
            tokio::spawn(async move {
                let _ = match bandwidth_mbit {
                    Some(mbit) => {
                        let io = TokioIo::new(Throttled::new(stream, mbit));
                        builder.serve_connection(io, service).await
                    }
                    None => {
                        builder
                            .serve_connection(TokioIo::new(stream), service)
                            .await
                    }
                };
            });
        }
    });
    let address = bound_rx
        .await
        .context("the server did not start")?
        .context("cannot listen on 127.0.0.1")?;
    Ok((address, stop))
}

/// One response, as the client saw it.
struct Sample {
    latency: Duration,
    wire_bytes: u64,
    body_bytes: u64,
}

/// One connection's loop: requests until `claim` says stop, verifying every body.
async fn client(
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
async fn measure_encoding(
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

/// Measures every encoding in turn on `payload`, calling `on_result` after each.
pub fn measure(
    payload: &[u8],
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
    let payload = Arc::new(payload.to_vec());
    let mut results = Vec::new();
    for &encoding in encodings {
        if crate::bench::interrupt::requested() {
            break;
        }
        let result =
            runtime.block_on(measure_encoding(&server, payload.clone(), encoding, load))?;
        on_result(&result)?;
        results.push(result);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (BROWSER_ACCEPT_ENCODING, Some("zstd")),
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
            let chosen = negotiate(&payload, accept).unwrap();
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
        let results = measure(&payload, &encodings, load, &mut |_| Ok(())).unwrap();
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
