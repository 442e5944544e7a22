//! End to end against Express's `compression` middleware in a real Node.js, built from
//! `lab/express`'s lockfile: the JavaScript `recommend --emit express` writes runs in an
//! app, and the app sends what it says: the levels, the threshold to the byte, the types,
//! and an encoding the answer leaves out stays off.

use crate::common;
use crate::servers;

use codecbench::{generate, RngKind};
use common::{codecbench, succeed};
use servers::{assert_sends, express, express_installed, fetch, json_of, node_encodes};

/// The number after the first `name ` in `text`.
fn option(text: &str, name: &str) -> i32 {
    let marker = format!("{name} ");
    let rest = &text[text
        .find(&marker)
        .unwrap_or_else(|| panic!("{name}:\n{text}"))
        + marker.len()..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

#[test]
fn the_emitted_middleware_sends_its_levels_from_its_threshold_on() {
    if !express_installed() {
        return;
    }
    let reference = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");
    let output =
        succeed(codecbench().args(["recommend", "--from", reference, "--emit", "express"]));
    let snippet = String::from_utf8(output.stdout).unwrap();
    // The options are the answer's settings and minimum, as its headline states them.
    let headline = snippet.lines().next().unwrap();
    let (quality, level) = (option(headline, "br"), option(headline, "gzip"));
    let threshold = option(&snippet, "threshold:") as usize;
    assert_eq!(
        threshold as i32,
        option(headline, "bodies under"),
        "{snippet}"
    );
    assert_eq!(quality, option(&snippet, "BROTLI_PARAM_QUALITY]:"));
    assert_eq!(level, option(&snippet, "level:"));
    let body = generate(335, 42, RngKind::Dotnet);
    let (at, below) = (json_of(threshold), json_of(threshold - 1));
    let files: [(&str, &[u8]); 4] = [
        ("body.json", &body),
        ("at.json", &at),
        ("below.json", &below),
        ("page.html", &body),
    ];
    let app = express(&files, &snippet).expect("the emitted middleware runs");
    let url = app.url("/body.json");
    let sent = fetch(&url, "gzip, deflate, br, zstd");
    assert_eq!(sent.content_encoding, "br");
    assert!(
        sent.body == node_encodes("br", quality, &body),
        "br {quality}"
    );
    let sent = fetch(&url, "gzip");
    assert_eq!(sent.content_encoding, "gzip");
    assert!(
        sent.body == node_encodes("gzip", level, &body),
        "gzip {level}"
    );
    assert_sends(&app.url("/at.json"), "br, gzip", "br", &at);
    assert_sends(&app.url("/below.json"), "br, gzip", "", &below);
    assert_sends(&app.url("/page.html"), "br, gzip", "", &body);
}

#[test]
fn an_encoding_the_answer_leaves_out_stays_off() {
    if !express_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("gzip.json");
    succeed(
        codecbench()
            .args(["run", "--payload", "single", "--payload", "small"])
            .args([
                "--codecs",
                "gzip",
                "--gzip-levels",
                "1,6",
                "--quick",
                "--quiet",
                "--export-json",
            ])
            .arg(&run),
    );
    let output = succeed(
        codecbench()
            .arg("recommend")
            .arg("--from")
            .arg(&run)
            .args(["--emit", "express"]),
    );
    let snippet = String::from_utf8(output.stdout).unwrap();
    assert!(snippet.contains("leaves br off"), "{snippet}");
    let body = generate(335, 42, RngKind::Dotnet);
    let app = express(&[("body.json", &body)], &snippet).expect("the emitted middleware runs");
    let url = app.url("/body.json");
    assert_sends(&url, "br", "", &body);
    assert_sends(&url, "br;q=1, gzip;q=0.5", "gzip", &body);
    assert_sends(&url, "gzip, deflate, br", "gzip", &body);
}
