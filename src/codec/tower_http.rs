//! The encoders as tower-http's `CompressionLayer` drives them (`--server tower-http`):
//! its own `Compression` service, run in-process on an in-memory JSON response, with
//! one encoding enabled at `CompressionLevel::Precise(level)`. The body is what
//! tower-http sends: async-compression's encoders (the `brotli` crate, libzstd, flate2)
//! fed the response body and flushed as it streams, so brotli and gzip come out a few
//! bytes longer than one in-memory call (44,608 against 44,606 B at br 1 on the small
//! payload). Timing includes the middleware's work per response, as a server pays it.
//!
//! flate2's backend here is zlib-rs, which codecbench enables; an application that
//! leaves flate2 on its default backend (miniz_oxide) gets other gzip bytes.

use std::cell::RefCell;
use std::convert::Infallible;
use std::future::Ready;
use std::io;
use std::ops::RangeInclusive;
use std::task::{Context, Poll};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::{header, Request, Response};
use tower_http::compression::{Compression, CompressionLevel};
use tower_service::Service;

use super::{Codec, DotnetLevel};

use crate::vocab::{CodecKind, Library, Variant};

thread_local! {
    /// One runtime per measuring thread, built once: the middleware's futures are
    /// driven on it, outside of any other runtime.
    static RUNTIME: RefCell<Option<tokio::runtime::Runtime>> = const { RefCell::new(None) };
}

/// The inner service: a JSON response whose body is `body`.
#[derive(Clone)]
struct Respond(Bytes);

impl Service<Request<()>> for Respond {
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Request<()>) -> Self::Future {
        let mut response = Response::new(Full::new(self.0.clone()));
        let json = header::HeaderValue::from_static("application/json");
        response.headers_mut().insert(header::CONTENT_TYPE, json);
        std::future::ready(Ok(response))
    }
}

/// `kind` through tower-http's compression middleware.
pub struct TowerHttp(pub CodecKind);

impl TowerHttp {
    /// tower-http's service with exactly this codec enabled, at `level`.
    fn service(&self, level: i32, body: Bytes) -> Compression<Respond> {
        let none = Compression::new(Respond(body))
            .no_br()
            .no_deflate()
            .no_gzip()
            .no_zstd();
        let one = match self.0 {
            CodecKind::Zstd => none.zstd(true),
            CodecKind::Brotli => none.br(true),
            CodecKind::Gzip => none.gzip(true),
        };
        one.quality(CompressionLevel::Precise(level))
    }

    /// The body tower-http sends for `input` to a client that accepts this codec.
    async fn send(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        let mut service = self.service(level, Bytes::copy_from_slice(input));
        let request = Request::builder()
            .header(header::ACCEPT_ENCODING, self.0.content_coding())
            .body(())
            .map_err(io::Error::other)?;
        let response = service.call(request).await.map_err(io::Error::other)?;
        let coding = response.headers().get(header::CONTENT_ENCODING).cloned();
        if coding.as_ref().and_then(|v| v.to_str().ok()) != Some(self.0.content_coding()) {
            return Err(io::Error::other(format!(
                "tower-http sent no {} body",
                self.0.content_coding()
            )));
        }
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(io::Error::other)?;
        Ok(body.to_bytes().to_vec())
    }
}

impl Codec for TowerHttp {
    fn kind(&self) -> CodecKind {
        self.0
    }

    fn library(&self) -> Library {
        match self.0 {
            CodecKind::Zstd => Library::Libzstd,
            CodecKind::Brotli => Library::BrotliRs,
            CodecKind::Gzip => Library::ZlibRs,
        }
    }

    fn variant(&self) -> Variant {
        Variant::TowerHttp
    }

    fn version(&self) -> String {
        super::server_codec(self.0).version()
    }

    fn supported_levels(&self) -> RangeInclusive<i32> {
        match self.0 {
            CodecKind::Zstd => 1..=19,
            CodecKind::Brotli => 0..=11,
            CodecKind::Gzip => 0..=9,
        }
    }

    fn default_levels(&self) -> Vec<i32> {
        match self.0 {
            CodecKind::Zstd => vec![1, 3],
            CodecKind::Brotli => vec![1, 4, 11],
            CodecKind::Gzip => vec![1, 6, 9],
        }
    }

    fn dotnet_level(&self, _level: i32) -> Option<DotnetLevel> {
        None
    }

    fn compress(&self, level: i32, input: &[u8]) -> io::Result<Vec<u8>> {
        RUNTIME.with(|cell| {
            let mut runtime = cell.borrow_mut();
            if runtime.is_none() {
                let built = tokio::runtime::Builder::new_current_thread().build()?;
                *runtime = Some(built);
            }
            let runtime = runtime.as_ref().expect("built above");
            runtime.block_on(self.send(level, input))
        })
    }

    fn decompress(&self, compressed: &[u8]) -> io::Result<Vec<u8>> {
        super::server_codec(self.0).decompress(compressed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middleware_sends_what_the_loopback_server_measured() {
        let small = crate::payload::generate(1000, 42, crate::payload::RngKind::Dotnet);
        // The body sizes `codecbench http` measured through the same middleware.
        for (kind, level, bytes) in [
            (CodecKind::Zstd, 1, 41_132),
            (CodecKind::Brotli, 1, 44_608),
            (CodecKind::Gzip, 1, 69_839),
        ] {
            let codec = TowerHttp(kind);
            let sent = codec.compress(level, &small).unwrap();
            assert_eq!(sent.len(), bytes, "{kind} {level}");
            assert_eq!(codec.decompress(&sent).unwrap(), small);
        }
    }
}
