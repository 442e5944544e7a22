//! Names with every kind of line break, from a payload directory, a HAR capture and a
//! saved run, through all six `recommend --emit` outputs. Each output has the same
//! directives as the answer with a plain name (for Apache as httpd parses it, for Caddy
//! as `caddy adapt` reads it), and nginx, Apache and Express, started with it, serve no
//! file outside the site.

use std::io::{Read as _, Write as _};
use std::path::Path;

use serde_json::Value;

use super::parsers::{apache_here, Outputs, SERVERS};
use crate::common::{codecbench, succeed, EACH_CODEC_AT_1};
use crate::servers::{self, express_installed, installed};

/// Every character some format ends a line at.
const BREAKS: [&str; 5] = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"];

/// A file name (no `/`) that holds, after each `line_break`, a line that would make
/// nginx, Apache, Caddy or Express serve the files beside the configuration: a name
/// for every output at once, which no server could load if a line escaped.
fn hostile(line_break: &str) -> String {
    let b = line_break;
    format!(
        "x{b}location ~ conf$ {{ root .; }}{b}DocumentRoot .{b}root * .{b}\
         app.use(require('express').static('.')){b}<!--.json"
    )
}

/// A file name with the line for `server` alone, the rest of its line a comment there:
/// an output that server would load.
fn aimed_at(server: &str, line_break: &str) -> String {
    let (line, rest) = match server {
        "nginx" => ("location ~ conf$ { root .; }", "#"),
        "apache" => ("DocumentRoot .", "#"),
        _ => ("app.use(require('express').static('.'))", "<!--"),
    };
    format!("x{line_break}{line}{line_break}{rest}.json")
}

/// The servers started with their outputs.
const STARTED: [&str; 3] = ["nginx", "apache", "express"];

/// The body every payload holds: 40 records of the small payload's kind.
fn body() -> Vec<u8> {
    codecbench::generate(40, 42, codecbench::RngKind::Dotnet)
}

/// `recommend` at zstd, br and gzip 1 with a budget no body meets, so that every
/// headline names the slowest body.
fn recommend(args: &[&str]) -> assert_cmd::Command {
    let mut command = codecbench();
    command.arg("recommend").args(args).args(EACH_CODEC_AT_1);
    command.args([
        "--quick",
        "--latency-budget-ms",
        "0.0001",
        "--cache-budget-ms",
        "0.0001",
    ]);
    command
}

/// Each server's output, as `recommend --emit` with all six prints them one after
/// another: each begins with its headline.
fn sections(stdout: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    let mut sections: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        let first = line.starts_with("# codecbench recommend:")
            || line.starts_with("// codecbench recommend:");
        match (first, sections.last_mut()) {
            (false, Some(section)) => section.push_str(line),
            _ => sections.push(line.to_string()),
        }
    }
    assert_eq!(sections.len(), SERVERS.len(), "{text}");
    // The sections are joined by an empty line, which the next one does not own.
    let trimmed = sections
        .iter()
        .map(|s| s.trim_end_matches('\n').to_string());
    SERVERS.iter().map(|s| s.to_string()).zip(trimmed).collect()
}

/// Every server's output for the saved run `run`.
pub(super) fn emitted_from(run: &Path) -> Vec<(String, String)> {
    let output = succeed(
        recommend(&["--emit", &SERVERS.join(",")])
            .arg("--from")
            .arg(run),
    );
    sections(&output.stdout)
}

/// `run` (a saved run's JSON) with every string holding `from` holding `to` in its
/// place: the same measurements under other names.
pub(super) fn renamed(run: &Value, from: &str, to: &str) -> Value {
    match run {
        Value::String(text) => Value::String(text.replace(from, to)),
        Value::Array(items) => Value::Array(items.iter().map(|v| renamed(v, from, to)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), renamed(v, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Writes `run` as `name` in `dir`; its path.
pub(super) fn save(dir: &Path, name: &str, run: &Value) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(run).unwrap()).unwrap();
    path
}

/// The status line and body of `GET path` from `address`, read to a bound.
fn get(address: std::net::SocketAddr, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.take(1 << 20).read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// `server` (nginx, Apache or Express) started with `output`: the site's file is
/// served, and nothing beside it (its configuration, the crate's manifest).
fn serves_only_the_site(server: &str, output: &str) {
    let body = body();
    let files: [(&str, &[u8]); 1] = [("body.json", &body)];
    let running = match server {
        "nginx" if installed("nginx", &[servers::BROTLI_FILTER], "nginx") => {
            servers::nginx(&files, output)
        }
        "apache" if apache_here() => servers::apache(&files, output),
        "express" if express_installed() => servers::express(&files, output),
        _ => return,
    };
    let running = running.unwrap_or_else(|e| panic!("{server} runs its output: {e}"));
    assert!(get(running.address, "/body.json").starts_with("HTTP/1.1 200"));
    for path in [
        "/nginx.conf",
        "/httpd.conf",
        "/Cargo.toml",
        "/www/body.json",
    ] {
        let answer = get(running.address, path);
        let served = answer.starts_with("HTTP/1.1 200");
        assert!(!served, "{path} served by {server}:\n{answer:.300}");
    }
}

/// Each server of `outputs` that the tests start, started with its output, side by
/// side: each takes up to a second to listen.
fn each_serves_only_the_site(outputs: &[(String, String)]) {
    std::thread::scope(|scope| {
        for (server, output) in outputs {
            if STARTED.contains(&server.as_str()) {
                scope.spawn(move || serves_only_the_site(server, output));
            }
        }
    });
}

/// Adds `outputs` for `name` to `all`, each checked against the plain run's, `plain`,
/// line for line; then starts the server the name is aimed at, if any, with its output.
fn every_output(
    all: &mut Outputs,
    outputs: &[(String, String)],
    plain: &[(String, String)],
    name: &str,
) {
    all.add(outputs, plain, name);
    let aimed = STARTED.iter().find(|s| name.ends_with(&aimed_at(s, "\n")));
    let started = outputs.iter().filter(|(s, _)| Some(&s.as_str()) == aimed);
    each_serves_only_the_site(&started.cloned().collect::<Vec<_>>());
}

/// A run measured in `dir` of one body named `plain.json`, saved: its path and document.
pub(super) fn plain_run(dir: &Path) -> (std::path::PathBuf, Value) {
    let payloads = dir.join("p");
    std::fs::create_dir(&payloads).unwrap();
    std::fs::write(payloads.join("plain.json"), body()).unwrap();
    let path = dir.join("plain-run.json");
    succeed(
        recommend(&["--payload", payloads.to_str().unwrap(), "--quiet"])
            .arg("--export-json")
            .arg(&path),
    );
    let run = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, run)
}

#[test]
fn names_in_a_saved_run_stay_inside_every_emitted_comment() {
    let dir = tempfile::tempdir().unwrap();
    let (plain_run, plain) = plain_run(dir.path());
    let (mut all, plain_outputs) = (Outputs::default(), emitted_from(&plain_run));
    for (index, line_break) in BREAKS.iter().enumerate() {
        let name = hostile(line_break);
        let run = save(
            dir.path(),
            &format!("hostile-{index}.json"),
            &renamed(&plain, "plain.json", &name),
        );
        every_output(&mut all, &emitted_from(&run), &plain_outputs, &name);
        let aimed: Vec<(String, String)> = STARTED
            .iter()
            .map(|server| {
                let name = aimed_at(server, line_break);
                let renamed = renamed(&plain, "plain.json", &name);
                let run = save(dir.path(), &format!("{server}-{index}.json"), &renamed);
                let output = emitted_from(&run).into_iter().find(|(s, _)| s == server);
                output.unwrap()
            })
            .collect();
        each_serves_only_the_site(&aimed);
    }
    all.parsed_alike();
}

/// A measuring `recommend` on `source` (a payload directory or a HAR capture) whose only
/// body is named with `name`: each output as it prints it, each against the same run
/// with the name `plain` for `name`, added to `all`; its progress lines keep to their
/// lines.
fn measured_with(all: &mut Outputs, dir: &Path, source: &Path, name: &str, plain: &str) {
    let run = dir.join("run.json");
    let output = succeed(
        recommend(&["--payload", source.to_str().unwrap()])
            .args(["--emit", &SERVERS.join(",")])
            .arg("--export-json")
            .arg(&run),
    );
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        let injected = line.starts_with("location") || line.starts_with("app.use");
        assert!(!injected, "a progress line broken by the name: {line}");
    }
    let saved: Value = serde_json::from_slice(&std::fs::read(&run).unwrap()).unwrap();
    let plain_run = save(dir, "plain.json", &renamed(&saved, name, plain));
    every_output(
        all,
        &sections(&output.stdout),
        &emitted_from(&plain_run),
        name,
    );
}

/// A name for every output with each line break, then a name aimed at each server
/// started, with a line feed: that server is started with its output.
fn names() -> Vec<String> {
    let every = BREAKS.iter().map(|b| hostile(b));
    every
        .chain(STARTED.iter().map(|s| aimed_at(s, "\n")))
        .collect()
}

#[test]
fn file_names_with_line_breaks_stay_inside_every_emitted_comment() {
    let mut all = Outputs::default();
    for name in names() {
        let dir = tempfile::tempdir().unwrap();
        let payloads = dir.path().join("p");
        std::fs::create_dir(&payloads).unwrap();
        std::fs::write(payloads.join(&name), body()).unwrap();
        measured_with(&mut all, dir.path(), &payloads, &name, "plain.json");
    }
    all.parsed_alike();
}

#[test]
fn urls_with_line_breaks_in_a_har_capture_stay_inside_every_emitted_comment() {
    let mut all = Outputs::default();
    for name in names() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("https://api.example/{name}");
        let capture = serde_json::json!({ "log": { "version": "1.2", "entries": [{
            "request": { "method": "GET", "url": url },
            "response": { "status": 200, "content": {
                "mimeType": "application/json",
                "text": String::from_utf8(body()).unwrap(),
            }},
        }]}});
        let har = save(dir.path(), "capture.har", &capture);
        measured_with(
            &mut all,
            dir.path(),
            &har,
            &url,
            "https://api.example/plain.json",
        );
    }
    all.parsed_alike();
}
