//! End to end against Debian's caddy on 127.0.0.1: the Caddyfile `recommend --emit caddy`
//! writes loads, and keeps gzip for the clients that accept nothing else.

use crate::common;
use crate::servers;

use codecbench::{generate, RngKind};
use common::{codecbench, succeed};
use servers::{assert_sends, installed, json_of};

#[test]
fn the_emitted_caddyfile_loads_and_keeps_gzip() {
    if !installed("caddy", &[], "caddy") || !installed("curl", &[], "curl") {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output = succeed(codecbench().args(["recommend", "--from", reference, "--emit", "caddy"]));
    let config = String::from_utf8(output.stdout).unwrap();
    assert!(config.contains("\tgzip "), "gzip is kept:\n{config}");
    // The answer's minimum, as its headline states it: a body of that size is encoded,
    // one a byte shorter is not (Caddy encodes bodies longer than `minimum_length`).
    let headline = config.lines().next().unwrap();
    let under = &headline[headline.find("bodies under ").unwrap() + 13..];
    let digits: String = under
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .collect();
    let minimum: usize = digits.replace(',', "").parse().unwrap();
    let (at, below) = (json_of(minimum), json_of(minimum - 1));
    let body = generate(335, 42, RngKind::Dotnet);
    let record = generate(1, 42, RngKind::Dotnet);
    let files: [(&str, &[u8]); 4] = [
        ("body.json", &body),
        ("record.json", &record),
        ("at.json", &at),
        ("below.json", &below),
    ];
    let caddy = servers::caddy(&files, &config).expect("the emitted Caddyfile loads");
    assert_sends(&caddy.url("/at.json"), "zstd", "zstd", &at);
    assert_sends(&caddy.url("/below.json"), "zstd", "", &below);
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

#[test]
fn every_word_of_the_emitted_encode_block_survives_caddy_adapt() {
    if !installed("caddy", &[], "caddy") {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output = succeed(codecbench().args(["recommend", "--from", reference, "--emit", "caddy"]));
    let config = String::from_utf8(output.stdout).unwrap();
    let json = servers::caddy_adapt(&config);
    let handlers = json["apps"]["http"]["servers"]["srv0"]["routes"][0]["handle"]
        .as_array()
        .unwrap();
    let encode = handlers.iter().find(|h| h["handler"] == "encode").unwrap();
    let block = config
        .split("encode {")
        .nth(1)
        .unwrap()
        .split("\n}")
        .next()
        .unwrap();
    let mut checked = 0;
    for line in block.lines().map(|l| l.split('#').next().unwrap().trim()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["gzip", level] => {
                assert_eq!(
                    encode["encodings"]["gzip"]["level"],
                    level.parse::<u64>().unwrap()
                )
            }
            ["zstd"] => assert_eq!(encode["encodings"]["zstd"], serde_json::json!({})),
            ["minimum_length", bytes] => {
                assert_eq!(encode["minimum_length"], bytes.parse::<u64>().unwrap())
            }
            ["header", "Content-Type", pattern] => {
                let types = encode["match"]["headers"]["Content-Type"]
                    .as_array()
                    .unwrap();
                assert!(types.iter().any(|t| t == pattern), "{encode}");
            }
            [] | ["match", "{"] | ["}"] => continue,
            other => panic!("a word caddy adapt was not checked for: {other:?}"),
        }
        checked += 1;
    }
    assert!(checked >= 4, "{block}");
}
