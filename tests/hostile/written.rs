//! What codecbench writes cannot be turned against its reader: text from a saved run,
//! a HAR capture or a file name is typed where it is read and escaped where it is
//! written (server configuration, CSV, terminal, Markdown).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{bad_input, codecbench, succeed};

/// A real `recommend` run of the test capture (gzip 1, quick), saved as JSON in `dir`.
fn capture_run(dir: &Path) -> (PathBuf, Value) {
    let path = dir.join("run.json");
    succeed(codecbench().args([
        "recommend",
        "--payload",
        "tests/fixtures/capture.har",
        "--quick",
        "--codecs",
        "gzip",
        "--gzip-levels",
        "1",
        "--quiet",
        "--export-json",
        path.to_str().unwrap(),
    ]));
    let run = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, run)
}

/// `run` with the first JSON body's content type set to `content_type`, saved in `dir`.
fn with_content_type(dir: &Path, run: &Value, content_type: &str) -> String {
    let mut run = run.clone();
    let payloads = run["payloads"].as_array_mut().unwrap();
    let json = payloads
        .iter_mut()
        .find(|p| p["content_type"] == "application/json")
        .unwrap();
    json["content_type"] = Value::String(content_type.to_string());
    let path = dir.join("planted.json");
    std::fs::write(&path, serde_json::to_vec(&run).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn a_content_type_that_is_not_a_media_type_never_reaches_a_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let (_, run) = capture_run(dir.path());
    // As reported: a newline, then a server block that lists /etc.
    let planted = "application/json;\n}\nserver { listen 127.0.0.1:8080; location / \
                   { root /etc; autoindex on; } }\nhttp {";
    let caddy = "application/json*\n}\n:8080 {\n\troot * /etc\n\tfile_server browse\n}\n{";
    for (content_type, emit) in [(planted, "nginx"), (caddy, "caddy")] {
        let path = with_content_type(dir.path(), &run, content_type);
        let message = bad_input(&["recommend", "--from", &path, "--emit", emit]);
        assert!(message.contains("content_type"), "{message}");
        assert!(
            message.contains("is not a type/subtype media type"),
            "{message}"
        );
        // The value is quoted with its newlines escaped: one line.
        assert!(message.contains(r"\n}\n"), "{message}");
    }
}

#[test]
fn a_media_type_with_parameters_is_kept_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let (_, run) = capture_run(dir.path());
    let path = with_content_type(dir.path(), &run, "Application/JSON; charset=utf-8");
    let output = succeed(codecbench().args(["recommend", "--from", &path, "--emit", "nginx"]));
    let config = String::from_utf8(output.stdout).unwrap();
    let types = config
        .lines()
        .find(|l| l.starts_with("gzip_types"))
        .unwrap();
    assert!(types.contains(" application/json"), "{types}");
    assert!(!types.contains("charset"), "{types}");
}
