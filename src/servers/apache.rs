//! Apache httpd 2.4: mod_brotli and mod_deflate, each put in the chain by mod_filter with
//! an expression, so that each encoding keeps its own minimum size (mod_deflate and
//! mod_brotli have none of their own). br's filter runs first, so a client that accepts
//! both gets br; the second filter then sees a body already encoded and passes it on.
//! httpd has no zstd module, and no directive that serves precompressed files.

use super::brief::{brotli_or_gzip, type_alternatives, Brief};
use crate::vocab::CodecKind;

/// The httpd this output was loaded into and fetched from in the tests.
pub(super) const CHECKED_WITH: &str = "Apache httpd 2.4.71 (Debian 12: apache2)";

/// The filter's name in httpd, its level directive, and the name codecbench declares.
fn filter(codec: CodecKind) -> (&'static str, &'static str, &'static str) {
    match codec {
        CodecKind::Brotli => (
            "BROTLI_COMPRESS",
            "BrotliCompressionQuality",
            "codecbench_br",
        ),
        _ => ("DEFLATE", "DeflateCompressionLevel", "codecbench_gzip"),
    }
}

/// An ap_expr regex matching `content_types` at the start of Content-Type.
fn type_pattern(content_types: &[String]) -> String {
    format!(
        "m#^({})(;|\\s|$)#i",
        type_alternatives(content_types, false)
    )
}

/// The expression under which `codec`'s filter runs: a listed type, and a declared
/// length of at least `min_bytes` (a body streamed without Content-Length always).
fn condition(types: &str, min_bytes: u64) -> String {
    match min_bytes {
        0 => format!("%{{CONTENT_TYPE}} =~ {types}"),
        bytes => format!(
            "%{{CONTENT_TYPE}} =~ {types} && (-z resp('Content-Length') || resp('Content-Length') -ge {bytes})"
        ),
    }
}

/// httpd.conf lines, for the server config or a virtual host.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += &format!("# Checked with {CHECKED_WITH}.\n");
    out += &plan.measured_as(crate::vocab::Server::Apache);
    out += "# For the server config or a virtual host: the levels cannot be set per directory.\n\
            # Needs mod_filter, mod_brotli and mod_deflate (Debian: a2enmod filter brotli deflate).\n";
    let encodings: Vec<_> = plan
        .dynamic
        .encodings
        .iter()
        .filter(|e| brotli_or_gzip(&e.id))
        .collect();
    if plan.dynamic.encodings.len() > encodings.len() {
        out += "# httpd has no zstd module: zstd is left out.\n";
    }
    if encodings.is_empty() {
        out += "# No encoding to send per request: no compression filter.\n";
    } else {
        out += "# A client that accepts several gets the first in the chain. The minimum reads\n\
                # Content-Length: files and proxied responses that send it keep it; a body\n\
                # streamed without it, or from CGI (whose length httpd does not pass on),\n\
                # is compressed whatever its size.\n";
        let types = type_pattern(plan.content_types);
        let mut chain = Vec::new();
        for encoding in encodings {
            let (module_filter, level, name) = filter(encoding.id.codec);
            out += &format!("{level} {}\n", encoding.id.level);
            out += &format!("FilterDeclare {name} CONTENT_SET\n");
            out += &format!(
                "FilterProvider {name} {module_filter} \"{}\"\n",
                condition(&types, encoding.min_body.bytes)
            );
            chain.push(name);
        }
        out += &format!("FilterChain {}\n", chain.join(" "));
    }
    out + &plan.precompress_note(
        "httpd has no directive that serves them: mod_rewrite and mod_headers can.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_match_only_themselves_and_a_minimum_spares_streamed_bodies() {
        let types = ["application/json", "image/svg+xml", "other text"].map(String::from);
        let pattern = type_pattern(&types);
        assert_eq!(pattern, r"m#^(application/json|image/svg\+xml)(;|\s|$)#i");
        assert_eq!(
            condition(&pattern, 0),
            format!("%{{CONTENT_TYPE}} =~ {pattern}")
        );
        let bounded = condition(&pattern, 860);
        assert!(
            bounded.ends_with("(-z resp('Content-Length') || resp('Content-Length') -ge 860)"),
            "{bounded}"
        );
    }
}
