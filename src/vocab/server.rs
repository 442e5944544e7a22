//! The servers codecbench models: what `--server` measures as and `--emit` configures.

/// A web server whose compression codecbench models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Server {
    /// ASP.NET Core 11's response-compression middleware (C#): libzstd, C brotli and
    /// zlib-ng, each fed a JSON body as Kestrel's serializer writes and flushes it
    /// (modelled from the upstream source, see `docs/servers.md`).
    Aspnetcore,
    /// nginx with its gzip module (madler zlib), ngx_brotli (C brotli) and, where built
    /// in, zstd-nginx-module.
    Nginx,
    /// Caddy's `encode` directive: Go's compressors.
    Caddy,
    /// tower-http's `CompressionLayer` (Rust, axum and other tower servers).
    TowerHttp,
    /// Apache httpd 2.4 with mod_deflate (madler zlib) and mod_brotli (C brotli); it
    /// has no zstd module.
    Apache,
    /// Node.js with Express's `compression` middleware: Node's zlib (Chromium's fork)
    /// and C brotli; no zstd.
    Express,
}

impl Server {
    /// The name on the command line, e.g. `tower-http`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Server::Aspnetcore => "aspnetcore",
            Server::Nginx => "nginx",
            Server::Caddy => "caddy",
            Server::TowerHttp => "tower-http",
            Server::Apache => "apache",
            Server::Express => "express",
        }
    }

    /// The server named `name`, as [`name`](Self::name) spells it.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        <Self as clap::ValueEnum>::value_variants()
            .iter()
            .copied()
            .find(|s| s.name() == name)
    }

    /// Whether `run --server` measures this server's own encoders (its profile), so that
    /// an answer for it can rest on the bytes it sends. Caddy's Go compressors and
    /// Node's zlib are not modelled: only the lab measures them.
    pub(crate) fn has_profile(self) -> bool {
        !matches!(self, Server::Caddy | Server::Express)
    }
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How an ASP.NET Core endpoint hands a JSON body to the response stream: the paths
/// differ in how the serializer's output is cut into writes and where it is flushed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum AspnetcoreWriter {
    /// Minimal APIs (`Results.Json`, a returned object, `WriteAsJsonAsync`): the
    /// serializer writes through `HttpResponse.BodyWriter` in 4 KiB segments and flushes
    /// the compression stream every 14,745 bytes or so.
    #[default]
    Minimal,
    /// MVC controllers on .NET 9 and later (`SystemTextJsonOutputFormatter`): the same
    /// path as minimal APIs.
    Mvc,
    /// MVC controllers on .NET 8: the serializer writes the stream in pieces of about
    /// 14,745 bytes and the formatter flushes once, at the end.
    MvcNet8,
}

impl AspnetcoreWriter {
    /// Every writer, in the order of the command line's help.
    pub const ALL: [AspnetcoreWriter; 3] = [
        AspnetcoreWriter::Minimal,
        AspnetcoreWriter::Mvc,
        AspnetcoreWriter::MvcNet8,
    ];

    /// The name on the command line and in reports: `minimal`, `mvc` or `mvc-net8`.
    pub fn name(self) -> &'static str {
        match self {
            AspnetcoreWriter::Minimal => "minimal",
            AspnetcoreWriter::Mvc => "mvc",
            AspnetcoreWriter::MvcNet8 => "mvc-net8",
        }
    }

    /// The writer named `name`, as [`name`](Self::name) spells it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.name() == name)
    }
}
