//! Each server's own encoder, where it runs in codecbench: nginx's and Apache's modules,
//! tower-http's middleware, ASP.NET Core's as its serializer writes.

use super::interface::Codec;
use super::zstd::Libzstd;
use super::{apache, api, nginx, tower_http};
use crate::vocab::CodecKind;

/// `server`'s own encoder of `kind`, where it runs in codecbench; `None` for Caddy's,
/// which is Go's, and for a codec the server does not send (Apache's zstd). `writer` is how an ASP.NET Core endpoint writes its JSON.
pub(crate) fn of_server(
    server: crate::vocab::Server,
    kind: CodecKind,
    writer: crate::vocab::AspnetcoreWriter,
) -> Option<Box<dyn Codec>> {
    use crate::vocab::Server;
    Some(match (server, kind) {
        (Server::Aspnetcore, kind) => {
            Box::new(api::ThroughApi::new(kind, api::Api::Aspnetcore { writer }))
        }
        (Server::Nginx, CodecKind::Zstd) => Box::new(Libzstd),
        (Server::Nginx, CodecKind::Brotli) => Box::new(nginx::BROTLI),
        (Server::Nginx, CodecKind::Gzip) => Box::new(nginx::GZIP),
        (Server::TowerHttp, kind) => Box::new(tower_http::TowerHttp(kind)),
        (Server::Apache, CodecKind::Brotli) => Box::new(apache::BROTLI),
        (Server::Apache, CodecKind::Gzip) => Box::new(apache::GZIP),
        // httpd has no zstd module; Caddy's encoders are Go's; Node's zlib is
        // Chromium's fork, and its brotli a later release than codecbench's.
        (Server::Apache, CodecKind::Zstd) | (Server::Caddy | Server::Express, _) => return None,
    })
}
