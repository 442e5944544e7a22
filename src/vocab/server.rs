//! The servers codecbench models: what `--server` measures as and `--emit` configures.

/// A web server whose compression codecbench models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Server {
    /// ASP.NET Core 11's response-compression middleware (C#): libzstd, C brotli and
    /// zlib-ng, each streamed; what the article measured.
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
    pub fn name(self) -> &'static str {
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
