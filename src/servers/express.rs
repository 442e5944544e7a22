//! Express with the `compression` middleware (expressjs/compression 1.8): one options
//! object for every encoding. It sends br to a client that accepts br and gzip, has one
//! `threshold` (by Content-Length, or the length of a body sent in one `res.end`), and
//! cannot turn br or gzip off: the filter, which runs before it negotiates, takes an
//! encoding the answer leaves out off the request's Accept-Encoding. No zstd.
//!
//! References: expressjs/compression `index.js` at 83a0c45 (tag v1.8.1; 1.8.2 from npm
//! changes only the release of a closed stream): `PREFERRED_ENCODING`, `threshold`,
//! `opts.brotli.params`, `filter` before `negotiator.encoding`.

use super::brief::{brotli_or_gzip, type_alternatives, Brief};
use crate::analysis::recommend::EncodingAnswer;
use crate::vocab::{CodecKind, Server};

/// The Node.js app this output was run in by the tests (`lab/express`).
pub(super) const CHECKED_WITH: &str = "Node.js 20, Express 5.3.0 and compression 1.8.2";

/// A JavaScript regex literal matching `content_types` at the start of Content-Type.
fn type_regex(content_types: &[String]) -> String {
    format!("/^({})(;|\\s|$)/i", type_alternatives(content_types, true))
}

/// The options' lines for `encodings`, each ending in a comma.
fn options(encodings: &[&EncodingAnswer], threshold: u64) -> String {
    let mut out = format!("  threshold: {threshold},\n");
    for encoding in encodings {
        out += &match encoding.id.codec {
            CodecKind::Brotli => format!(
                "  brotli: {{ params: {{ [zlib.constants.BROTLI_PARAM_QUALITY]: {} }} }},\n",
                encoding.id.level
            ),
            _ => format!("  level: {},\n", encoding.id.level),
        };
    }
    out
}

/// The filter: the content types, and the encodings to take off Accept-Encoding.
fn filter(types: &str, left_out: &[&str]) -> String {
    if left_out.is_empty() {
        return format!(
            "  filter: (req, res) => {types}.test(String(res.getHeader('Content-Type') ?? '')),\n"
        );
    }
    let codings = left_out.join("|");
    format!(
        "  filter: (req, res) => {{\n    \
         // compression offers every encoding it has; this answer leaves {codings} off.\n    \
         const accepted = String(req.headers['accept-encoding'] ?? '').split(',');\n    \
         req.headers['accept-encoding'] = accepted.filter((c) => !/^\\s*({codings})\\s*(;|$)/i.test(c)).join(',');\n    \
         return {types}.test(String(res.getHeader('Content-Type') ?? ''));\n  }},\n"
    )
}

/// Comments on what br's precedence and the single threshold change in the answer,
/// whose encodings (`encodings`, br first) came in the order `preferred` first.
fn caveats(encodings: &[&EncodingAnswer], preferred: CodecKind, threshold: u64) -> String {
    let mut out = String::new();
    if encodings.len() > 1 && preferred != CodecKind::Brotli {
        out += "// The answer prefers gzip; compression sends br to a client that accepts both.\n";
    }
    for encoding in encodings.iter().filter(|e| e.min_body.bytes != threshold) {
        out += &format!(
            "// {} alone would start at {} bytes: compression has one threshold.\n",
            encoding.id.codec.content_coding(),
            crate::format::thousands(encoding.min_body.bytes)
        );
    }
    out
}

/// Where the sizes came from: through a live Express (the lab), or estimated.
fn measured_as(plan: &Brief) -> String {
    match plan
        .dynamic
        .encodings
        .iter()
        .any(|e| Server::Express.owns(e.id.variant))
    {
        true => plan.measured_as(Server::Express),
        false => "// Sizes estimated with C brotli and zlib-rs in one write: Node's zlib is\n\
                  // Chromium's fork. codecbench lab measures through Express.\n"
            .to_string(),
    }
}

/// The middleware for `encodings` (br first; the answer put `preferred` first).
fn middleware(
    encodings: &[&EncodingAnswer],
    preferred: CodecKind,
    content_types: &[String],
) -> String {
    let threshold = encodings[0].min_body.bytes;
    let mut out = caveats(encodings, preferred, threshold);
    out += "// A body streamed with res.write is compressed whatever its size.\n";
    let has = |codec| encodings.iter().any(|e| e.id.codec == codec);
    let mut left_out = Vec::new();
    if !has(CodecKind::Brotli) {
        left_out.push("br");
    }
    if !has(CodecKind::Gzip) {
        left_out.extend(["gzip", "deflate"]);
    }
    out += "const zlib = require('node:zlib');\nconst compression = require('compression');\n\n\
            app.use(compression({\n";
    out += &options(encodings, threshold);
    out += &filter(&type_regex(content_types), &left_out);
    out + "}));\n"
}

/// JavaScript for an Express app whose `app` is defined.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += &format!("// Checked with {CHECKED_WITH}.\n");
    out += &measured_as(plan);
    let mut encodings: Vec<&EncodingAnswer> = plan
        .dynamic
        .encodings
        .iter()
        .filter(|e| brotli_or_gzip(&e.id))
        .collect();
    if plan.dynamic.encodings.len() > encodings.len() {
        out += "// compression has no zstd: zstd is left out.\n";
    }
    let preferred = encodings.first().map(|e| e.id.codec);
    // compression's order: br first.
    encodings.sort_by_key(|e| e.id.codec != CodecKind::Brotli);
    out += &match preferred {
        Some(preferred) => middleware(&encodings, preferred, plan.content_types),
        None => {
            "// Sending bodies uncompressed was faster at every size measured: no compression.\n"
                .to_string()
        }
    };
    out + &plan.precompress_note(
        "express.static sends files as they are: a precompressed copy needs its own route.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_match_only_themselves() {
        let types = ["application/json", "image/svg+xml", "other text"].map(String::from);
        assert_eq!(
            type_regex(&types),
            r"/^(application\/json|image\/svg\+xml)(;|\s|$)/i"
        );
    }

    #[test]
    fn br_goes_first_with_its_minimum_as_the_one_threshold() {
        use crate::servers::tests::{answer, encoding, render};
        use crate::vocab::Library;
        let dynamic = vec![
            encoding(CodecKind::Gzip, Library::ZlibRs, 1, 900),
            encoding(CodecKind::Brotli, Library::Libbrotli, 4, 600),
        ];
        let text = render(Server::Express, &answer(dynamic, Vec::new()));
        assert!(text.contains("  threshold: 600,\n"), "{text}");
        assert!(text.find("QUALITY]: 4") < text.find("level: 1,"), "{text}");
        assert!(text.contains("The answer prefers gzip"), "{text}");
        assert!(
            text.contains("gzip alone would start at 900 bytes"),
            "{text}"
        );
        assert!(!text.contains("leaves"), "both are on:\n{text}");
        let brotli_only = vec![encoding(CodecKind::Brotli, Library::Libbrotli, 5, 600)];
        let text = render(Server::Express, &answer(brotli_only, Vec::new()));
        assert!(text.contains("leaves gzip|deflate off"), "{text}");
        let none = render(Server::Express, &answer(Vec::new(), Vec::new()));
        assert!(!none.contains("app.use"), "{none}");
    }
}
