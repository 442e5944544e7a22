//! nginx: the gzip module built in, `ngx_brotli` for br and `zstd-nginx-module` for
//! zstd, each with its own level and minimum length, and the `*_static` directives for
//! files precompressed at build time.

use super::{comment, Plan};
use crate::codec::CodecKind;
use crate::vocab::CellId;

/// zstd 1..=22 (zstd_comp_level), brotli 0..=11, gzip 1..=9.
pub(super) fn can_express(id: &CellId) -> bool {
    match id.codec {
        CodecKind::Zstd => (1..=22).contains(&id.level),
        CodecKind::Brotli => (0..=11).contains(&id.level),
        CodecKind::Gzip => (1..=9).contains(&id.level),
    }
}

fn prefix(codec: CodecKind) -> &'static str {
    match codec {
        CodecKind::Zstd => "zstd",
        CodecKind::Brotli => "brotli",
        CodecKind::Gzip => "gzip",
    }
}

/// nginx.conf lines, for the `http`, `server` or `location` context.
pub(super) fn render(plan: &Plan) -> String {
    let mut out = comment("# codecbench recommend:", plan.dynamic);
    out += "# zstd needs zstd-nginx-module and br ngx_brotli; gzip is built in. nginx has no\n\
            # order of preference: a client that accepts several gets the one whose filter\n\
            # runs first, so leave out the encodings you would not prefer.\n";
    // text/html is always compressed; listing it draws a duplicate-type warning.
    let types: Vec<&str> = plan
        .content_types
        .iter()
        .map(String::as_str)
        .filter(|t| *t != "text/html")
        .collect();
    for codec in CodecKind::ALL {
        let name = prefix(codec);
        match plan.dynamic(codec) {
            Some(encoding) => {
                out += &format!("{name} on;\n");
                out += &format!("{name}_comp_level {};\n", encoding.id.level);
                out += &format!("{name}_min_length {};\n", encoding.min_body.bytes);
                if !types.is_empty() {
                    out += &format!("{name}_types {};\n", types.join(" "));
                }
            }
            None => out += &format!("{name} off;\n"),
        }
    }
    out += "gzip_vary on;\n";
    if !plan.fixed.encodings.is_empty() {
        out += &format!(
            "\n{}# Precompress each file with: {}\n",
            comment("#", plan.fixed),
            plan.precompress_commands().join("; ")
        );
        for encoding in &plan.fixed.encodings {
            out += &format!("{}_static on;\n", prefix(encoding.id.codec));
        }
    }
    out
}
