//! `recommend --emit`: the answer as configuration to paste into a server, with each
//! codec's level mapped onto that server's knobs. A server that cannot express a
//! setting gets the answer recomputed among the settings it can express, and says
//! what it cannot do (a minimum size, a per-encoding level, an encoding).

mod aspnetcore;
mod caddy;
mod nginx;
#[cfg(test)]
mod tests;
mod tower_http;

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
                Server::Aspnetcore => aspnetcore::can_express(id),
                Server::Nginx => nginx::can_express(id),
                Server::Caddy => caddy::can_express(id),
                Server::TowerHttp => tower_http::can_express(id, shared_level),
            }
    }

    /// Whether `id` is a cell of the library (and variant) this server compresses with.
    fn runs(self, id: &CellId, own_cells: bool) -> bool {
        // tower-http's br is the brotli crate (through async-compression); the others
        // link Google's C brotli. nginx links madler zlib; measured as nginx, both its
        // encoders are the `nginx` variant.
        let (brotli, gzip) = match self {
            Server::TowerHttp => (Library::BrotliRs, Library::ZlibRs),
            Server::Nginx if own_cells => (Library::Libbrotli, Library::Zlib),
            _ => (Library::Libbrotli, Library::ZlibRs),
        };
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
        let library = match id.codec {
            CodecKind::Zstd => Library::Libzstd,
            CodecKind::Brotli => brotli,
            CodecKind::Gzip => gzip,
        };
        id.library == library && variant_fits
    }

    /// Whether cells of `variant` measure this server's own encoders (`run --server`).
    pub(crate) fn owns(self, variant: Variant) -> bool {
        matches!(
            (self, variant),
            (Server::Nginx, Variant::Nginx)
                | (Server::TowerHttp, Variant::TowerHttp)
                | (Server::Aspnetcore, Variant::Aspnetcore { .. })
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
    pub(crate) fn render(
        self,
        dynamic: &Answer,
        fixed: &Answer,
        content_types: &[String],
        zstd_module: bool,
        alone: Option<&EncodingAnswer>,
    ) -> String {
        let plan = Plan {
            dynamic: line(dynamic, Scenario::Dynamic),
            fixed: line(fixed, Scenario::Static),
            content_types,
            zstd_module,
            alone,
        };
        match self {
            Server::Aspnetcore => aspnetcore::render(&plan),
            Server::Nginx => nginx::render(&plan),
            Server::Caddy => caddy::render(&plan),
            Server::TowerHttp => tower_http::render(&plan),
        }
    }
}

/// What a renderer needs.
struct Plan<'a> {
    /// What to do per request.
    dynamic: &'a AnswerLine,
    /// What to precompress at build time.
    fixed: &'a AnswerLine,
    /// The content types to compress.
    content_types: &'a [String],
    /// Whether the server has its optional zstd module.
    zstd_module: bool,
    /// What the first encoding would take alone, where one level is shared.
    alone: Option<&'a EncodingAnswer>,
}

impl Plan<'_> {
    /// The dynamic setting of `codec`, if it is worth using.
    fn dynamic(&self, codec: CodecKind) -> Option<&EncodingAnswer> {
        self.dynamic.encodings.iter().find(|e| e.id.codec == codec)
    }

    /// One comment line on where the per-request bytes came from: as `server` sends them
    /// (`run --server`), or from the libraries it links in one write, an estimate.
    fn measured_as(&self, server: Server, lead: &str) -> String {
        let own = self
            .dynamic
            .encodings
            .iter()
            .any(|e| server.owns(e.id.variant));
        match own {
            true => {
                format!("{lead} Sizes measured as {server} sends them (run --server {server}).\n")
            }
            false => format!(
                "{lead} Sizes measured in one write with the libraries {server} links, not as it \
                 sends them:\n{lead} recommend --emit {server} alone measures as it sends.\n"
            ),
        }
    }

    /// The smallest body worth compressing per request, by the preferred encoding.
    fn min_bytes(&self) -> Option<u64> {
        self.dynamic.encodings.first().map(|e| e.min_body.bytes)
    }

    /// The command-line tools' invocations that precompress a file as the static line
    /// says, e.g. `zstd -19 -k FILE`.
    fn precompress_commands(&self) -> Vec<String> {
        self.fixed
            .encodings
            .iter()
            .map(|e| match e.id.codec {
                CodecKind::Zstd if e.id.level > 19 => {
                    format!("zstd --ultra -{} -k FILE", e.id.level)
                }
                CodecKind::Zstd => format!("zstd -{} -k FILE", e.id.level),
                CodecKind::Brotli => format!("brotli -q {} -k FILE", e.id.level),
                CodecKind::Gzip => format!("gzip -{} -k FILE", e.id.level.max(1)),
            })
            .collect()
    }
}

fn line(answer: &Answer, scenario: Scenario) -> &AnswerLine {
    answer
        .lines
        .iter()
        .find(|l| l.scenario == scenario)
        .expect("an answer has a line per scenario")
}

/// The answer's headline for `scenario`, as a comment after `marker`.
fn comment(marker: &str, line: &AnswerLine) -> String {
    let mut text = format!("{marker} {}\n", super::recommend::answer::headline(line));
    let lead = marker.split_whitespace().next().unwrap_or(marker);
    for encoding in &line.encodings {
        text += &bracket_warning(lead, encoding);
    }
    text
}

/// A comment line for a minimum size the measured bodies leave wide apart, as the
/// report warns: the figure between them is an interpolation.
fn bracket_warning(lead: &str, encoding: &EncodingAnswer) -> String {
    use crate::analysis::recommend::{bracket::narrow, Evidence};
    let Evidence::Between {
        identity_wins,
        compression_wins,
    } = encoding.min_body.evidence
    else {
        return String::new();
    };
    if narrow((identity_wins, compression_wins)) {
        return String::new();
    }
    format!(
        "{lead} {}'s minimum of {} bytes lies somewhere between {} and {} bytes, the sizes measured.\n",
        super::recommend::answer::deployable(&encoding.id),
        crate::format::thousands(encoding.min_body.bytes),
        crate::format::thousands(identity_wins),
        crate::format::thousands(compression_wins),
    )
}
