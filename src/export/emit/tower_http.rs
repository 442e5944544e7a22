//! tower-http: `CompressionLayer`, which prefers zstd, then br, then gzip when a client
//! weighs them equally, applies one `CompressionLevel::Precise` quality to every
//! encoding (each clamped to its codec's range), and takes a `SizeAbove` predicate for
//! the minimum size. Its br is the brotli crate, not C brotli.

use super::{comment, Plan};
use crate::codec::CodecKind;
use crate::vocab::CellId;

/// The level `shared` becomes for `codec`: tower-http clamps one quality to each
/// codec's range.
fn clamped(codec: CodecKind, shared: i32) -> i32 {
    match codec {
        CodecKind::Zstd => shared,
        CodecKind::Brotli => shared.clamp(0, 11),
        CodecKind::Gzip => shared.clamp(0, 9),
    }
}

/// Any level, as long as every encoding takes the same quality, `shared_level`.
pub(super) fn can_express(id: &CellId, shared_level: Option<i32>) -> bool {
    shared_level.is_none_or(|shared| id.level == clamped(id.codec, shared))
}

/// Rust lines building the layer.
pub(super) fn render(plan: &Plan) -> String {
    let mut out = comment("// codecbench recommend:", plan.dynamic);
    out += "// Written for tower-http 0.7 (the CompressionLayer codecbench's own `http`\n\
            // server runs); the names are checked against its API reference.\n";
    let Some(first) = plan.dynamic.encodings.first() else {
        out += "// Sending bodies uncompressed was faster at every size measured: no layer.\n";
        return out;
    };
    out += "use tower_http::compression::{\n    \
            predicate::{NotForContentType, Predicate, SizeAbove},\n    \
            CompressionLayer, CompressionLevel,\n};\n\n\
            // One quality for every encoding; tower-http prefers zstd, then br, then gzip.\n\
            let compression = CompressionLayer::new()\n";
    for codec in CodecKind::ALL {
        let method = match codec {
            CodecKind::Zstd => "zstd",
            CodecKind::Brotli => "br",
            CodecKind::Gzip => "gzip",
        };
        out += &format!("    .{method}({})\n", plan.dynamic(codec).is_some());
    }
    // SizeAbove compresses bodies larger than its argument.
    let above = plan.min_bytes().unwrap_or(1).saturating_sub(1);
    out += &format!(
        "    .deflate(false)\n    .quality(CompressionLevel::Precise({}))\n    .compress_when(\n        \
         SizeAbove::new({above})\n            .and(NotForContentType::GRPC)\n            \
         .and(NotForContentType::IMAGES)\n            .and(NotForContentType::SSE),\n    );\n",
        first.id.level
    );
    if !plan.fixed.encodings.is_empty() {
        let methods: Vec<String> = plan
            .fixed
            .encodings
            .iter()
            .map(|e| {
                format!(
                    ".precompressed_{}()",
                    match e.id.codec {
                        CodecKind::Zstd => "zstd",
                        CodecKind::Brotli => "br",
                        CodecKind::Gzip => "gzip",
                    }
                )
            })
            .collect();
        out += &format!(
            "\n{}// Precompress each file with: {}\n\
             let assets = tower_http::services::ServeDir::new(\"assets\"){};\n",
            comment("//", plan.fixed),
            plan.precompress_commands().join("; "),
            methods.join("")
        );
    }
    out
}
