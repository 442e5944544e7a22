//! ASP.NET Core 11: `AddResponseCompression` with the providers in the order to prefer
//! them, `ZstandardCompressionOptions.Quality` for zstd, and `CompressionLevel` for
//! brotli and gzip, which reaches only three qualities each (.NET maps Fastest,
//! Optimal and SmallestSize to brotli 1, 4, 11 and zlib-ng 1, 6, 9).

use super::brief::Brief;
use crate::vocab::CellId;
use crate::vocab::{CodecKind, Variant};

/// The .NET `CompressionLevel` member for a brotli or gzip level, if one maps to it.
fn dotnet_level(codec: CodecKind, level: i32) -> Option<&'static str> {
    match (codec, level) {
        (CodecKind::Brotli, 1) | (CodecKind::Gzip, 1) => Some("Fastest"),
        (CodecKind::Brotli, 4) | (CodecKind::Gzip, 6) => Some("Optimal"),
        (CodecKind::Brotli, 11) | (CodecKind::Gzip, 9) => Some("SmallestSize"),
        _ => None,
    }
}

/// Any zstd quality; brotli and gzip only at the levels `CompressionLevel` maps to.
pub(super) fn can_express(id: &CellId) -> bool {
    id.codec == CodecKind::Zstd || dotnet_level(id.codec, id.level).is_some()
}

fn provider(codec: CodecKind) -> &'static str {
    match codec {
        CodecKind::Zstd => "Zstandard",
        CodecKind::Brotli => "Brotli",
        CodecKind::Gzip => "Gzip",
    }
}

/// The `Configure<…ProviderOptions>` call that sets one provider's level.
fn level_setting(codec: CodecKind, level: i32) -> String {
    let name = provider(codec);
    match dotnet_level(codec, level) {
        Some(member) if codec != CodecKind::Zstd => format!(
            "builder.Services.Configure<{name}CompressionProviderOptions>(options =>\n    \
             options.Level = CompressionLevel.{member}); // {} {level}\n",
            codec.content_coding()
        ),
        _ => format!(
            "builder.Services.Configure<{name}CompressionProviderOptions>(options =>\n    \
             options.CompressionOptions = new ZstandardCompressionOptions {{ Quality = {level} }});\n"
        ),
    }
}

/// ASP.NET Core has no minimum size: a provider that declines short bodies, which
/// works where the response sets Content-Length before its first write.
fn minimum_size_filter(bytes: u64) -> String {
    format!(
        "\n// ASP.NET Core has no minimum body size. This provider, registered above, declines\n\
         // bodies under {bytes} bytes when the response sets Content-Length before writing; a\n\
         // body streamed without it is compressed whatever its size. At the end of\n\
         // Program.cs, after the top-level statements:\n\
         sealed class MinimumSizeCompressionProvider(\n    \
         IServiceProvider services, IOptions<ResponseCompressionOptions> options)\n    \
         : ResponseCompressionProvider(services, options)\n{{\n    \
         public override bool ShouldCompressResponse(HttpContext context) =>\n        \
         context.Response.ContentLength is not < {bytes} && base.ShouldCompressResponse(context);\n}}\n"
    )
}

/// Where the answer's bytes came from, and what brotli Fastest costs on Kestrel's wire.
fn wire_note(plan: &Brief) -> String {
    let on_wire = plan
        .dynamic
        .encodings
        .iter()
        .any(|e| matches!(e.id.variant, Variant::Aspnetcore { .. }));
    let mut note = if on_wire {
        "// Its bytes are modelled from its source (docs/servers.md), not measured on a live\n\
         // Kestrel: since .NET 9, minimal APIs and MVC hand the encoder 4 KB writes and\n\
         // flush every 14.7 KB.\n"
            .to_string()
    } else {
        "// Its bytes were measured in one write, not as Kestrel sends them: run recommend\n\
         // with --server aspnetcore for the wire (docs/servers.md).\n"
            .to_string()
    };
    let brotli_fastest = plan
        .dynamic(CodecKind::Brotli)
        .is_some_and(|e| e.id.level <= 1);
    if brotli_fastest {
        note +=
            "// brotli Fastest compresses each 4 KB write on its own: on the article's JSON it\n\
                 // sends 59% more than in one write, more than gzip Fastest.\n";
    }
    note
}

/// Program.cs lines for the plan.
pub(super) fn render(plan: &Brief) -> String {
    let mut out = plan.comment("codecbench recommend:", plan.dynamic);
    out += "// Written for ASP.NET Core 11's Microsoft.AspNetCore.ResponseCompression; the\n\
            // names are checked against its API reference, not compiled here.\n";
    out += &wire_note(plan);
    if plan.dynamic.encodings.is_empty() {
        out += "// Sending bodies uncompressed was faster at every size measured: leave\n\
                // AddResponseCompression and UseResponseCompression out.\n";
        return out;
    }
    out += "using System.IO.Compression;\nusing Microsoft.AspNetCore.ResponseCompression;\n\
            using Microsoft.Extensions.Options;\n\n\
            builder.Services.AddResponseCompression(options =>\n{\n    \
            // Compressing a secret next to attacker-controlled input leaks it through the\n    \
            // compressed size (CRIME, BREACH): enable over HTTPS only for responses\n    \
            // without secrets, or with the mitigations in place.\n    \
            options.EnableForHttps = true;\n    \
            // The order of the providers is the order of preference.\n";
    for encoding in &plan.dynamic.encodings {
        out += &format!(
            "    options.Providers.Add<{}CompressionProvider>();\n",
            provider(encoding.id.codec)
        );
    }
    out += "});\n";
    for encoding in &plan.dynamic.encodings {
        out += &level_setting(encoding.id.codec, encoding.id.level);
    }
    if plan.min_bytes().is_some() {
        out += "builder.Services.AddSingleton<IResponseCompressionProvider, \
                MinimumSizeCompressionProvider>();\n";
    }
    out += "\n// app.UseResponseCompression(); goes before the endpoints it compresses.\n";
    if !plan.fixed.encodings.is_empty() {
        out += &format!(
            "\n{}// app.MapStaticAssets() compresses wwwroot's files itself at build and publish, at\n\
             // its own levels, and picks the variant by Accept-Encoding. app.UseStaticFiles()\n\
             // never reads Accept-Encoding: a .br or .gz beside a file goes out only when asked\n\
             // for by its own name. To send these levels, precompress with: {}\n\
             // and serve the files from a server that negotiates (nginx's gzip_static and\n\
             // brotli_static, Caddy's file_server precompressed).\n",
            plan.comment("", plan.fixed),
            plan.precompress_commands().join("; ")
        );
    }
    if let Some(bytes) = plan.min_bytes() {
        out += &minimum_size_filter(bytes);
    }
    out
}
