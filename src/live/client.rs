//! `codecbench probe`'s client: HTTP/1.1 requests to a live server, over TCP or TLS
//! (rustls, Mozilla's roots), one Accept-Encoding at a time, each response's head and
//! body timed and its bytes on the socket counted (TLS records included).
//!
//! The server is not trusted, as curl trusts none (`--max-time`, `--max-filesize`):
//! connecting, both handshakes and the whole response share one timeout; the body is
//! read to a ceiling; a stop request ends whatever is in flight; and a connection the
//! server closes (HTTP/1.0, `Connection: close`, a keep-alive limit) is replaced.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context as _, Result};
use http_body_util::{BodyExt as _, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::http::shaping::Counting;

/// A connection's request side.
type Sender = hyper::client::conn::http1::SendRequest<Empty<Bytes>>;

/// Where to send the requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    /// The URL as given.
    pub url: String,
    /// The host to connect to and name in `Host`.
    pub host: String,
    /// The port.
    pub port: u16,
    /// The path and query to request.
    pub path: String,
    /// `https://`: TLS over the connection.
    pub tls: bool,
}

impl Target {
    /// Whether `other` has the same origin (RFC 6454: scheme, host and port), the only
    /// place `-H` headers may go.
    pub(crate) fn same_origin(&self, other: &Target) -> bool {
        self.tls == other.tls
            && self.port == other.port
            && self.host.eq_ignore_ascii_case(&other.host)
    }

    /// `scheme://host:port`, for messages.
    pub(crate) fn origin(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        match self.host.contains(':') {
            true => format!("{scheme}://[{}]:{}", self.host, self.port),
            false => format!("{scheme}://{}:{}", self.host, self.port),
        }
    }
}

/// How much to send per Accept-Encoding, and how far to trust the server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ProbeLoad {
    /// Requests per Accept-Encoding, at most.
    pub requests: usize,
    /// The longest one Accept-Encoding may take.
    pub duration: Duration,
    /// Connections, each sending one request at a time.
    pub concurrency: usize,
    /// Accept any certificate (`--insecure`), e.g. a self-signed one.
    pub insecure: bool,
    /// The longest one request may take, connecting and both handshakes included
    /// (`--timeout`).
    pub timeout: Duration,
    /// The most bytes a body may hold, as sent or decoded (`--max-body`).
    pub max_body: u64,
}

/// One response as the client saw it.
#[derive(Clone, Debug)]
pub(crate) struct Exchange {
    /// The status code.
    pub status: u16,
    /// `Content-Encoding`, if any.
    pub content_encoding: Option<String>,
    /// `Vary`, if any.
    pub vary: Option<String>,
    /// `Location`, for a redirect.
    pub location: Option<String>,
    /// `Link`, where a dictionary may be offered (RFC 9842 §3).
    pub link: Option<String>,
    /// Bytes read from the socket for it: status line, headers, framing, body.
    pub wire_bytes: u64,
    /// The body as it came, undecoded.
    pub body: Bytes,
    /// From sending the request to the response's head.
    pub first_byte: Duration,
    /// From sending the request to the body's last byte.
    pub last_byte: Duration,
}

/// Sends up to `load.requests` GETs for `target` with `accept_encoding` and `headers`,
/// over `load.concurrency` connections, and hands each response to `each`; stops early
/// at the load's duration, at the first error, or at a stop request, which drops the
/// requests in flight at once.
pub(crate) fn exchange_all(
    target: &Target,
    accept_encoding: &str,
    headers: &[(String, String)],
    load: ProbeLoad,
    each: &(dyn Fn(Exchange) -> Result<()> + Sync),
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let tls = target
        .tls
        .then(|| super::tls::client_config(load.insecure))
        .transpose()?;
    let tls = tls.as_ref();
    let claimed = AtomicUsize::new(0);
    let deadline = Instant::now() + load.duration;
    let first_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let claim = || {
        first_error.lock().map(|e| e.is_none()).unwrap_or(false)
            && Instant::now() < deadline
            && !crate::process::interrupt::requested()
            && claimed.fetch_add(1, Ordering::Relaxed) < load.requests
    };
    let request = Request {
        target,
        tls,
        accept_encoding,
        headers,
        load,
    };
    runtime.block_on(async {
        let connections = (0..load.concurrency.max(1)).map(|_| async {
            if let Err(error) = connection(&request, &claim, each).await {
                let mut slot = first_error.lock().expect("no panic holds it");
                slot.get_or_insert(error);
            }
        });
        tokio::select! {
            _ = futures_util::future::join_all(connections) => {}
            () = crate::process::interrupt::stopped() => {}
        }
    });
    match first_error.into_inner().expect("no panic holds it") {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// What every request of one Accept-Encoding shares.
struct Request<'a> {
    target: &'a Target,
    tls: Option<&'a Arc<rustls::ClientConfig>>,
    accept_encoding: &'a str,
    headers: &'a [(String, String)],
    load: ProbeLoad,
}

/// One connection's requests while `claim` allows, over a new connection whenever the
/// server closed the last one.
async fn connection(
    request: &Request<'_>,
    claim: &(dyn Fn() -> bool + Sync),
    each: &(dyn Fn(Exchange) -> Result<()> + Sync),
) -> Result<()> {
    let read = Arc::new(AtomicU64::new(0));
    let mut sender = None;
    let timeout = request.load.timeout;
    while claim() {
        let exchange = tokio::time::timeout(timeout, exchange(request, &mut sender, &read))
            .await
            .map_err(|_| {
                anyhow!(
                    "{}: no response within {} s (--timeout)",
                    request.target.url,
                    timeout.as_secs_f64()
                )
            })??;
        each(exchange)?;
    }
    Ok(())
}

/// One request and its response, on the open connection if the server kept it, or on a
/// new one. A request the server dropped unanswered on a kept connection (it closed as
/// the request went out) is sent once more on a new one, as browsers do for a GET.
async fn exchange(
    request: &Request<'_>,
    sender: &mut Option<Sender>,
    read: &Arc<AtomicU64>,
) -> Result<Exchange> {
    if let Some(open) = sender.as_mut() {
        if open.ready().await.is_err() {
            *sender = None;
        }
    }
    let reused = sender.is_some();
    let mut open = match sender.take() {
        Some(open) => open,
        None => connect(request, read).await?,
    };
    let before = read.load(Ordering::Relaxed);
    let start = Instant::now();
    let response = match open.send_request(build(request)?).await {
        Err(error) if reused && (error.is_canceled() || error.is_incomplete_message()) => {
            open = connect(request, read).await?;
            open.send_request(build(request)?).await?
        }
        result => result?,
    };
    let first_byte = start.elapsed();
    let header = |name: hyper::header::HeaderName| {
        response
            .headers()
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let content_encoding = header(hyper::header::CONTENT_ENCODING);
    let vary = header(hyper::header::VARY);
    let location = header(hyper::header::LOCATION);
    let link = header(hyper::header::LINK);
    let status = response.status().as_u16();
    let body = read_body(response, request.load.max_body).await?;
    *sender = Some(open);
    Ok(Exchange {
        status,
        content_encoding,
        vary,
        location,
        link,
        wire_bytes: read.load(Ordering::Relaxed) - before,
        body,
        first_byte,
        last_byte: start.elapsed(),
    })
}

/// The body, at most `max_body` bytes: a `Content-Length` past it is refused before a
/// byte is read, and a body that grows past it is dropped at the first frame over.
async fn read_body(
    response: hyper::Response<hyper::body::Incoming>,
    max_body: u64,
) -> Result<Bytes> {
    let too_large = || {
        anyhow!(
            "the body holds more than {} bytes (--max-body)",
            crate::format::thousands(max_body)
        )
    };
    let declared = response
        .headers()
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max_body) {
        return Err(too_large());
    }
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        if let Some(data) = frame?.data_ref() {
            if bytes.len() as u64 + data.len() as u64 > max_body {
                return Err(too_large());
            }
            bytes.extend_from_slice(data);
        }
    }
    Ok(Bytes::from(bytes))
}

/// A new connection to the target: TCP, then TLS for https, then HTTP/1.1.
async fn connect(request: &Request<'_>, read: &Arc<AtomicU64>) -> Result<Sender> {
    let target = request.target;
    let address = format!("{}:{}", target.host, target.port);
    let stream = TcpStream::connect((target.host.as_str(), target.port))
        .await
        .with_context(|| format!("cannot connect to {address}"))?;
    stream.set_nodelay(true)?;
    let counted = Counting {
        stream,
        read: read.clone(),
    };
    match request.tls {
        None => handshake(counted).await,
        Some(config) => handshake(super::tls::connect(config, &target.host, counted).await?).await,
    }
}

/// HTTP/1.1 over `io`, its connection driven by a task of its own.
async fn handshake<S>(io: S) -> Result<Sender>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(io)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

fn build(request: &Request) -> Result<hyper::Request<Empty<Bytes>>> {
    let mut built = hyper::Request::get(request.target.path.as_str())
        .header(hyper::header::HOST, host_header(request.target))
        .header(hyper::header::ACCEPT_ENCODING, request.accept_encoding)
        .header(hyper::header::USER_AGENT, "codecbench-probe");
    for (name, value) in request.headers {
        built = built.header(name.as_str(), value.as_str());
    }
    Ok(built.body(Empty::new())?)
}

fn host_header(target: &Target) -> String {
    let default = if target.tls { 443 } else { 80 };
    let host = match target.host.contains(':') {
        true => format!("[{}]", target.host),
        false => target.host.clone(),
    };
    match target.port == default {
        true => host,
        false => format!("{host}:{}", target.port),
    }
}

/// Splits an `http[s]://HOST[:PORT]/PATH` URL; anything else is an error naming it.
pub(crate) fn target(url: &str) -> Result<Target> {
    let (rest, tls) = match (url.strip_prefix("http://"), url.strip_prefix("https://")) {
        (Some(rest), _) => (rest, false),
        (_, Some(rest)) => (rest, true),
        _ => bail!("{url}: not an http:// or https:// URL"),
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('?') => (&rest[..i], format!("/{}", &rest[i..])),
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    if path.parse::<hyper::http::uri::PathAndQuery>().is_err() {
        bail!("{url}: not a valid URL path (percent-encode spaces and other such characters)");
    }
    if authority.contains('@') {
        bail!("{url}: user names and passwords in URLs are not sent; use -H 'Authorization: ...'");
    }
    // `[::1]:8080` keeps its brackets until the port is split off.
    let (host, port) = match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => {
            let port = &authority[i + 1..];
            let port = port
                .parse::<u16>()
                .with_context(|| format!("{url}: '{port}' is not a port"))?;
            (&authority[..i], port)
        }
        _ => (authority, if tls { 443 } else { 80 }),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        bail!("{url}: no host");
    }
    Ok(Target {
        url: url.to_string(),
        host: host.to_string(),
        port,
        path,
        tls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_host_port_and_path() {
        let t = target("http://127.0.0.1:8080/zstd-1/small?x=1").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.path.as_str()),
            ("127.0.0.1", 8080, "/zstd-1/small?x=1")
        );
        let t = target("http://localhost").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.path.as_str()),
            ("localhost", 80, "/")
        );
        let t = target("http://[::1]:8080/a").unwrap();
        assert_eq!((t.host.as_str(), t.port), ("::1", 8080));
        assert!(target("ftp://x/").is_err());
        assert!(target("http://:80/").is_err());
        assert!(target("http://host:99999/").is_err());
        let t = target("https://example.org/a").unwrap();
        assert_eq!((t.port, t.tls), (443, true));
        let t = target("http://h:81?x=1#top").unwrap();
        assert_eq!((t.path.as_str(), host_header(&t)), ("/?x=1", "h:81".into()));
        assert_eq!(
            host_header(&target("http://[::1]:8080/").unwrap()),
            "[::1]:8080"
        );
        let space = target("http://127.0.0.1:8080/a b").unwrap_err().to_string();
        assert!(space.contains("not a valid URL path"), "{space}");
        assert!(target("http://user:pw@host/").is_err());
    }

    #[test]
    fn an_origin_is_scheme_host_and_port() {
        let page = target("https://Example.org/a").unwrap();
        assert!(page.same_origin(&target("https://example.org:443/d").unwrap()));
        assert!(!page.same_origin(&target("http://example.org:443/d").unwrap()));
        assert!(!page.same_origin(&target("https://example.org:8443/d").unwrap()));
        assert!(!page.same_origin(&target("https://other.org/d").unwrap()));
        assert_eq!(page.origin(), "https://Example.org:443");
    }
}
