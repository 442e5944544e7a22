//! End to end against Debian's caddy on 127.0.0.1: the Caddyfile `recommend --emit caddy`
//! writes loads, and keeps gzip for the clients that accept nothing else.

use crate::common;
use crate::servers;

use codecbench::payload::{generate, RngKind};
use common::{codecbench, succeed};
use servers::{assert_sends, installed};

#[test]
fn the_emitted_caddyfile_loads_and_keeps_gzip() {
    if !installed("caddy", &[], "caddy") || !installed("curl", &[], "curl") {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output = succeed(codecbench().args(["recommend", "--from", reference, "--emit", "caddy"]));
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(config.contains("\tgzip "), "gzip is kept:\n{config}");
    let body = generate(335, 42, RngKind::Dotnet);
    let record = generate(1, 42, RngKind::Dotnet);
    let files: [(&str, &[u8]); 2] = [("body.json", &body), ("record.json", &record)];
    let caddy = servers::caddy(&files, &config).expect("the emitted Caddyfile loads");
    let url = caddy.url("/body.json");
    assert_sends(&url, "gzip", "gzip", &body);
    assert_sends(&url, "gzip, deflate, br, zstd", "zstd", &body);
    assert_sends(
        &caddy.url("/record.json"),
        "gzip, deflate, br, zstd",
        "",
        &record,
    );
}
