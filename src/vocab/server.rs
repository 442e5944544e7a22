//! The servers codecbench models: what `--server` measures as and `--emit` configures.

/// A web server whose compression codecbench models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub(crate) enum Server {
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
}

impl Server {
    /// The name on the command line, e.g. `tower-http`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Server::Aspnetcore => "aspnetcore",
            Server::Nginx => "nginx",
            Server::Caddy => "caddy",
            Server::TowerHttp => "tower-http",
        }
    }
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How an ASP.NET Core endpoint hands a JSON body to the response stream: the two
/// paths differ in where the serializer's output is flushed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum AspnetcoreWriter {
    /// Minimal APIs (`Results.Json`, a returned object, `WriteAsJsonAsync`): the
    /// serializer writes through `HttpResponse.BodyWriter` and flushes the compression
    /// stream every 14,745 bytes or so.
    #[default]
    Minimal,
    /// MVC controllers (`SystemTextJsonOutputFormatter`): the serializer writes the
    /// stream in pieces of about 14,745 bytes and flushes once, at the end.
    Mvc,
}

impl AspnetcoreWriter {
    /// The name on the command line and in reports: `minimal` or `mvc`.
    pub fn name(self) -> &'static str {
        match self {
            AspnetcoreWriter::Minimal => "minimal",
            AspnetcoreWriter::Mvc => "mvc",
        }
    }

    /// The writer named `name`, as [`name`](Self::name) spells it.
    pub fn from_name(name: &str) -> Option<Self> {
        [AspnetcoreWriter::Minimal, AspnetcoreWriter::Mvc]
            .into_iter()
            .find(|w| w.name() == name)
    }
}
