//! End to end: `codecbench lab` through Debian's nginx, apache2 and caddy, and an Express
//! app in Node.js, on 127.0.0.1. The bytes match the servers' profiles (nginx, Apache)
//! or Node's own encoders, the run it saves answers `recommend --from`, and no server
//! outlives it, whether it ends, is stopped, is killed or fails to start.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{codecbench, csv_rows, succeed};
use crate::servers::{express_installed, installed, node_encodes, predicted};
use crate::servers::{APACHE2, BROTLI_FILTER, MODULES};

/// The fewest batches that give an interval, of 3 requests: the tests' load.
const FEW: [&str; 4] = ["--batches", "6", "--requests", "3"];

pub fn servers_here() -> bool {
    let brotli = format!("{MODULES}/mod_brotli.so");
    installed(
        "nginx",
        &[BROTLI_FILTER],
        "nginx libnginx-mod-http-brotli-filter",
    ) && installed(APACHE2, &[&brotli], "apache2")
}

/// Caddy and Express, for the tests that run the lab through them.
pub fn others_here() -> bool {
    installed("caddy", &[], "caddy") && express_installed()
}

/// The pids of processes whose command line names `dir`: the servers a lab run with
/// TMPDIR=`dir` started.
pub fn servers_in(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let zombie = status.contains("State:\tZ");
        if !zombie && String::from_utf8_lossy(&cmdline).contains(&needle) {
            found.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// The lab on `payload` at br `brotli` and gzip 6, its temporary directories under
/// `tmp`.
pub fn lab(tmp: &Path, payload: &str, brotli: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codecbench"));
    command.args(["lab", "--payload", payload, "--brotli-levels", brotli]);
    command.args(["--gzip-levels", "6"]);
    command.args(extra).env("TMPDIR", tmp).env("NO_COLOR", "1");
    command
}

#[test]
fn lab_sends_what_the_profiles_predict_and_its_run_answers_recommend() {
    if !servers_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let saved = tmp.path().join("lab.json");
    let args = [&FEW[..], &["--quiet", "--servers", "nginx,apache"]].concat();
    let args = [&args[..], &["--cuts", "none", "--export-json"]].concat();
    let output = lab(tmp.path(), "small", "5", &args)
        .arg(&saved)
        .arg("--format")
        .arg("csv")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        servers_in(tmp.path()),
        Vec::<String>::new(),
        "a server outlived the lab"
    );
    let rows = csv_rows(&output.stdout);
    assert_eq!(rows.len(), 4, "{rows:?}");
    sent_as_predicted(&rows, "nginx", "nginx 1.");
    sent_as_predicted(&rows, "apache", "Apache httpd 2.");
    let answer = succeed(
        codecbench()
            .arg("recommend")
            .arg("--from")
            .arg(&saved)
            .args(["--emit", "apache"]),
    );
    let config = String::from_utf8(answer.stdout).unwrap();
    // One answer for two servers' cells would mix them: refused without --emit.
    let mixed = crate::common::bad_input(&["recommend", "--from", saved.to_str().unwrap()]);
    assert!(
        mixed.contains("measured through nginx and apache"),
        "{mixed}"
    );
    assert!(
        config.contains("measured through a live apache"),
        "{config}"
    );
    // Apache's output names Apache's figures only, its static line too.
    assert!(!config.contains("served by nginx"), "{config}");
}

#[test]
fn a_run_through_one_server_says_its_budget_is_that_servers_cpu() {
    if !servers_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("apache.json");
    let args = [
        &FEW[..],
        &["--quiet", "--servers", "apache", "--cuts", "none"],
    ]
    .concat();
    let output = lab(tmp.path(), "small", "5", &args)
        .arg("--export-json")
        .arg(&one)
        .output()
        .unwrap();
    assert!(output.status.success());
    let report = succeed(codecbench().arg("recommend").arg("--from").arg(&one));
    // The table wraps its lines: the words are checked in one line.
    let report = String::from_utf8(report.stdout).unwrap();
    let report = report.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        report.contains("of apache's own CPU as measured through it"),
        "{report}"
    );
}

/// Checks that the lab's CSV `rows` hold, for `server` (named `version` and more), the
/// bytes `run --server` predicts for small at br 5 and gzip 6.
fn sent_as_predicted(rows: &[HashMap<String, String>], server: &str, version: &str) {
    let small = ["small".to_string()];
    for expected in predicted(server, &small, "5", "6") {
        let served = rows
            .iter()
            .find(|r| {
                r["variant"] == format!("served by {server}") && r["codec"] == expected["codec"]
            })
            .unwrap_or_else(|| panic!("{server} {}: {rows:?}", expected["codec"]));
        assert_eq!(
            served["compressed_bytes"], expected["compressed_bytes"],
            "{server}"
        );
        assert!(served["version"].contains(version), "{served:?}");
    }
}

/// Starts the lab through `server` on a body whose br 11 (or gzip 6, for Caddy) takes
/// long, waits for its first cell, sends `signal`, and checks that it ended within 15 s
/// with no server left.
fn stopped_by(signal: i32, server: &str) -> Option<i32> {
    let tmp = tempfile::tempdir().unwrap();
    let err = tmp.path().join("err");
    let args = ["--batches", "100", "--servers", server];
    let mut child = lab(tmp.path(), "large", "11", &args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !std::fs::read_to_string(&err).unwrap().contains(": large ") {
        assert!(start.elapsed() < Duration::from_secs(60), "no cell began");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !servers_in(tmp.path()).is_empty(),
        "the server was not seen running"
    );
    // SAFETY: signalling our own child by its pid.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(15),
            "the lab ran on after the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // The kernel kills a server whose parent died without stopping it, at once.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !servers_in(tmp.path()).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        servers_in(tmp.path()),
        Vec::<String>::new(),
        "a server outlived the lab"
    );
    status.code()
}

#[test]
fn a_stop_or_a_kill_leaves_no_server_running() {
    if !servers_here() || !others_here() {
        return;
    }
    for server in ["nginx", "apache", "caddy", "express"] {
        assert_eq!(stopped_by(libc::SIGINT, server), Some(130), "{server}");
        assert_eq!(stopped_by(libc::SIGTERM, server), Some(143), "{server}");
        assert_eq!(stopped_by(libc::SIGKILL, server), None, "{server}");
    }
}

#[test]
fn caddy_and_express_send_their_own_bytes_and_their_runs_answer_recommend() {
    if !others_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let saved = tmp.path().join("lab.json");
    let csv = tmp.path().join("lab.csv");
    // A cut under 512 B too: Caddy's default minimum, which `minimum_length 0` means.
    let cuts = "400,1KiB,4KiB,16KiB,64KiB";
    let args = [&FEW[..], &["--servers", "caddy,express", "--cuts", cuts]].concat();
    let output = lab(tmp.path(), "small", "5", &args)
        .arg("--export-json")
        .arg(&saved)
        .arg("--export-csv")
        .arg(&csv)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).replace("\n  ", " ");
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("as caddy has no encoder for them: br 5."),
        "{text}"
    );
    assert_eq!(servers_in(tmp.path()), Vec::<String>::new());
    let rows = csv_rows(&std::fs::read(&csv).unwrap());
    // Each setting on the body and on the five bodies cut from it.
    let express_br = rows
        .iter()
        .filter(|r| r["variant"] == "served by express" && r["codec"] == "brotli");
    assert_eq!(express_br.count(), 6, "{rows:?}");
    let row = |variant: &str, codec: &str| {
        rows.iter()
            .find(|r| r["variant"] == variant && r["codec"] == codec && r["payload"] == "small")
            .unwrap_or_else(|| panic!("{variant} {codec}: {rows:?}"))
    };
    let caddy = row("served by caddy", "gzip");
    assert_eq!(caddy["library"], "klauspost-compress");
    assert!(caddy["version"].contains("Caddy 2."), "{caddy:?}");
    let payload = codecbench::generate(1000, 42, codecbench::RngKind::Dotnet);
    for (codec, coding, level) in [("brotli", "br", 5), ("gzip", "gzip", 6)] {
        let express = row("served by express", codec);
        let node = node_encodes(coding, level, &payload);
        assert_eq!(
            express["compressed_bytes"],
            node.len().to_string(),
            "{codec}"
        );
    }
    assert_eq!(row("served by express", "gzip")["library"], "zlib-chromium");
    answers_as_served(&saved, "express", "threshold:");
    answers_as_served(&saved, "caddy", "gzip 6");
}

/// Checks that `recommend --from saved --emit server` says it was measured through the
/// live server, places its minimum between sizes measured, and holds `words`.
fn answers_as_served(saved: &Path, server: &str, words: &str) {
    let answer = succeed(
        codecbench()
            .arg("recommend")
            .arg("--from")
            .arg(saved)
            .args(["--emit", server]),
    );
    let config = String::from_utf8(answer.stdout).unwrap();
    assert!(
        config.contains(&format!("measured through a live {server}")),
        "{config}"
    );
    // The cuts measured beside the body bracket the minimum: no estimate.
    let headline = config.lines().next().unwrap();
    assert!(!headline.contains("(estimated)"), "{config}");
    assert!(config.contains(words), "{config}");
}

#[test]
fn a_server_the_lab_cannot_start_is_skipped_with_why() {
    if !servers_here() {
        return;
    }
    // A temporary directory whose name a configuration would read as syntax.
    let base = tempfile::tempdir().unwrap();
    let tmp = base.path().join("a b;");
    std::fs::create_dir(&tmp).unwrap();
    let output = lab(
        &tmp,
        "single",
        "5",
        &["--batches", "6", "--servers", "nginx"],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("nginx: skipped") && stderr.contains("set TMPDIR to a plain path"),
        "{stderr}"
    );
    assert_eq!(servers_in(&tmp), Vec::<String>::new());
}

#[test]
fn an_express_app_that_fails_to_start_fails_the_lab_and_leaves_nothing() {
    if !express_installed() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // Modules that name themselves but hold no code: Node exits at require.
    let modules = tmp.path().join("node_modules");
    for module in ["express", "compression"] {
        std::fs::create_dir_all(modules.join(module)).unwrap();
        let package =
            format!("{{\"name\":\"{module}\",\"version\":\"9.9.9\",\"main\":\"gone.js\"}}");
        std::fs::write(modules.join(module).join("package.json"), package).unwrap();
    }
    let args = ["--batches", "6", "--servers", "express", "--node-modules"];
    let output = lab(tmp.path(), "single", "5", &args)
        .arg(&modules)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("Express 9.9.9") && stderr.contains("did not start"),
        "{stderr}"
    );
    assert_eq!(servers_in(tmp.path()), Vec::<String>::new());
    let missing = crate::common::bad_input(&["lab", "--node-modules", "/nonexistent/modules"]);
    assert!(missing.contains("not a directory"), "{missing}");
    let cuts = crate::common::bad_input(&["lab", "--cuts", "1KiB,8"]);
    assert!(cuts.contains("--cuts 8: sizes from 16 bytes"), "{cuts}");
}
