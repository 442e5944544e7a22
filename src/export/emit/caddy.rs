//! Caddy: the `encode` directive. Its encoders are Go ports (klauspost/compress), so
//! the measured libzstd and zlib figures are approximate for it; its zstd takes four
//! named levels, which that library equates to zstd 1, 3, 7 and 11, and it has no br
//! encoder, only precompressed br files.

use super::{comment, Plan};
use crate::codec::CodecKind;
use crate::vocab::CellId;

/// Caddy's name for a zstd level, if it has one.
fn zstd_level(level: i32) -> Option<&'static str> {
    match level {
        1 => Some("fastest"),
        3 => Some("default"),
        7 => Some("better"),
        11 => Some("best"),
        _ => None,
    }
}

/// zstd at its four named levels, gzip 1..=9, no brotli.
pub(super) fn can_express(id: &CellId) -> bool {
    match id.codec {
        CodecKind::Zstd => zstd_level(id.level).is_some(),
        CodecKind::Brotli => false,
        CodecKind::Gzip => (1..=9).contains(&id.level),
    }
}

/// Caddyfile lines, for a site block.
/// The Caddy this output was loaded into and fetched from in the tests.
pub const CHECKED_WITH: &str = "Caddy 2.6.2 (Debian 12: caddy)";

pub(super) fn render(plan: &Plan) -> String {
    let mut out = comment("# codecbench recommend:", plan.dynamic);
    out += &format!("# Checked with {CHECKED_WITH}.\n");
    if plan.dynamic.encodings.is_empty() {
        out += "# Sending bodies uncompressed was faster at every size measured: no encode.\n";
    } else {
        out +=
            "# Caddy prefers the encodings in the order listed; it cannot encode br on the fly.\n\
                encode {\n";
        // An answer computed for Caddy has no br; one computed for another server may.
        for encoding in plan.dynamic.encodings.iter().filter(|e| can_express(&e.id)) {
            let level = match encoding.id.codec {
                CodecKind::Zstd => zstd_level(encoding.id.level)
                    .unwrap_or("default")
                    .to_string(),
                _ => encoding.id.level.to_string(),
            };
            out += &format!("\t{} {level}\n", encoding.id.codec.content_coding());
        }
        if let Some(bytes) = plan.min_bytes() {
            out += &format!("\tminimum_length {bytes}\n");
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
            comment("#", plan.fixed),
            plan.precompress_commands().join("; "),
            formats.join(" ")
        );
    }
    out
}
