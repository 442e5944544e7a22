//! End to end: the Rust `recommend --emit tower-http` writes, pasted into a crate that
//! depends on the tower-http, axum and tokio versions of Cargo.lock with the features
//! the snippet names, built offline (`cargo build --offline`), serving the small
//! payload's prefixes on 127.0.0.1, and probed: each encoding at the recommended
//! quality to the byte, and the minimum size exact.
//!
//! Building the crate's dependencies takes minutes the first time, so the test is
//! ignored by a plain `cargo test`; `.ci/run` runs it with `--ignored`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use codecbench::{generate, RngKind};
use codecbench::{Codec, CodecKind, TowerHttp};
use serde_json::Value;

use crate::common::{codecbench, probe_row, succeed};

/// The version Cargo.lock pins for `name`.
fn locked(name: &str) -> String {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
    let entry = format!("name = \"{name}\"\nversion = \"");
    let at = lock.find(&entry).unwrap() + entry.len();
    lock[at..].split('"').next().unwrap().to_string()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The number inside `prefix(...)` in `text`.
fn argument(text: &str, prefix: &str) -> i64 {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in {text}"))
        + prefix.len();
    text[at..].split(')').next().unwrap().parse().unwrap()
}

/// The snippet for `results/reference.json` with its payloads renamed to break every
/// kind of line with a statement after each break, and a budget each is over, so that
/// its comments name them: rustc must see only the statements of the plain snippet.
fn hostile_snippet(dir: &Path) -> String {
    let mut run: Value =
        serde_json::from_slice(&std::fs::read(root().join("results/reference.json")).unwrap())
            .unwrap();
    for (index, payload) in run["payloads"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let mut name = format!("x{index}");
        for b in ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"] {
            name += &format!("{b}std::process::exit(3);");
        }
        payload["payload"] = (name + "\n*/ compile_error!(\"out\"); /*\n\"\\").into();
    }
    let path = dir.join("hostile.json");
    std::fs::write(&path, serde_json::to_vec(&run).unwrap()).unwrap();
    let output = succeed(
        codecbench()
            .arg("recommend")
            .arg("--from")
            .arg(&path)
            .args(["--emit", "tower-http", "--latency-budget-ms", "0.001"]),
    );
    let snippet = String::from_utf8(output.stdout).unwrap();
    assert!(
        snippet.contains("exit(3)"),
        "its comments name them:\n{snippet}"
    );
    snippet
}

/// The crate: the snippet in `main`, serving `GET /N` as the payload's first N bytes,
/// after `hostile` in a block of its own.
fn write_crate(dir: &Path, snippet: &str, hostile: &str) {
    let features = snippet
        .lines()
        .find_map(|l| l.strip_prefix("// Cargo.toml: tower-http = "))
        .unwrap()
        .replace("\"0.7\"", &format!("\"={}\"", locked("tower-http")));
    let manifest = format!(
        "[package]\nname = \"emit-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         [dependencies]\n\
         axum = {{ version = \"={}\", default-features = false, features = [\"tokio\", \"http1\"] }}\n\
         tokio = {{ version = \"={}\", features = [\"rt-multi-thread\", \"net\", \"macros\"] }}\n\
         tower-http = {features}\n[workspace]\n",
        locked("axum"),
        locked("tokio"),
    );
    let main = format!(
        "#![allow(unused)]\n\
         #[tokio::main]\nasync fn main() {{\n\
         let payload: &'static [u8] = std::fs::read(std::env::args().nth(1).unwrap()).unwrap().leak();\n\
         {{\n{hostile}\nlet _ = compression;\n}}\n\
         {snippet}\n\
         let app = axum::Router::new()\n\
             .route(\"/{{n}}\", axum::routing::get(move |axum::extract::Path(n): axum::extract::Path<usize>| async move {{\n\
                 ([(\"content-type\", \"application/json\")], &payload[..n])\n\
             }}))\n\
             .layer(compression);\n\
         let listener = tokio::net::TcpListener::bind(\"127.0.0.1:0\").await.unwrap();\n\
         println!(\"{{}}\", listener.local_addr().unwrap());\n\
         axum::serve(listener, app).await.unwrap();\n}}\n"
    );
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    // The lock file pins every dependency to what codecbench itself builds with.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

#[test]
#[ignore = "builds a crate against tower-http (minutes the first time); .ci/run runs it"]
fn the_emitted_tower_http_layer_builds_and_serves_what_it_says() {
    let reference = root().join("results/reference.json");
    let output = succeed(
        codecbench()
            .arg("recommend")
            .arg("--from")
            .arg(&reference)
            .args(["--emit", "tower-http"]),
    );
    let snippet = String::from_utf8(output.stdout).unwrap();
    let (min, quality) = (
        argument(&snippet, "SizeAbove::new("),
        argument(&snippet, "Precise("),
    );
    for codec in ["zstd", "br", "gzip"] {
        assert!(
            snippet.contains(&format!(".{codec}(true)")),
            "{codec} kept:\n{snippet}"
        );
    }

    let dir = root().join("target/emit-check");
    std::fs::create_dir_all(&dir).unwrap();
    let hostile = hostile_snippet(&dir);
    write_crate(&dir, &snippet, &hostile);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .status()
        .unwrap();
    assert!(
        built.success(),
        "the emitted snippet does not build:\n{snippet}"
    );

    let payload = generate(1000, 42, RngKind::Dotnet);
    let payload_file = dir.join("payload.json");
    std::fs::write(&payload_file, &payload).unwrap();
    let mut server = Server(
        Command::new(dir.join("target/debug/emit-check"))
            .arg(&payload_file)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut address = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut address)
        .unwrap();
    let address = address.trim();

    let probe = |n: i64| -> Value {
        let url = format!("http://{address}/{n}");
        let output = succeed(codecbench().args([
            "probe",
            &url,
            "--requests",
            "2",
            "--format",
            "json",
            "--quiet",
        ]));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let under = probe(min - 1);
    for accept in ["zstd", "br", "gzip"] {
        assert_eq!(
            probe_row(&under, accept)["encoding"],
            "identity",
            "{accept} at {}",
            min - 1
        );
    }
    let at = probe(min);
    let body = &payload[..min as usize];
    for (accept, kind) in [("zstd", CodecKind::Zstd), ("br", CodecKind::Brotli)] {
        let row = probe_row(&at, accept);
        assert_eq!(row["encoding"], accept, "{row}");
        let expected = TowerHttp(kind)
            .compress(quality as i32, body)
            .unwrap()
            .len();
        assert_eq!(
            row["body_bytes"].as_f64().unwrap(),
            expected as f64,
            "{accept} at quality {quality}"
        );
    }
    // gzip is flate2's default backend (miniz_oxide) in a crate that asks for no other,
    // where codecbench measures zlib-rs: served, decoded, but not predicted to the byte.
    let gzip = probe_row(&at, "gzip");
    assert_eq!(gzip["encoding"], "gzip", "{gzip}");
    eprintln!(
        "gzip at quality {quality} on {min} bytes: {} B from the app, {} B from zlib-rs",
        gzip["body_bytes"],
        TowerHttp(CodecKind::Gzip)
            .compress(quality as i32, body)
            .unwrap()
            .len()
    );
}

/// The built server, killed when the test ends, whatever the outcome.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
