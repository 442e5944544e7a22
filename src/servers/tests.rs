//! Each server's configuration, checked against the directives and API names its
//! documentation lists, and for the levels mapped onto its knobs.

use crate::analysis::recommend::{Answer, AnswerLine, EncodingAnswer, Scenario};
use crate::analysis::recommend::{Evidence, MinBody};
use crate::vocab::{CellId, CodecKind, Library, Server, Variant};

/// Directives of nginx's gzip and gzip_static modules
/// (nginx.org/en/docs/http/ngx_http_gzip_module.html, ngx_http_gzip_static_module.html),
/// of ngx_brotli (github.com/google/ngx_brotli) and of zstd-nginx-module
/// (github.com/tokers/zstd-nginx-module).
const NGINX_DIRECTIVES: [&str; 24] = [
    "gzip",
    "gzip_buffers",
    "gzip_comp_level",
    "gzip_disable",
    "gzip_http_version",
    "gzip_min_length",
    "gzip_proxied",
    "gzip_types",
    "gzip_vary",
    "gzip_static",
    "brotli",
    "brotli_static",
    "brotli_types",
    "brotli_buffers",
    "brotli_comp_level",
    "brotli_window",
    "brotli_min_length",
    "zstd",
    "zstd_comp_level",
    "zstd_min_length",
    "zstd_types",
    "zstd_buffers",
    "zstd_static",
    "zstd_dict_file",
];

/// Caddyfile words of the `encode` directive and its `match` response matcher
/// (caddyserver.com/docs/caddyfile/directives/encode) and of `file_server`'s
/// `precompressed` (caddyserver.com/docs/caddyfile/directives/file_server).
const CADDY_WORDS: [&str; 9] = [
    "encode",
    "gzip",
    "zstd",
    "minimum_length",
    "match",
    "header",
    "file_server",
    "precompressed",
    "}",
];

/// Names the C# uses: Microsoft.AspNetCore.ResponseCompression's API
/// (learn.microsoft.com/aspnet/core/performance/response-compression and the API
/// reference: ResponseCompressionOptions, the three providers and their options,
/// ZstandardCompressionOptions.Quality, ResponseCompressionProvider), System.IO
/// .Compression.CompressionLevel, and the hosting and DI names every Program.cs has.
const ASPNETCORE_NAMES: [&str; 33] = [
    "System",
    "IO",
    "Compression",
    "Microsoft",
    "AspNetCore",
    "ResponseCompression",
    "Extensions",
    "Options",
    "builder",
    "Services",
    "AddResponseCompression",
    "options",
    "EnableForHttps",
    "Providers",
    "Add",
    "ZstandardCompressionProvider",
    "BrotliCompressionProvider",
    "GzipCompressionProvider",
    "Configure",
    "ZstandardCompressionProviderOptions",
    "BrotliCompressionProviderOptions",
    "GzipCompressionProviderOptions",
    "CompressionOptions",
    "ZstandardCompressionOptions",
    "Quality",
    "Level",
    "CompressionLevel",
    "Fastest",
    "Optimal",
    "SmallestSize",
    "AddSingleton",
    "IResponseCompressionProvider",
    "MinimumSizeCompressionProvider",
];

/// The names the provider subclass adds: ResponseCompressionProvider's constructor
/// and its virtual ShouldCompressResponse, and HttpContext.Response.ContentLength.
const ASPNETCORE_PROVIDER_NAMES: [&str; 12] = [
    "IServiceProvider",
    "services",
    "IOptions",
    "ResponseCompressionOptions",
    "ResponseCompressionProvider",
    "ShouldCompressResponse",
    "HttpContext",
    "context",
    "Response",
    "ContentLength",
    "base",
    "true",
];

/// tower-http 0.7's names (docs.rs/tower-http/0.7: compression::CompressionLayer,
/// CompressionLevel, predicate::{SizeAbove, NotForContentType, Predicate},
/// services::ServeDir).
const TOWER_HTTP_NAMES: [&str; 26] = [
    "tower_http",
    "compression",
    "predicate",
    "NotForContentType",
    "Predicate",
    "SizeAbove",
    "CompressionLayer",
    "CompressionLevel",
    "new",
    "zstd",
    "br",
    "gzip",
    "no_deflate",
    "no_zstd",
    "no_br",
    "no_gzip",
    "quality",
    "Precise",
    "compress_when",
    "and",
    "GRPC",
    "IMAGES",
    "SSE",
    "services",
    "ServeDir",
    "precompressed_zstd",
];

pub(super) fn encoding(codec: CodecKind, library: Library, level: i32, min: u64) -> EncodingAnswer {
    EncodingAnswer {
        id: CellId {
            codec,
            library,
            variant: Variant::Fresh,
            level,
        },
        mean_s: 0.001,
        mean_span: crate::analysis::recommend::span::Span::exactly(0.001),
        bytes_sent: 1_000.0,
        compress_s: 0.0001,
        slowest_compress_s: 0.0001,
        slowest_compress_fast_s: 0.0001,
        within_budget: true,
        ratio: 7.0,
        min_body: MinBody {
            bytes: min,
            evidence: Evidence::Between {
                identity_wins: 592,
                compression_wins: 885,
            },
            wins_below: 0,
            losses_above: 0,
        },
        slowest_body: "small".into(),
        picked_in: 97,
        draws: 100,
        near_tie: false,
        alternatives: Vec::new(),
        standing_for: Vec::new(),
    }
}

pub(super) fn answer(dynamic: Vec<EncodingAnswer>, fixed: Vec<EncodingAnswer>) -> Answer {
    let line = |scenario, encodings| AnswerLine {
        scenario,
        budget_s: None,
        encodings,
        identity_s: 0.01,
        over_budget: Vec::new(),
        at_edge: Vec::new(),
        draws: 100,
        uncompressed_in: 0,
        left_out: Vec::new(),
    };
    Answer {
        group: "all payloads".into(),
        bodies: 3,
        share: 1.0,
        smallest_bytes: 290,
        largest_bytes: 2900,
        lines: vec![
            line(Scenario::Dynamic, dynamic),
            line(Scenario::Cached, Vec::new()),
            line(Scenario::Static, fixed),
        ],
        placed_by: None,
        named_sizes: Vec::new(),
    }
}

/// zstd 1, br 4, gzip 6 per request from 602 bytes; zstd 19, br 11, gzip 9 static.
pub(super) fn typical() -> Answer {
    answer(
        vec![
            encoding(CodecKind::Zstd, Library::Libzstd, 1, 602),
            encoding(CodecKind::Brotli, Library::Libbrotli, 4, 364),
            encoding(CodecKind::Gzip, Library::ZlibRs, 6, 545),
        ],
        vec![
            encoding(CodecKind::Zstd, Library::Libzstd, 19, 404),
            encoding(CodecKind::Brotli, Library::Libbrotli, 11, 404),
            encoding(CodecKind::Gzip, Library::ZlibRs, 9, 404),
        ],
    )
}

pub(super) fn render(server: Server, answer: &Answer) -> String {
    server.render(
        answer,
        answer,
        &["application/json".to_string()],
        true,
        None,
        &[],
    )
}

/// The lines that are not comments.
fn code(text: &str, comment: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(comment).next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Every identifier in the code lines.
fn identifiers(text: &str, comment: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code(text, comment) {
        let line = line.split('"').step_by(2).collect::<String>();
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if word
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
            {
                names.push(word.to_string());
            }
        }
    }
    names
}

#[test]
fn nginx_uses_only_documented_directives_with_each_level_and_minimum() {
    let text = render(Server::Nginx, &typical());
    for line in code(&text, "#") {
        let directive = line.split_whitespace().next().unwrap();
        assert!(NGINX_DIRECTIVES.contains(&directive), "{line}");
        assert!(line.ends_with(';'), "{line}");
    }
    for expected in [
        "zstd_comp_level 1;",
        "zstd_min_length 602;",
        "brotli_comp_level 4;",
        "brotli_min_length 364;",
        "gzip_comp_level 6;",
        "gzip_min_length 545;",
        "zstd_types application/json;",
        "brotli_static on;",
    ] {
        assert!(text.contains(expected), "{expected} in\n{text}");
    }
}

#[test]
fn nginx_turns_off_an_encoding_that_does_not_pay() {
    let only_zstd = answer(
        vec![encoding(CodecKind::Zstd, Library::Libzstd, 1, 602)],
        Vec::new(),
    );
    let text = render(Server::Nginx, &only_zstd);
    assert!(text.contains("brotli off;\ngzip off;\n"), "{text}");
    assert!(!text.contains("_static"), "{text}");
}

#[test]
fn caddy_uses_documented_words_and_no_zstd_level_caddy_2_6_would_drop() {
    // Among what Caddy 2.6 can express, zstd is its default level, 3.
    let mut caddy = typical();
    caddy.lines[0].encodings[0].id.level = 3;
    let text = render(Server::Caddy, &caddy);
    for line in code(&text, "#") {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(CADDY_WORDS.contains(&words[0]), "{line}");
        if words[0] == "zstd" {
            assert_eq!(words.len(), 1, "Caddy 2.6 drops a zstd level: {line}");
        }
    }
    // A minimum of 602 bytes: Caddy encodes bodies longer than 601.
    assert!(
        text.contains("\tzstd\n\tgzip 6\n\tminimum_length 601\n"),
        "{text}"
    );
    assert!(text.contains("# Caddy 2.6 takes no zstd level"), "{text}");
    // Caddy has no br encoder, but serves precompressed br files.
    assert!(!text.contains("\tbr "), "{text}");
    assert!(text.contains("precompressed zstd br gzip"), "{text}");
    assert!(!Server::Caddy.can_express(
        &encoding(CodecKind::Brotli, Library::Libbrotli, 4, 0).id,
        None,
        false
    ));
    assert!(!Server::Caddy.can_express(
        &encoding(CodecKind::Zstd, Library::Libzstd, 2, 0).id,
        None,
        false
    ));
}

#[test]
fn aspnetcore_uses_documented_names_and_maps_levels_to_compression_level() {
    let text = render(Server::Aspnetcore, &typical());
    for name in identifiers(&text, "//") {
        assert!(
            ASPNETCORE_NAMES.contains(&name.as_str())
                || ASPNETCORE_PROVIDER_NAMES.contains(&name.as_str())
                || [
                    "using", "new", "sealed", "class", "public", "override", "bool", "is", "not",
                    "app"
                ]
                .contains(&name.as_str()),
            "{name} in\n{text}"
        );
    }
    let providers: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("Providers.Add<"))
        .collect();
    assert_eq!(providers.len(), 3);
    assert!(providers[0].contains("Zstandard") && providers[2].contains("Gzip"));
    assert!(
        text.contains("ZstandardCompressionOptions { Quality = 1 }"),
        "{text}"
    );
    assert!(
        text.contains("CompressionLevel.Optimal); // br 4"),
        "{text}"
    );
    assert!(
        text.contains("CompressionLevel.Optimal); // gzip 6"),
        "{text}"
    );
    assert!(text.contains("ContentLength is not < 602"), "{text}");
    assert!(text.contains("options.EnableForHttps = true;"), "{text}");
    // Stock UseStaticFiles never negotiates a precompressed sibling; MapStaticAssets
    // compresses on its own (docs/emit.md cites both).
    assert!(
        text.contains("app.UseStaticFiles()\n// never reads Accept-Encoding"),
        "{text}"
    );
    // brotli 5 has no CompressionLevel: the answer is recomputed without it.
    let five = encoding(CodecKind::Brotli, Library::Libbrotli, 5, 0).id;
    assert!(!Server::Aspnetcore.can_express(&five, None, false));
}

#[test]
fn aspnetcore_says_where_its_bytes_came_from_and_what_brotli_fastest_costs() {
    let one_write = render(Server::Aspnetcore, &typical());
    assert!(
        one_write.contains("measured in one write, not as Kestrel sends"),
        "{one_write}"
    );
    assert!(!one_write.contains("brotli Fastest"), "{one_write}");
    let on_wire = |level| {
        let mut e = encoding(CodecKind::Brotli, Library::Libbrotli, level, 364);
        e.id.variant = Variant::Aspnetcore {
            writer: crate::vocab::AspnetcoreWriter::Minimal,
        };
        render(Server::Aspnetcore, &answer(vec![e], Vec::new()))
    };
    let fastest = on_wire(1);
    assert!(
        fastest.contains("modelled from its source (docs/servers.md)"),
        "{fastest}"
    );
    assert!(
        fastest.contains("sends 59% more than in one write, more than gzip Fastest"),
        "{fastest}"
    );
    assert!(!on_wire(4).contains("brotli Fastest"));
}

#[test]
fn tower_http_uses_its_api_with_one_quality_and_a_size_predicate() {
    let text = render(Server::TowerHttp, &typical());
    for name in identifiers(&text, "//") {
        let known = TOWER_HTTP_NAMES.contains(&name.as_str())
            || [
                "use",
                "let",
                "true",
                "false",
                "assets",
                "precompressed_br",
                "precompressed_gzip",
            ]
            .contains(&name.as_str());
        assert!(known, "{name} in\n{text}");
    }
    assert!(
        text.contains(".quality(CompressionLevel::Precise(1))"),
        "{text}"
    );
    // SizeAbove compresses a body of at least its argument (tower-http 0.7.1,
    // src/compression/predicate.rs: `size >= self.0`).
    assert!(text.contains("SizeAbove::new(602)"), "{text}");
    let rust_br = encoding(CodecKind::Brotli, Library::BrotliRs, 1, 0).id;
    assert!(Server::TowerHttp.can_express(&rust_br, Some(1), false));
    assert!(!Server::TowerHttp.can_express(&rust_br, Some(3), false));
    let gzip_9 = encoding(CodecKind::Gzip, Library::ZlibRs, 9, 0).id;
    assert!(Server::TowerHttp.can_express(&gzip_9, Some(19), false));
}

#[test]
fn nothing_worth_compressing_says_so_for_every_server() {
    let none = answer(Vec::new(), Vec::new());
    for server in [
        Server::Aspnetcore,
        Server::Nginx,
        Server::Caddy,
        Server::TowerHttp,
        Server::Apache,
    ] {
        let text = render(server, &none);
        assert!(text.contains("don't compress"), "{server:?}: {text}");
    }
}
