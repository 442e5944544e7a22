//! End to end: `codecbench probe` against Debian's nginx with ngx_brotli on 127.0.0.1.

use crate::common;
use crate::servers;

use codecbench::{generate, RngKind};
use common::{bad_input, codecbench, probe_row as row};
use serde_json::Value;
use servers::{fetch, installed, BROTLI_FILTER, BROTLI_STATIC};

fn nginx_here() -> bool {
    installed("nginx", &[BROTLI_FILTER, BROTLI_STATIC], PACKAGES)
}

const PACKAGES: &str = "nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static";

/// br 5 and gzip 6 for JSON, as a site might configure them.
const SITE: &str = "    brotli on; brotli_comp_level 5; brotli_types application/json;\n    \
                    gzip on; gzip_comp_level 6; gzip_types application/json; gzip_vary on;\n    \
                    gzip_static on;";

fn probe(url: &str, extra: &[&str]) -> (Option<i32>, Value, String) {
    let output = codecbench()
        .args([
            "probe",
            url,
            "--requests",
            "3",
            "--format",
            "json",
            "--quiet",
        ])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), report, stderr)
}

#[test]
fn probe_reports_what_nginx_sends_beside_the_prediction() {
    if !installed("nginx", &[BROTLI_FILTER, BROTLI_STATIC], PACKAGES)
        || !installed("curl", &[], "curl")
    {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    let nginx = servers::nginx(&[("small.json", &small)], SITE).unwrap();
    let url = nginx.url("/small.json");
    let (code, report, stderr) = probe(&url, &["--server", "nginx"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(report["kind"], "probe");
    for (accept, coding, level) in [("gzip", "gzip", 6), ("br", "br", 5)] {
        let row = row(&report, accept);
        assert_eq!(row["encoding"], coding, "{row}");
        assert_eq!(row["status"], 200);
        assert_eq!(row["vary"], "Accept-Encoding");
        // The body bytes are what curl receives, and nginx's own encoders predict them
        // to the byte at the level the site set.
        let curl = fetch(&url, accept).body.len() as f64;
        assert_eq!(row["body_bytes"].as_f64().unwrap(), curl, "{accept}");
        assert_eq!(
            row["predicted_body_bytes"].as_f64().unwrap(),
            curl,
            "{accept}"
        );
        assert_eq!(row["predicted_level"], level, "{accept}");
        assert!(row["wire_bytes"].as_f64().unwrap() > curl);
    }
    // Stock nginx has no zstd: a zstd-only client gets the body as it is.
    assert_eq!(row(&report, "zstd")["encoding"], "identity");
    assert_eq!(row(&report, "gzip, deflate, br, zstd")["encoding"], "br");
    assert_eq!(report["urls"][0]["identity_bytes"], small.len());
}

#[test]
fn a_server_that_sends_other_content_for_gzip_fails_naming_it() {
    if !installed("nginx", &[BROTLI_FILTER, BROTLI_STATIC], PACKAGES) {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    // gzip_static serves a stale precompressed file: another version of the body.
    let stale = generate(1000, 7, RngKind::Dotnet);
    let mangled = codecbench::server_codec(codecbench::CodecKind::Gzip)
        .compress(6, &stale)
        .unwrap();
    let files: [(&str, &[u8]); 2] = [("small.json", &small), ("small.json.gz", &mangled)];
    let nginx = servers::nginx(&files, SITE).unwrap();
    let (code, report, stderr) = probe(&nginx.url("/small.json"), &[]);
    assert_eq!(code, Some(1), "{stderr}");
    let failure = row(&report, "gzip")["failure"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(failure.contains("gzip body decodes to"), "{failure}");
    assert!(
        stderr.contains("FAILED") && stderr.contains("Accept-Encoding: gzip"),
        "{stderr}"
    );
    assert!(row(&report, "br")["failure"].is_null());
}

#[test]
fn unreachable_hosts_and_bad_urls_are_one_line() {
    // Nothing listens on port 1 of loopback: a failed row and exit 1, not a hang.
    let (code, report, stderr) = probe("http://127.0.0.1:1/", &[]);
    assert_eq!(code, Some(1), "{stderr}");
    let failure = row(&report, "identity")["failure"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(failure.contains("cannot connect"), "{failure}");
    let message = bad_input(&["probe", "ftp://example/"]);
    assert!(
        message.contains("not an http:// or https:// URL"),
        "{message}"
    );
    let message = bad_input(&["probe", "http://127.0.0.1/", "-H", "no colon"]);
    assert!(message.contains("NAME:VALUE"), "{message}");
    let message = bad_input(&["probe", "http://127.0.0.1/", "--server", "caddy"]);
    assert!(message.contains("Go's libraries"), "{message}");
}

#[test]
fn probe_speaks_tls_and_says_when_the_certificate_is_not_trusted() {
    if !nginx_here() || !installed("openssl", &[], "openssl") {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    let nginx = servers::nginx_tls(&[("small.json", &small)], SITE).unwrap();
    let url = format!("https://{}/small.json", nginx.address);
    // A self-signed certificate: refused, in one line that names the way past it.
    let (code, report, stderr) = probe(&url, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    let failure = row(&report, "identity")["failure"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        failure.contains("TLS") && failure.contains("--insecure"),
        "{failure}"
    );
    // Accepted with --insecure: the same bodies and predictions as over plain HTTP, and
    // more bytes on the wire (TLS records).
    let (code, report, stderr) = probe(&url, &["--insecure", "--server", "nginx"]);
    assert_eq!(code, Some(0), "{stderr}");
    for (accept, bytes) in [("gzip", 47_113.0), ("br", 41_126.0)] {
        let row = row(&report, accept);
        assert_eq!(row["body_bytes"].as_f64().unwrap(), bytes, "{row}");
        assert_eq!(
            row["predicted_body_bytes"].as_f64().unwrap(),
            bytes,
            "{row}"
        );
        assert!(row["wire_bytes"].as_f64().unwrap() > bytes + 100.0, "{row}");
    }
}

/// What Caddy's `encode` serves: zstd and gzip, no br.
const CADDY_SITE: &str = "\tencode zstd gzip\n\tfile_server";

#[test]
fn probe_reports_what_caddy_sends_over_http_and_https() {
    if !installed("caddy", &[], "caddy") || !installed("curl", &[], "curl") {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    let files: [(&str, &[u8]); 1] = [("small.json", &small)];
    let plain = servers::caddy(&files, CADDY_SITE).unwrap();
    let url = plain.url("/small.json");
    let (code, report, stderr) = probe(&url, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    // Caddy's Go encoders: zstd and gzip on the fly, no br; a browser gets zstd.
    assert_eq!(row(&report, "zstd")["encoding"], "zstd");
    assert_eq!(row(&report, "gzip")["encoding"], "gzip");
    assert_eq!(row(&report, "br")["encoding"], "identity");
    assert_eq!(row(&report, "gzip, deflate, br, zstd")["encoding"], "zstd");
    for accept in ["zstd", "gzip"] {
        let curl = fetch(&url, accept).body.len() as f64;
        assert_eq!(
            row(&report, accept)["body_bytes"].as_f64().unwrap(),
            curl,
            "{accept}"
        );
    }
    // The same site over TLS, its certificate from Caddy's own CA: the same bodies.
    let secure = servers::caddy_tls(&files, CADDY_SITE).unwrap();
    let url = format!("https://{}/small.json", secure.address);
    let (code, tls, stderr) = probe(&url, &["--insecure"]);
    assert_eq!(code, Some(0), "{stderr}");
    for accept in ["zstd", "gzip"] {
        assert_eq!(
            row(&tls, accept)["body_bytes"],
            row(&report, accept)["body_bytes"]
        );
    }
}

/// The probe tables of nginx and Caddy over HTTP and HTTPS, for the docs:
/// `cargo test --test e2e probe:: -- --ignored --nocapture`.
#[test]
#[ignore = "prints tables for the docs; needs nginx, ngx_brotli, caddy and openssl"]
fn print_the_probe_tables_of_nginx_and_caddy() {
    let small = generate(1000, 42, RngKind::Dotnet);
    let files: [(&str, &[u8]); 1] = [("small.json", &small)];
    let nginx = servers::nginx(&files, SITE).unwrap();
    let nginx_tls = servers::nginx_tls(&files, SITE).unwrap();
    let caddy = servers::caddy(&files, CADDY_SITE).unwrap();
    let caddy_tls = servers::caddy_tls(&files, CADDY_SITE).unwrap();
    let https = |running: &servers::Running| format!("https://{}/small.json", running.address);
    let cases = [
        ("nginx, HTTP", nginx.url("/small.json"), true),
        ("nginx, HTTPS", https(&nginx_tls), true),
        ("caddy, HTTP", caddy.url("/small.json"), false),
        ("caddy, HTTPS", https(&caddy_tls), false),
    ];
    for (what, url, is_nginx) in cases {
        let mut command = codecbench();
        command.args(["probe", &url, "--requests", "20", "-q", "--insecure"]);
        if is_nginx {
            command.args(["--server", "nginx"]);
        }
        let output = command.output().unwrap();
        println!(
            "### {what}\n$ codecbench probe {url} --requests 20 --insecure{}\n{}",
            if is_nginx { " --server nginx" } else { "" },
            String::from_utf8_lossy(&output.stdout)
        );
        assert_eq!(output.status.code(), Some(0), "{what}");
    }
}

#[test]
fn nginx_past_keepalive_requests_is_probed_over_new_connections() {
    if !nginx_here() {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    // nginx closes a connection after its second request: the third needs a new one.
    let site = format!("{SITE}\n    keepalive_requests 2;");
    let nginx = servers::nginx(&[("small.json", &small)], &site).unwrap();
    let (code, report, stderr) = probe(&nginx.url("/small.json"), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    for row in report["urls"][0]["rows"].as_array().unwrap() {
        assert_eq!(row["requests"], 3, "{row}");
        assert!(row["failure"].is_null(), "{row}");
    }
}
