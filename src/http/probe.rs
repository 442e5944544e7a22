//! `codecbench probe`'s client: HTTP/1.1 requests to a live server, over TCP or TLS
//! (rustls, Mozilla's roots), one Accept-Encoding at a time, each response's head and
//! body timed and its bytes on the socket counted (TLS records included). The load is
//! bounded by a request count and a duration, and a stop request ends it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use http_body_util::{BodyExt as _, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::shaping::Counting;

/// How long connecting, or one response, may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Where to send the requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
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

/// How much to send per Accept-Encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeLoad {
    /// Requests per Accept-Encoding, at most.
    pub requests: usize,
    /// The longest one Accept-Encoding may take.
    pub duration: Duration,
    /// Connections, each sending one request at a time.
    pub concurrency: usize,
    /// Accept any certificate (`--insecure`), e.g. a self-signed one.
    pub insecure: bool,
}

/// One response as the client saw it.
#[derive(Clone, Debug)]
pub struct Exchange {
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
/// at the load's duration, at a stop request, or at the first error.
pub fn exchange_all(
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
    runtime.block_on(async {
        let connections = (0..load.concurrency.max(1)).map(|_| async {
            if let Err(error) =
                connection(target, tls, accept_encoding, headers, &claim, each).await
            {
                let mut slot = first_error.lock().expect("no panic holds it");
                slot.get_or_insert(error);
            }
        });
        futures_util::future::join_all(connections).await;
    });
    match first_error.into_inner().expect("no panic holds it") {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// One connection's requests while `claim` allows.
async fn connection(
    target: &Target,
    tls: Option<&Arc<rustls::ClientConfig>>,
    accept_encoding: &str,
    headers: &[(String, String)],
    claim: &(dyn Fn() -> bool + Sync),
    each: &(dyn Fn(Exchange) -> Result<()> + Sync),
) -> Result<()> {
    let read = Arc::new(AtomicU64::new(0));
    let address = format!("{}:{}", target.host, target.port);
    let connect = TcpStream::connect((target.host.as_str(), target.port));
    let stream = tokio::time::timeout(TIMEOUT, connect)
        .await
        .map_err(|_| anyhow::anyhow!("cannot connect to {address}: no answer within 10 s"))?
        .with_context(|| format!("cannot connect to {address}"))?;
    stream.set_nodelay(true)?;
    let counted = Counting {
        stream,
        read: read.clone(),
    };
    let mut sender = match tls {
        None => {
            let (sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(counted)).await?;
            tokio::spawn(connection);
            sender
        }
        Some(config) => {
            let stream = super::tls::connect(config, &target.host, counted).await?;
            let (sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            sender
        }
    };
    while claim() {
        let request = build(target, accept_encoding, headers)?;
        let exchange = tokio::time::timeout(TIMEOUT, send(&mut sender, request, &read))
            .await
            .map_err(|_| anyhow::anyhow!("{}: no response within 10 s", target.url))??;
        each(exchange)?;
    }
    Ok(())
}

fn build(
    target: &Target,
    accept_encoding: &str,
    headers: &[(String, String)],
) -> Result<hyper::Request<Empty<Bytes>>> {
    let mut request = hyper::Request::get(target.path.as_str())
        .header(hyper::header::HOST, host_header(target))
        .header(hyper::header::ACCEPT_ENCODING, accept_encoding)
        .header(hyper::header::USER_AGENT, "codecbench-probe");
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    Ok(request.body(Empty::new())?)
}

fn host_header(target: &Target) -> String {
    let default = if target.tls { 443 } else { 80 };
    if target.port == default {
        target.host.clone()
    } else {
        format!("{}:{}", target.host, target.port)
    }
}

async fn send(
    sender: &mut hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
    request: hyper::Request<Empty<Bytes>>,
    read: &AtomicU64,
) -> Result<Exchange> {
    sender.ready().await?;
    let before = read.load(Ordering::Relaxed);
    let start = Instant::now();
    let response = sender.send_request(request).await?;
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
    let body = response.into_body().collect().await?.to_bytes();
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

/// Splits an `http[s]://HOST[:PORT]/PATH` URL; anything else is an error naming it.
pub fn target(url: &str) -> Result<Target> {
    let (rest, tls) = match (url.strip_prefix("http://"), url.strip_prefix("https://")) {
        (Some(rest), _) => (rest, false),
        (_, Some(rest)) => (rest, true),
        _ => bail!("{url}: not an http:// or https:// URL"),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
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
        path: path.to_string(),
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
    }
}
