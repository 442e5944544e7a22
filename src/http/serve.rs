//! `codecbench serve`: the payloads through the same server and middleware as `http`, on
//! a port the user picks, for clients the user already trusts (a browser, `curl
//! --compressed`, a load generator), until a stop request.
//!
//! Each encoding gets its own path, `/<encoding>/<payload>` (e.g. `/zstd-1/small`), so a
//! client reaches one encoding by URL; `/auto/<payload>` negotiates like ASP.NET Core.
//! With a dictionary, `/dictionary/<payload>` serves it (the previous version, or the
//! trained dictionary) with `Use-As-Dictionary`, so a browser keeps it for the `dcz` and
//! `dcb` paths.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result};

use super::axum_server::app;
use super::dictionary::Dictionary;
use super::load::Resource;
use crate::vocab::Encoding;

/// One payload to serve.
pub(crate) struct Served {
    /// Its name in the listing.
    pub name: String,
    /// The path segment: the name made URL-safe.
    pub slug: String,
    /// What the server sends, and the client's previous version, if any.
    pub resource: Resource,
}

/// One URL the server answers, for the listing printed at start.
pub(crate) struct Url {
    /// The path, e.g. `/zstd-1/small`.
    pub path: String,
    /// What it serves, e.g. `zstd:1, small (298,727 bytes)`.
    pub what: String,
}

impl Served {
    /// `body` under `name`, with `previous` as the client's dictionary if given.
    pub(crate) fn new(name: &str, body: Vec<u8>, previous: Option<Dictionary>) -> Self {
        Served {
            name: name.to_string(),
            slug: slug(name),
            resource: Resource {
                body: Arc::new(body),
                dictionary: previous,
            },
        }
    }
}

/// `name` as one path segment: letters, digits, `.`, `_` and `-`, at most 60 of them.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            c if c.is_ascii_alphanumeric() || c == '.' || c == '_' => {
                out.push(c.to_ascii_lowercase())
            }
            _ if !out.ends_with('-') => out.push('-'),
            _ => {}
        }
    }
    let trimmed: String = out.trim_matches('-').chars().take(60).collect();
    if trimmed.is_empty() {
        "payload".into()
    } else {
        trimmed
    }
}

/// The path segment of `encoding`: `zstd-1`, `identity`, `auto`.
pub(crate) fn encoding_segment(encoding: Encoding) -> String {
    encoding.label().replace(':', "-")
}

/// Every route for `payloads` × `encodings`, and the URLs they answer.
pub(crate) fn routes(payloads: &[Served], encodings: &[Encoding]) -> (axum::Router, Vec<Url>) {
    let mut router = axum::Router::new();
    let mut urls = Vec::new();
    for served in payloads {
        let size = crate::format::thousands(served.resource.body.len() as u64);
        for &encoding in encodings {
            let path = format!("/{}/{}", encoding_segment(encoding), served.slug);
            let mut route = app(served.resource.clone(), encoding, &path);
            if encoding.uses_dictionary() && served.resource.dictionary.is_some() {
                let link = link_to_dictionary(&served.slug);
                route = route.layer(axum::middleware::map_response(
                    move |mut response: axum::response::Response| {
                        let link = link.clone();
                        async move {
                            response.headers_mut().insert(hyper::header::LINK, link);
                            response
                        }
                    },
                ));
            }
            router = router.merge(route);
            urls.push(Url {
                what: format!("{}, {} ({size} bytes)", encoding.label(), served.name),
                path,
            });
        }
        if let Some(previous) = &served.resource.dictionary {
            let path = format!("/dictionary/{}", served.slug);
            router = router.merge(dictionary_route(&path, &served.slug, previous.clone()));
            urls.push(Url {
                what: format!("the dictionary for {}", served.name),
                path,
            });
        }
    }
    (router, urls)
}

/// `Link: </dictionary/SLUG>; rel="compression-dictionary"` (RFC 9842 §3), so that a
/// client that does not hold the dictionary yet (a browser, `probe`) learns where it is.
fn link_to_dictionary(slug: &str) -> hyper::header::HeaderValue {
    let link = format!("</dictionary/{slug}>; rel=\"compression-dictionary\"");
    hyper::header::HeaderValue::from_str(&link).expect("a slug is a valid header value")
}

/// The previous version at `path`, marked for use as a dictionary by the dcz paths of
/// the same payload (RFC 9842 §2.1).
fn dictionary_route(path: &str, slug: &str, previous: Dictionary) -> axum::Router {
    let matches = format!("match=\"/dc*/{slug}\"");
    axum::Router::new().route(
        path,
        axum::routing::get(move || {
            let body = previous.bytes().to_vec();
            let matches = matches.clone();
            async move {
                (
                    [
                        (hyper::header::CONTENT_TYPE, "application/json".to_string()),
                        (hyper::header::CACHE_CONTROL, "max-age=3600".to_string()),
                        (
                            hyper::header::HeaderName::from_static("use-as-dictionary"),
                            matches,
                        ),
                    ],
                    body,
                )
            }
        }),
    )
}

/// A listening socket on `address`: an address in use or not this machine's is bad
/// input, found before anything is served.
pub(crate) fn listen(address: SocketAddr) -> Result<std::net::TcpListener> {
    let listener = std::net::TcpListener::bind(address)
        .with_context(|| format!("cannot listen on {address}"))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// How long a connection may wait for a request's head, idle between requests or
/// half-sent (nginx's `client_header_timeout` and `keepalive_timeout`, shorter).
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections served at once; one more is closed as it is accepted. Idle and
/// half-sent ones leave after [`HEADER_TIMEOUT`], so clients that hold connections open
/// and send nothing hold no slot for long.
pub(crate) const MAX_CONNECTIONS: usize = 4096;

/// How long responses in flight get to finish once a stop is requested.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// Serves `router` on `listener` until a stop request (Ctrl-C, SIGTERM), which ends
/// every connection within [`STOP_GRACE`], whatever the clients do. A response whose
/// client reads nothing for `send_timeout` is dropped with its connection.
pub(crate) fn serve(
    router: axum::Router,
    listener: std::net::TcpListener,
    send_timeout: Duration,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let slots = Arc::new(tokio::sync::Semaphore::new(connection_cap()));
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let mut connections = tokio::task::JoinSet::new();
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = crate::process::interrupt::stopped() => break,
            };
            // A failed accept (out of descriptors, a reset) is the client's loss only.
            let Ok((stream, _)) = accepted else {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            let Ok(slot) = slots.clone().try_acquire_owned() else {
                continue; // full: the stream is dropped, which closes it
            };
            let service = hyper_util::service::TowerToHyperService::new(router.clone());
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(
                    hyper_util::rt::TokioIo::new(super::send_timeout::SendTimeout::new(
                        stream,
                        send_timeout,
                    )),
                    service,
                );
            connections.spawn(async move {
                let _ = connection.await;
                drop(slot);
            });
            while connections.try_join_next().is_some() {}
        }
        drop(listener);
        let drained = async { while connections.join_next().await.is_some() {} };
        let _ = tokio::time::timeout(STOP_GRACE, drained).await;
        connections.abort_all();
        Ok(())
    })
}

/// [`MAX_CONNECTIONS`], or fewer where the file-descriptor limit is lower: the soft
/// limit (often 1,024) is first raised towards the hard one, as nginx's
/// `worker_rlimit_nofile` does, and 64 descriptors are left for the process itself.
fn connection_cap() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write one rlimit struct we own.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return MAX_CONNECTIONS;
            }
            let wanted = (MAX_CONNECTIONS as libc::rlim_t + 64).min(limit.rlim_max);
            if wanted > limit.rlim_cur {
                let raised = libc::rlimit {
                    rlim_cur: wanted,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit.rlim_cur = wanted;
                }
            }
        }
        MAX_CONNECTIONS.min((limit.rlim_cur as usize).saturating_sub(64).max(1))
    }
    #[cfg(not(unix))]
    MAX_CONNECTIONS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_one_path_segment() {
        assert_eq!(slug("small"), "small");
        assert_eq!(slug("30 records"), "30-records");
        assert_eq!(
            slug("GET https://shop.example/api/customers?page=1"),
            "get-https-shop.example-api-customers-page-1"
        );
        assert_eq!(slug("///"), "payload");
        assert_eq!(encoding_segment(Encoding::Zstd(1)), "zstd-1");
        assert_eq!(encoding_segment(Encoding::Identity), "identity");
    }
}
