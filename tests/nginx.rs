//! End to end against Debian's nginx with ngx_brotli on 127.0.0.1: what
//! `run --server nginx` predicts is what nginx sends.

use crate::common;
use crate::servers;

use codecbench::{generate, RngKind};
use codecbench::{server_codec, CodecKind};
use common::{codecbench, succeed};
use servers::{assert_sends, fetch, installed, predicted, BROTLI_FILTER, BROTLI_STATIC};

const PACKAGES: &str = "nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static";

fn nginx_here() -> bool {
    installed("nginx", &[BROTLI_FILTER, BROTLI_STATIC], PACKAGES) && installed("curl", &[], "curl")
}

/// A location per setting: `/br5/` serves `www/` with brotli 5 only, `/gzip6/` with gzip
/// 6 only.
fn locations(brotli: &[i32], gzip: &[i32]) -> String {
    let mut text = String::new();
    for q in brotli {
        text += &format!(
            "    location /br{q}/ {{ rewrite ^/br{q}(/.*)$ $1 break; brotli on; brotli_comp_level {q}; brotli_types application/json; gzip off; }}\n"
        );
    }
    for level in gzip {
        text += &format!(
            "    location /gzip{level}/ {{ rewrite ^/gzip{level}(/.*)$ $1 break; gzip on; gzip_comp_level {level}; gzip_types application/json; brotli off; }}\n"
        );
    }
    text
}

#[test]
fn nginx_sends_what_run_server_nginx_predicts() {
    if !nginx_here() {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    let large = generate(10_000, 42, RngKind::Dotnet);
    let files: [(&str, &[u8]); 2] = [("small.json", &small), ("large.json", &large)];
    let nginx = servers::nginx(&files, &locations(&[1, 5, 11], &[1, 6, 9])).unwrap();
    let payloads = ["small", "large"].map(String::from);
    let rows = predicted("nginx", &payloads, "1,5,11", "1,6,9");
    assert_eq!(rows.len(), 12);
    for row in &rows {
        assert_eq!(row["variant"], "nginx", "{row:?}");
        let (payload, level) = (&row["payload"], &row["level"]);
        let (kind, path, token) = match row["codec"].as_str() {
            "brotli" => (CodecKind::Brotli, format!("/br{level}/"), "br"),
            _ => (CodecKind::Gzip, format!("/gzip{level}/"), "gzip"),
        };
        let sent = fetch(&nginx.url(&format!("{path}{payload}.json")), token);
        assert_eq!(sent.content_encoding, token, "{path}{payload}");
        let original = if payload == "small" { &small } else { &large };
        let decoded = server_codec(kind).decompress(&sent.body).unwrap();
        assert!(decoded == *original, "{path}{payload}: the body decodes");
        let predicted: f64 = row["compressed_bytes"].parse().unwrap();
        let actual = sent.body.len() as f64;
        // The issue's targets: brotli within 0.1%, gzip to the byte. Both are exact here.
        let allowed = if kind == CodecKind::Brotli {
            0.001
        } else {
            0.0
        };
        assert!(
            (predicted - actual).abs() <= actual * allowed,
            "{path}{payload}: predicted {predicted} B, nginx sent {actual} B"
        );
    }
}

/// A JSON body of about 100 KB (335 records) and one record (290 bytes).
fn bodies() -> (Vec<u8>, Vec<u8>) {
    (
        generate(335, 42, RngKind::Dotnet),
        generate(1, 42, RngKind::Dotnet),
    )
}

#[test]
fn the_emitted_nginx_config_loads_and_keeps_the_fallbacks() {
    if !nginx_here() {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output = succeed(codecbench().args(["recommend", "--from", reference, "--emit", "nginx"]));
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(
        config.contains("# zstd on;"),
        "zstd is commented:\n{config}"
    );
    let (body, record) = bodies();
    assert!(
        body.len() > 95_000 && body.len() < 105_000,
        "{}",
        body.len()
    );
    let files: [(&str, &[u8]); 2] = [("body.json", &body), ("record.json", &record)];
    let nginx = servers::nginx(&files, &config).expect("the emitted config loads");
    let url = nginx.url("/body.json");
    // A browser over HTTPS offers br and gzip (and zstd, which stock nginx lacks); many
    // HTTP libraries decode gzip only; one record is under every minimum.
    assert_sends(&url, "gzip, deflate, br, zstd", "br", &body);
    assert_sends(&url, "gzip", "gzip", &body);
    assert_sends(
        &nginx.url("/record.json"),
        "gzip, deflate, br, zstd",
        "",
        &record,
    );
}

#[test]
fn a_config_with_zstd_live_is_refused_by_stock_nginx() {
    if !nginx_here() {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let args = ["recommend", "--from", reference, "--emit", "nginx"];
    let output = succeed(codecbench().args(args).arg("--nginx-zstd-module"));
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(config.contains("\nzstd on;"), "{config}");
    // What the comment guards against: stock nginx does not start with it.
    let refused = servers::nginx(&[], &config)
        .err()
        .expect("stock nginx refuses zstd");
    assert!(refused.contains("unknown directive \"zstd\""), "{refused}");
}
