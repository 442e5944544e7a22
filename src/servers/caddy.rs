//! Caddy: the `encode` directive. Its encoders are Go ports (klauspost/compress), so
//! the measured libzstd and zlib figures are approximate for it, and it has no br
//! encoder, only precompressed br files.
//!
//! Caddy 2.6 (Debian 12's) sets no zstd level: its Caddyfile parser takes no argument
//! after `zstd`, and the encoder runs klauspost/compress's default level, which stands
//! for zstd 3 (caddyserver/caddy `modules/caddyhttp/encode/zstd/zstd.go` at 6bad878a, tag v2.6.2:
//! `UnmarshalCaddyfile` returns at once, `zstd.NewWriter` gets no level). Later Caddy
//! takes `fastest`, `default`, `better` and `best` (the same file at 03e0a010, v2.8.0); a word
//! 2.6 would drop silently is written as a comment instead.

use super::brief::Brief;
use crate::vocab::CellId;
use crate::vocab::CodecKind;

/// The zstd level Caddy 2.6 runs, its encoder's default.
const ZSTD_DEFAULT: i32 = 3;

/// zstd at its default level, gzip 1..=9, no brotli.
pub(super) fn can_express(id: &CellId) -> bool {
    match id.codec {
        CodecKind::Zstd => id.level == ZSTD_DEFAULT,
        CodecKind::Brotli => false,
        CodecKind::Gzip => (1..=9).contains(&id.level),
    }
}

/// Caddy's `minimum_length` for bodies of at least `bytes`: it encodes only a body
/// longer than the setting, and takes 0 for its default, 512 (caddyserver/caddy
/// `modules/caddyhttp/encode/encode.go`: `len(p) > rw.config.MinLength`, and
/// `defaultMinLength` when 0; Caddy 2.6.2 checked in `tests/caddy.rs`). So one less,
/// and never 0.
fn minimum_length(bytes: u64) -> u64 {
    bytes.saturating_sub(1).max(1)
}

/// The Caddy this output was loaded into and fetched from in the tests.
pub(super) const CHECKED_WITH: &str = "Caddy 2.6.2 (Debian 12: caddy)";

/// Caddyfile lines, for a site block.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += &format!("# Checked with {CHECKED_WITH}.\n");
    let caddy = crate::vocab::Server::Caddy;
    if plan
        .dynamic
        .encodings
        .iter()
        .any(|e| caddy.owns(e.id.variant))
    {
        out += &plan.measured_as(caddy);
    }
    if plan.dynamic.encodings.is_empty() {
        out += "# Sending bodies uncompressed was faster at every size measured: no encode.\n";
    } else {
        out +=
            "# Caddy prefers the encodings in the order listed; it cannot encode br on the fly.\n\
                encode {\n";
        // An answer computed for Caddy has no br; one computed for another server may.
        for encoding in plan.dynamic.encodings.iter().filter(|e| can_express(&e.id)) {
            out += &match encoding.id.codec {
                CodecKind::Zstd => "\t# Caddy 2.6 takes no zstd level: its encoder's default stands for zstd 3.\n\
                                    \t# Later Caddy takes `zstd default` (or fastest, better, best).\n\
                                    \tzstd\n"
                    .to_string(),
                _ => format!("\t{} {}\n", encoding.id.codec.content_coding(), encoding.id.level),
            };
        }
        if let Some(bytes) = plan.min_bytes() {
            out += &format!("\tminimum_length {}\n", minimum_length(bytes));
        }
        out += "\tmatch {\n";
        for content_type in plan.content_types {
            out += &format!("\t\theader Content-Type {content_type}*\n");
        }
        out += "\t}\n}\n";
    }
    if !plan.fixed.encodings.is_empty() {
        let formats: Vec<&str> = plan
            .fixed
            .encodings
            .iter()
            .map(|e| e.id.codec.content_coding())
            .collect();
        out += &format!(
            "\n{}# Precompress each file with: {}\nfile_server {{\n\tprecompressed {}\n}}\n",
            plan.comment("", plan.fixed),
            plan.precompress_commands().join("; "),
            formats.join(" ")
        );
    }
    out
}
