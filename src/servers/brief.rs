//! What a server's renderer is given: the answer's lines for dynamic and static
//! responses, and the comments that carry its headline and any wide bracket.

use super::syntax::Syntax;
use crate::analysis::recommend::{AnswerLine, EncodingAnswer};
use crate::vocab::{CodecKind, Server};

/// What a renderer needs.
pub(super) struct Brief<'a> {
    /// What to do per request.
    pub(super) dynamic: &'a AnswerLine,
    /// What to precompress at build time.
    pub(super) fixed: &'a AnswerLine,
    /// The content types to compress.
    pub(super) content_types: &'a [String],
    /// Whether the server has its optional zstd module.
    pub(super) zstd_module: bool,
    /// What the first encoding would take alone, where one level is shared.
    pub(super) alone: Option<&'a EncodingAnswer>,
    /// The format written, whose comments carry the payloads' names.
    pub(super) syntax: Syntax,
    /// The run's payloads in order, by name: a name too long for a comment is written
    /// as its place among them.
    pub(super) places: &'a [String],
}

impl Brief<'_> {
    /// The dynamic setting of `codec`, if it is worth using.
    pub(super) fn dynamic(&self, codec: CodecKind) -> Option<&EncodingAnswer> {
        self.dynamic.encodings.iter().find(|e| e.id.codec == codec)
    }

    /// One comment line on where the per-request bytes came from: as `server` sends them
    /// (`run --server`), or from the libraries it links in one write, an estimate.
    pub(super) fn measured_as(&self, server: Server) -> String {
        let lead = self.syntax.lead();
        let own = self
            .dynamic
            .encodings
            .iter()
            .any(|e| server.owns(e.id.variant));
        let served = self
            .dynamic
            .encodings
            .iter()
            .any(|e| matches!(e.id.variant, crate::vocab::Variant::Served { .. }));
        if served {
            return format!(
                "{lead} Sizes and times measured through a live {server} (codecbench lab): its bytes, and its CPU per response.\n"
            );
        }
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
    pub(super) fn min_bytes(&self) -> Option<u64> {
        self.dynamic.encodings.first().map(|e| e.min_body.bytes)
    }

    /// The static line as comments: its headline, the commands that precompress a file,
    /// and `serving`, on how the server sends the copies.
    pub(super) fn precompress_note(&self, serving: &str) -> String {
        if self.fixed.encodings.is_empty() {
            return String::new();
        }
        let lead = self.syntax.lead();
        format!(
            "\n{}{lead} Precompress each file with: {}\n{lead} {serving}\n",
            self.comment("", self.fixed),
            self.precompress_commands().join("; ")
        )
    }

    /// `line`'s headline as comments, after `intro` (`codecbench recommend:` on the
    /// first), with a line per wide bracket. Names are written as the syntax writes them.
    pub(super) fn comment(&self, intro: &str, line: &AnswerLine) -> String {
        let named = |name: &str| {
            let place = self.places.iter().position(|p| p == name);
            self.syntax.name(name, place)
        };
        let headline = crate::export::recommend::answer::headline(line, &named);
        let mut text = match intro {
            "" => headline,
            intro => format!("{intro} {headline}"),
        };
        for encoding in &line.encodings {
            text += &bracket_warning(encoding);
        }
        self.syntax.comment(&text)
    }

    /// The command-line tools' invocations that precompress a file as the static line
    /// says, e.g. `zstd -19 -k FILE`.
    pub(super) fn precompress_commands(&self) -> Vec<String> {
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

/// brotli 0..=11 and gzip 1..=9, no zstd: what Apache's modules and Express's
/// middleware can be set to.
pub(super) fn brotli_or_gzip(id: &crate::vocab::CellId) -> bool {
    match id.codec {
        CodecKind::Zstd => false,
        CodecKind::Brotli => (0..=11).contains(&id.level),
        CodecKind::Gzip => (1..=9).contains(&id.level),
    }
}

/// `content_types` as alternatives of a regex, `a|b`, each matching only itself. The
/// types are restricted names (`vocab::media_type`): letters, digits and `-._+/`, so
/// escaping `.`, `+` (and `/`, where it closes the regex) is enough.
pub(super) fn type_alternatives(content_types: &[String], slash: bool) -> String {
    let names: Vec<String> = content_types
        .iter()
        .filter(|t| t.contains('/'))
        .map(|t| {
            let escaped = t.replace('.', "\\.").replace('+', "\\+");
            match slash {
                true => escaped.replace('/', "\\/"),
                false => escaped,
            }
        })
        .collect();
    names.join("|")
}

/// A line for a minimum size the measured bodies leave wide apart, as the report
/// warns: the figure between them is an interpolation.
fn bracket_warning(encoding: &EncodingAnswer) -> String {
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
        "\n{}'s minimum of {} bytes lies somewhere between {} and {} bytes, the sizes measured.",
        crate::export::recommend::names::deployable(&encoding.id),
        crate::format::thousands(encoding.min_body.bytes),
        crate::format::thousands(identity_wins),
        crate::format::thousands(compression_wins),
    )
}
