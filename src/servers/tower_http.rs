//! tower-http: `CompressionLayer`, which prefers zstd, then br, then gzip when a client
//! weighs them equally, applies one `CompressionLevel::Precise` quality to every
//! encoding (each clamped to its codec's range), and takes a `SizeAbove` predicate for
//! the minimum size. Its br is the brotli crate, not C brotli.

use super::brief::Brief;
use crate::analysis::recommend::EncodingAnswer;
use crate::vocab::CellId;
use crate::vocab::CodecKind;

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

/// The Cargo features a snippet's methods need: `.zstd(true)`, `.br(true)` and
/// `.gzip(true)` exist only with their codec's feature, and `ServeDir` with `fs`.
fn features(plan: &Brief) -> Vec<&'static str> {
    let mut features: Vec<&str> = CodecKind::ALL
        .into_iter()
        .filter(|&codec| plan.dynamic(codec).is_some())
        .map(|codec| match codec {
            CodecKind::Zstd => "compression-zstd",
            CodecKind::Brotli => "compression-br",
            CodecKind::Gzip => "compression-gzip",
        })
        .collect();
    if !plan.fixed.encodings.is_empty() {
        features.push("fs");
    }
    features
}

/// The method name of `codec` in tower-http.
fn method(codec: CodecKind) -> &'static str {
    match codec {
        CodecKind::Zstd => "zstd",
        CodecKind::Brotli => "br",
        CodecKind::Gzip => "gzip",
    }
}

/// Rust statements building the layer, to paste into a function body: tower-http
/// 0.7.1's `CompressionLayer`, run by the tests as a crate built against it.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += "// Written for tower-http 0.7; built and served in codecbench's tests.\n";
    out += &plan.measured_as(crate::vocab::Server::TowerHttp);
    let Some(first) = plan.dynamic.encodings.first() else {
        out += "// Sending bodies uncompressed was faster at every size measured: no layer.\n";
        return out;
    };
    let features: Vec<String> = features(plan).iter().map(|f| format!("\"{f}\"")).collect();
    out += &format!(
        "// Cargo.toml: tower-http = {{ version = \"0.7\", features = [{}] }}\n",
        features.join(", ")
    );
    if plan.dynamic(CodecKind::Gzip).is_some() {
        out += "// Its gzip is flate2's default backend, miniz_oxide, unless the crate picks\n\
                // another; codecbench's gzip figures are zlib-rs's, so gzip sizes differ.\n";
    }
    if let Some(alone) = plan.alone.filter(|alone| alone.id != first.id) {
        out += &shared_quality_note(plan, first, alone);
    }
    out += "use tower_http::compression::{\n    \
            predicate::{NotForContentType, Predicate, SizeAbove},\n    \
            CompressionLayer, CompressionLevel,\n};\n\n\
            // One quality for every encoding; tower-http prefers zstd, then br, then gzip.\n\
            let compression = CompressionLayer::new()\n";
    for codec in CodecKind::ALL {
        out += &match plan.dynamic(codec) {
            Some(_) => format!("    .{}(true)\n", method(codec)),
            None => format!("    .no_{}()\n", method(codec)),
        };
    }
    // SizeAbove compresses a body of at least its argument (`size >= min`).
    let min = plan.min_bytes().unwrap_or(0);
    out += &format!(
        "    .no_deflate()\n    .quality(CompressionLevel::Precise({}))\n    .compress_when(\n        \
         SizeAbove::new({min})\n            .and(NotForContentType::GRPC)\n            \
         .and(NotForContentType::IMAGES)\n            .and(NotForContentType::SSE),\n    );\n",
        first.id.level
    );
    if !plan.fixed.encodings.is_empty() {
        let methods: String = plan
            .fixed
            .encodings
            .iter()
            .map(|e| format!(".precompressed_{}()", method(e.id.codec)))
            .collect();
        out += &format!(
            "\n{}// Precompress each file with: {}\n\
             let assets = tower_http::services::ServeDir::new(\"assets\"){methods};\n",
            plan.comment("", plan.fixed),
            plan.precompress_commands().join("; "),
        );
    }
    out
}

/// What one quality for every encoding costs: `first` at the shared quality against
/// `alone`, the setting the first encoding would take without the others.
fn shared_quality_note(plan: &Brief, first: &EncodingAnswer, alone: &EncodingAnswer) -> String {
    let served: Vec<&str> = plan
        .dynamic
        .encodings
        .iter()
        .map(|e| e.id.codec.content_coding())
        .collect();
    let name = first.id.codec.content_coding();
    let ms = |s: f64| crate::format::significant(s * 1e3, 3);
    format!(
        "// tower-http sets one quality for every encoding: {q} serves {served}.\n\
         // {name} alone would take {alone}: its slowest body {alone_ms} ms, against {first_ms} ms\n\
         // at {q}, and {cost:+.1}% time per response at {q}. At {alone} the others do not pay,\n\
         // and clients without {name} would get bodies uncompressed.\n",
        q = first.id.level,
        served = served.join(", "),
        alone = alone.id.level,
        alone_ms = ms(alone.slowest_compress_s),
        first_ms = ms(first.slowest_compress_s),
        cost = (first.mean_s / alone.mean_s - 1.0) * 100.0,
    )
}
