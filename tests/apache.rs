//! End to end against Debian's apache2 (mod_deflate, mod_brotli) on 127.0.0.1: what
//! `run --server apache` predicts is what httpd sends, to the byte, and the
//! configuration `recommend --emit apache` writes loads and picks as it says.

use crate::common;
use crate::servers;

use codecbench::{generate, RngKind};
use codecbench::{server_codec, CodecKind};
use common::{codecbench, succeed};
use servers::{apache, assert_sends, fetch_from, installed, predicted, APACHE2, MODULES};

fn apache_here() -> bool {
    let modules = [
        format!("{MODULES}/mod_brotli.so"),
        format!("{MODULES}/mod_deflate.so"),
    ];
    let modules: Vec<&str> = modules.iter().map(String::as_str).collect();
    installed(APACHE2, &modules, "apache2") && installed("curl", &[], "curl")
}

/// A virtual host per setting: `br5` compresses JSON with mod_brotli at quality 5 only,
/// `gzip6` with mod_deflate at level 6 only.
fn virtual_hosts(brotli: &[i32], gzip: &[i32]) -> String {
    let host = |name: String, settings: String| {
        format!("<VirtualHost *>\n  ServerName {name}\n{settings}</VirtualHost>\n")
    };
    let mut text = String::new();
    for q in brotli {
        text += &host(
            format!("br{q}"),
            format!("  BrotliCompressionQuality {q}\n  AddOutputFilterByType BROTLI_COMPRESS application/json\n"),
        );
    }
    for level in gzip {
        text += &host(
            format!("gzip{level}"),
            format!("  DeflateCompressionLevel {level}\n  AddOutputFilterByType DEFLATE application/json\n"),
        );
    }
    text
}

#[test]
fn apache_sends_what_run_server_apache_predicts() {
    if !apache_here() {
        return;
    }
    let real = concat!(env!("CARGO_MANIFEST_DIR"), "/payloads/real-json/");
    let mut bodies: Vec<(String, Vec<u8>)> = [("single", 1), ("small", 1000), ("large", 10_000)]
        .map(|(name, records)| {
            (
                format!("{name}.json"),
                generate(records, 42, RngKind::Dotnet),
            )
        })
        .to_vec();
    for name in ["github_events.json", "canada.json", "twitter.json"] {
        bodies.push((
            name.to_string(),
            std::fs::read(format!("{real}{name}")).unwrap(),
        ));
    }
    // Over APR's 4 MiB mapping, the file reaches the filters in pieces.
    bodies.push((
        "records-20000.json".into(),
        generate(20_000, 42, RngKind::Dotnet),
    ));
    let files: Vec<(&str, &[u8])> = bodies
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let server = apache(&files, &virtual_hosts(&[1, 5, 11], &[1, 6, 9])).unwrap();
    let mut paths: Vec<String> = ["single", "small", "large"].map(String::from).to_vec();
    paths.extend(["github_events", "canada", "twitter"].map(|n| format!("{real}{n}.json")));
    let mut rows = predicted("apache", &paths, "1,5,11", "1,6,9");
    assert_eq!(rows.len(), 36);
    let big = std::env::temp_dir().join(format!("codecbench-apache-{}.json", std::process::id()));
    std::fs::write(&big, &bodies[6].1).unwrap();
    rows.extend(predicted("apache", &[big.display().to_string()], "1", "1"));
    std::fs::remove_file(&big).unwrap();
    for row in &rows {
        assert_eq!(row["variant"], "apache", "{row:?}");
        let level = &row["level"];
        let payload = row["payload"].trim_end_matches(".json");
        let name = if payload.starts_with("codecbench-apache-") {
            "records-20000.json".to_string()
        } else {
            format!("{payload}.json")
        };
        let (kind, host, token) = match row["codec"].as_str() {
            "brotli" => (CodecKind::Brotli, format!("br{level}"), "br"),
            _ => (CodecKind::Gzip, format!("gzip{level}"), "gzip"),
        };
        let sent = fetch_from(&server.url(&format!("/{name}")), Some(&host), token);
        assert_eq!(sent.content_encoding, token, "{host} {name}");
        let original = &bodies.iter().find(|(n, _)| *n == name).unwrap().1;
        let decoded = server_codec(kind).decompress(&sent.body).unwrap();
        assert!(decoded == *original, "{host} {name}: the body decodes");
        assert_eq!(
            row["compressed_bytes"].parse::<usize>().unwrap(),
            sent.body.len(),
            "{host} {name}: predicted against what apache2 sent"
        );
    }
}

#[test]
fn the_emitted_apache_config_loads_and_keeps_the_fallbacks() {
    if !apache_here() {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output = succeed(codecbench().args(["recommend", "--from", reference, "--emit", "apache"]));
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(config.contains("-ge 487)"), "br's minimum:\n{config}");
    assert!(config.contains("-ge 805)"), "gzip's minimum:\n{config}");
    let body = generate(335, 42, RngKind::Dotnet);
    let record = generate(1, 42, RngKind::Dotnet);
    // Between the two minimums: br pays there, gzip does not.
    let middle = &body[..600];
    let files: [(&str, &[u8]); 4] = [
        ("body.json", &body),
        ("record.json", &record),
        ("middle.json", middle),
        ("body.txt", &body),
    ];
    let server = apache(&files, &config).expect("the emitted config loads");
    streamed_bodies_are_compressed_whatever_their_size(&config, &body[..300]);
    let url = server.url("/body.json");
    // A browser gets br; an HTTP library that decodes gzip only gets gzip; a record
    // under both minimums and a type not listed go as they are.
    assert_sends(&url, "gzip, deflate, br, zstd", "br", &body);
    assert_sends(&url, "gzip", "gzip", &body);
    assert_sends(&url, "identity", "", &body);
    assert_sends(
        &server.url("/record.json"),
        "gzip, deflate, br, zstd",
        "",
        &record,
    );
    assert_sends(
        &server.url("/middle.json"),
        "gzip, deflate, br, zstd",
        "br",
        middle,
    );
    assert_sends(&server.url("/middle.json"), "gzip", "", middle);
    assert_sends(
        &server.url("/body.txt"),
        "gzip, deflate, br, zstd",
        "",
        &body,
    );
    // probe names the levels the output set, from apache's own encoders.
    let probed = succeed(
        codecbench()
            .args(["probe", &url, "--server", "apache"])
            .args(["--requests", "2", "--format", "json", "--quiet"]),
    );
    let report: serde_json::Value = serde_json::from_slice(&probed.stdout).unwrap();
    for (accept, level) in [("br", 1), ("gzip", 1)] {
        let row = common::probe_row(&report, accept);
        assert_eq!(row["encoding"], accept, "{row}");
        assert_eq!(
            row["predicted_body_bytes"].as_f64(),
            row["body_bytes"].as_f64(),
            "{row}"
        );
        assert_eq!(row["predicted_level"], level, "{row}");
    }
}

/// What the emitted config says of bodies it cannot see the length of: 300 bytes, under
/// both minimums, from CGI with and without Content-Length, go out br.
fn streamed_bodies_are_compressed_whatever_their_size(config: &str, short: &[u8]) {
    let cgi = format!(
        "{config}\nLoadModule cgi_module {MODULES}/mod_cgi.so\n\
         <FilesMatch \"\\.cgi$\">\n  SetHandler cgi-script\n  Options +ExecCGI\n</FilesMatch>\n"
    );
    let script = |length: &str| {
        format!(
            "#!/bin/sh\nprintf 'Content-Type: application/json\\r\\n{length}\\r\\n'\nhead -c 300 short.json\n"
        )
    };
    let (streamed, sized) = (script(""), script("Content-Length: 300\\r\\n"));
    let files: [(&str, &[u8]); 3] = [
        ("short.json", short),
        ("streamed.cgi", streamed.as_bytes()),
        ("sized.cgi", sized.as_bytes()),
    ];
    let server = apache(&files, &cgi).expect("the config with mod_cgi loads");
    for name in ["/streamed.cgi", "/sized.cgi"] {
        assert_sends(&server.url(name), "gzip, deflate, br, zstd", "br", short);
    }
    // The same 300 bytes as a file keep the minimum.
    assert_sends(
        &server.url("/short.json"),
        "gzip, deflate, br, zstd",
        "",
        short,
    );
}
