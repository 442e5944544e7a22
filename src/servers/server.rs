//! Each server's knobs: what it can express, and its configuration rendered from an answer.

use super::brief::Brief;
use super::syntax::Syntax;
use crate::analysis::recommend::{Answer, AnswerLine, EncodingAnswer, Scenario};
use crate::vocab::CodecKind;
use crate::vocab::Server;
use crate::vocab::{CellId, Library, Variant};

impl Server {
    /// Whether the server can be configured to compress with `id`. tower-http applies
    /// one quality to every encoding: `shared_level` is the level its first encoding
    /// takes, and the others must follow it. `own_cells`: the run measured this
    /// server's own encoders (`run --server nginx`), which then stand for it; otherwise
    /// the fresh server-library cells are the estimate.
    pub(crate) fn can_express(
        self,
        id: &CellId,
        shared_level: Option<i32>,
        own_cells: bool,
    ) -> bool {
        self.runs(id, own_cells)
            && match self {
                Server::Aspnetcore => super::aspnetcore::can_express(id),
                Server::Nginx => super::nginx::can_express(id),
                Server::Caddy => super::caddy::can_express(id),
                Server::TowerHttp => super::tower_http::can_express(id, shared_level),
                // mod_brotli and mod_deflate; compression's br and gzip.
                Server::Apache | Server::Express => super::brief::brotli_or_gzip(id),
            }
    }

    /// Whether `id` is a cell of the library (and variant) this server compresses with.
    fn runs(self, id: &CellId, own_cells: bool) -> bool {
        // Measured as the server (`run --server`, the lab), its cells are its own
        // libraries and variant. Otherwise the fresh cells of what it links stand in:
        // tower-http's brotli crate and zlib-rs, the C libraries and zlib-rs for others.
        let own_variant = match (self, id.codec) {
            // nginx's zstd, where built in, is libzstd as every server runs it.
            (Server::Nginx, CodecKind::Zstd) => false,
            _ => own_cells,
        };
        let variant_fits = if own_variant {
            self.owns(id.variant)
        } else {
            id.variant == Variant::Fresh
        };
        let library = match (own_cells, self) {
            (true, _) | (false, Server::TowerHttp) => Library::served_by(self, id.codec),
            (false, _) => Library::servers_run(id.codec),
        };
        id.library == library && variant_fits
    }

    /// Whether cells of `variant` measure this server's own encoders (`run --server`).
    pub(crate) fn owns(self, variant: Variant) -> bool {
        if let Variant::Served { server } = variant {
            return server == self;
        }
        matches!(
            (self, variant),
            (Server::Nginx, Variant::Nginx)
                | (Server::TowerHttp, Variant::TowerHttp)
                | (Server::Aspnetcore, Variant::Aspnetcore { .. })
                | (Server::Apache, Variant::Apache)
        )
    }

    /// Whether the server sets one level for all encodings, so that the answer must be
    /// recomputed with the first encoding's level for all.
    pub(crate) fn shares_one_level(self) -> bool {
        self == Server::TowerHttp
    }

    /// The configuration for bodies of `content_types`: compression per request as
    /// `dynamic` (computed among the settings the server can express) says, and files
    /// precompressed as `fixed` says (any server can send a file compressed elsewhere).
    /// `zstd_module`: the server has the zstd module a stock build lacks (nginx's
    /// zstd-nginx-module); without it those directives are written commented.
    /// `alone`: for a server that shares one level, the setting its first encoding
    /// would take without the others, so that the output can say what sharing costs.
    /// `places`: the run's payloads by name, in order (see [`Syntax::name`]).
    pub(crate) fn render(
        self,
        dynamic: &Answer,
        fixed: &Answer,
        content_types: &[String],
        zstd_module: bool,
        alone: Option<&EncodingAnswer>,
        places: &[String],
    ) -> String {
        let plan = Brief {
            dynamic: line(dynamic, Scenario::Dynamic),
            fixed: line(fixed, Scenario::Static),
            content_types,
            zstd_module,
            alone,
            syntax: self.syntax(),
            places,
        };
        match self {
            Server::Aspnetcore => super::aspnetcore::render(&plan),
            Server::Nginx => super::nginx::render(&plan),
            Server::Caddy => super::caddy::render(&plan),
            Server::TowerHttp => super::tower_http::render(&plan),
            Server::Apache => super::apache::render(&plan),
            Server::Express => super::express::render(&plan),
        }
    }
}

impl Server {
    /// The format its configuration is written in.
    pub(crate) fn syntax(self) -> Syntax {
        match self {
            Server::Aspnetcore => Syntax::CSharp,
            Server::Nginx => Syntax::Nginx,
            Server::Caddy => Syntax::Caddyfile,
            Server::TowerHttp => Syntax::Rust,
            Server::Apache => Syntax::Apache,
            Server::Express => Syntax::JavaScript,
        }
    }
}

fn line(answer: &Answer, scenario: Scenario) -> &AnswerLine {
    answer
        .lines
        .iter()
        .find(|l| l.scenario == scenario)
        .expect("an answer has a line per scenario")
}
