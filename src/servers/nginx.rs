//! nginx: the gzip module built in, `ngx_brotli` for br and `zstd-nginx-module` for
//! zstd, each with its own level and minimum length, and the `*_static` directives for
//! files precompressed at build time.

use super::brief::Brief;
use crate::vocab::CellId;
use crate::vocab::CodecKind;

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

/// The nginx and ngx_brotli this output was loaded into and fetched from in the tests.
pub(super) const CHECKED_WITH: &str = "nginx 1.22.1 with ngx_brotli 1.0.0~rc (Debian 12: nginx, \
     libnginx-mod-http-brotli-filter, libnginx-mod-http-brotli-static)";

/// nginx.conf lines, for the `http`, `server` or `location` context.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += &format!("# Checked with {CHECKED_WITH}.\n");
    out += &plan.measured_as(crate::vocab::Server::Nginx);
    out += "# br needs ngx_brotli's modules; gzip is built in. nginx has no order of\n\
            # preference: a client that accepts several gets the one whose filter runs\n\
            # first, so leave out the encodings you would not prefer.\n";
    // zstd-nginx-module is in no stock build or distribution package: its directives
    // would stop nginx from starting, so they stay commented unless it is there.
    let zstd = if plan.zstd_module { "" } else { "# " };
    if !plan.zstd_module {
        out += "# zstd needs zstd-nginx-module, which stock nginx lacks: load it, then\n\
                # uncomment the zstd lines (or run recommend with --nginx-zstd-module).\n";
    }
    // text/html is always compressed; listing it draws a duplicate-type warning.
    let types: Vec<&str> = plan
        .content_types
        .iter()
        .map(String::as_str)
        .filter(|t| *t != "text/html")
        .collect();
    for codec in CodecKind::ALL {
        let name = prefix(codec);
        let lead = if codec == CodecKind::Zstd { zstd } else { "" };
        match plan.dynamic(codec) {
            Some(encoding) => {
                out += &format!("{lead}{name} on;\n");
                out += &format!("{lead}{name}_comp_level {};\n", encoding.id.level);
                out += &format!("{lead}{name}_min_length {};\n", encoding.min_body.bytes);
                if !types.is_empty() {
                    out += &format!("{lead}{name}_types {};\n", types.join(" "));
                }
            }
            None => out += &format!("{lead}{name} off;\n"),
        }
    }
    out += "gzip_vary on;\n";
    if !plan.fixed.encodings.is_empty() {
        out += &format!(
            "\n{}# Precompress each file with: {}\n",
            plan.comment("", plan.fixed),
            plan.precompress_commands().join("; ")
        );
        for encoding in &plan.fixed.encodings {
            let codec = encoding.id.codec;
            let lead = if codec == CodecKind::Zstd { zstd } else { "" };
            out += &format!("{lead}{}_static on;\n", prefix(codec));
        }
    }
    out
}
