//! The server: axum with tower-http's compression on its own single-threaded runtime,
//! whose thread CPU time is the server's.

use super::encoding::Transport as _;
use std::time::Duration;

use anyhow::{Context as _, Result};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use super::dictionary::{self, Coding};
use super::load::Resource;
use super::shaping::Throttled;
use crate::vocab::Encoding;

/// The server's own thread: a single-threaded tokio runtime, so that its CPU time is
/// the server's alone (the clients run on another runtime).
pub(super) struct ServerThread {
    pub(super) handle: tokio::runtime::Handle,
    pub(super) shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
}

impl ServerThread {
    pub(super) fn start() -> Result<Self> {
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
    pub(super) async fn cpu_time(&self) -> Option<Duration> {
        self.handle
            .spawn(async { crate::process::cpu::thread_cpu_time() })
            .await
            .ok()?
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

/// A `dcz` or `dcb` endpoint: the body compressed per request against the dictionary
/// the request names in `Available-Dictionary` when the server holds it and the client
/// accepts the coding (RFC 9842 §6), else sent as it is.
async fn dictionary_response(
    headers: hyper::HeaderMap,
    resource: Resource,
    coding: Coding,
    level: i32,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    };
    let vary = (hyper::header::VARY, "accept-encoding, available-dictionary");
    let json = (hyper::header::CONTENT_TYPE, "application/json");
    let body = resource.body.as_ref();
    let usable = resource.dictionary.as_ref().filter(|d| {
        dictionary::accepts(header("accept-encoding"), coding)
            && d.is_named_by(header("available-dictionary"))
    });
    match usable.map(|d| d.encode(coding, body, level)) {
        Some(Ok(encoded)) => {
            let coding = (hyper::header::CONTENT_ENCODING, coding.token());
            ([json, vary, coding], encoded).into_response()
        }
        Some(Err(_)) => hyper::StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        None => ([json, vary], shared(&resource.body)).into_response(),
    }
}

/// The body for one response, sharing the payload's bytes rather than copying them: a
/// slow client holds a reference, not a copy of a body of megabytes.
fn shared(body: &std::sync::Arc<Vec<u8>>) -> axum::body::Bytes {
    /// The payload's bytes, as `Bytes` takes an owner.
    struct Shared(std::sync::Arc<Vec<u8>>);
    impl AsRef<[u8]> for Shared {
        fn as_ref(&self) -> &[u8] {
            self.0.as_slice()
        }
    }
    axum::body::Bytes::from_owner(Shared(std::sync::Arc::clone(body)))
}

/// A router serving `resource` at `path` with `encoding`: a dynamic response, the body
/// built (and compressed) for each request, not served from a cache.
pub(super) fn app(resource: Resource, encoding: Encoding, path: &str) -> axum::Router {
    let app = match encoding.dictionary_coding() {
        Some((coding, level)) => axum::Router::new().route(
            path,
            axum::routing::get(move |headers: hyper::HeaderMap| {
                dictionary_response(headers, resource.clone(), coding, level)
            }),
        ),
        _ => {
            let payload = resource.body.clone();
            let handler = move || {
                let payload = shared(&payload);
                async move { ([(hyper::header::CONTENT_TYPE, "application/json")], payload) }
            };
            axum::Router::new().route(path, axum::routing::get(handler))
        }
    };
    match encoding.layer() {
        Some(layer) => app.layer(layer),
        None => app,
    }
}

/// Starts a server for `encoding` on an ephemeral loopback port, on `server`'s thread;
/// returns its address and a sender that stops it.
pub(super) async fn start_server(
    server: &tokio::runtime::Handle,
    resource: Resource,
    encoding: Encoding,
    bandwidth_mbit: Option<f64>,
) -> Result<(std::net::SocketAddr, tokio::sync::oneshot::Sender<()>)> {
    let app = app(resource, encoding, "/payload");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::dictionary::Dictionary;

    fn headers(pairs: &[(&'static str, String)]) -> hyper::HeaderMap {
        let mut map = hyper::HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    /// RFC 9842 §6: dcz only for a client that accepts it and names the dictionary the
    /// server holds; otherwise the body as it is. Either way, Vary names both headers.
    #[tokio::test]
    async fn dcz_is_sent_only_against_the_dictionary_the_server_holds() {
        let dictionary = Dictionary::new(b"[{\"id\":1,\"balance\":10.5}]".repeat(20));
        let resource = Resource {
            body: std::sync::Arc::new(b"[{\"id\":1,\"balance\":11.6}]".repeat(20)),
            dictionary: Some(dictionary.clone()),
        };
        let named = dictionary.available_dictionary();
        let other = Dictionary::new(b"other".to_vec()).available_dictionary();
        let cases = [
            ("gzip, br, zstd, dcb, dcz", named.clone(), Some("dcz")),
            ("gzip, br, zstd, dcb, dcz", other, None),
            ("gzip, br, zstd", named, None),
        ];
        for (accept, available, expected) in cases {
            let request = headers(&[
                ("accept-encoding", accept.to_string()),
                ("available-dictionary", available),
            ]);
            let response = dictionary_response(request, resource.clone(), Coding::Dcz, 3).await;
            let coding = response.headers().get(hyper::header::CONTENT_ENCODING);
            assert_eq!(coding.map(|v| v.to_str().unwrap()), expected, "{accept}");
            let vary = response.headers().get(hyper::header::VARY).unwrap();
            assert_eq!(vary, "accept-encoding, available-dictionary");
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let decoded = match expected {
                Some(_) => dictionary.decode(Coding::Dcz, &body, 1 << 30).unwrap(),
                None => body.to_vec(),
            };
            assert_eq!(decoded, *resource.body);
        }
    }
}
