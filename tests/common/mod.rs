//! Helpers shared by the end-to-end tests.

use std::process::Output;

use assert_cmd::Command;

/// The real codecbench binary, with a clean environment for colours.
/// zstd, brotli and gzip, each at level 1: the fewest cells that give every encoding.
pub const EACH_CODEC_AT_1: [&str; 8] = [
    "--codecs",
    "zstd,brotli,gzip",
    "--zstd-levels",
    "1",
    "--brotli-levels",
    "1",
    "--gzip-levels",
    "1",
];

pub fn codecbench() -> Command {
    let mut cmd = Command::cargo_bin("codecbench").expect("binary built by cargo test");
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Whether `program` runs (`program arg` succeeds); if not, says which Debian `package`
/// to install and returns false outside CI, or fails in CI, where `.ci/run` installs it.
pub fn present(program: &str, arg: &str, package: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg(arg)
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install {package} (.ci/run does)"
        );
        eprintln!("{program} is not installed (Debian package: {package}): skipped");
    }
    found
}

/// `run` options for one small matrix: the single record, zstd 1 and gzip 1.
pub const TWO_CELLS: [&str; 8] = [
    "--payload",
    "single",
    "--codecs",
    "zstd,gzip",
    "--zstd-levels",
    "1",
    "--gzip-levels",
    "1",
];

/// Runs codecbench with `args`, expecting exit code 2 and an error that names the
/// problem; returns it. Checks past the command line are one line; clap's own errors
/// (unknown or missing arguments) come whole, with suggestions and usage.
pub fn bad_input(args: &[&str]) -> String {
    let output = codecbench().args(args).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}: stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}: nothing on stdout");
    if stderr.starts_with("error: ") {
        assert!(stderr.contains("try '--help'"), "{args:?}: {stderr}");
    } else {
        assert!(stderr.starts_with("codecbench: error: "), "{stderr}");
        assert_eq!(
            stderr.lines().count(),
            1,
            "{args:?}: one line, got {stderr:?}"
        );
    }
    stderr
}

/// Runs `cmd`, expecting success; shows its stderr if it failed.
pub fn succeed(cmd: &mut Command) -> Output {
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Parses CSV output into header-keyed rows.
pub fn csv_rows(stdout: &[u8]) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(stdout);
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .map(String::from)
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Runs `codecbench compare BASELINE CANDIDATE EXTRA...`; returns its exit code and
/// stdout, after checking that it did not panic.
pub fn compare(
    baseline: &std::path::Path,
    candidate: &std::path::Path,
    extra: &[&str],
) -> (i32, String) {
    let output = codecbench()
        .arg("compare")
        .arg(baseline)
        .arg(candidate)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// Fails if a CSV field holds float noise (`32.401475999999995`): every fractional
/// figure must come rounded to the precision it has, at most 6 significant digits.
pub fn assert_no_float_noise(csv: &[u8]) {
    let text = String::from_utf8(csv.to_vec()).unwrap();
    for row in csv_rows(csv) {
        for (column, field) in &row {
            if !field.contains('.') || field.parse::<f64>().is_err() {
                continue;
            }
            let digits = field
                .chars()
                .filter(char::is_ascii_digit)
                .skip_while(|&c| c == '0')
                .count();
            assert!(digits <= 6, "{column} = {field}: float noise in {text}");
        }
    }
}

/// Each payload's name and size in `recommend --format json` output.
pub fn payload_sizes(advice: &serde_json::Value) -> Vec<(&str, u64)> {
    advice["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["payload"].as_str().unwrap(),
                p["input_bytes"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Sends `child` SIGINT, as a terminal's Ctrl-C would.
#[cfg(unix)]
pub fn ctrl_c(child: &std::process::Child) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits for `child` to exit; returns its status and everything it wrote to stderr.
pub fn wait_with_stderr(child: &mut std::process::Child) -> (std::process::ExitStatus, String) {
    let status = child.wait().unwrap();
    (status, stderr_of(child))
}

/// Everything `child`, which has exited, wrote to its piped stderr.
pub fn stderr_of(child: &mut std::process::Child) -> String {
    use std::io::Read as _;
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    stderr
}

/// The row a probe report's first URL has for `accept`.
pub fn probe_row<'a>(report: &'a serde_json::Value, accept: &str) -> &'a serde_json::Value {
    report["urls"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["accept_encoding"] == accept)
        .unwrap_or_else(|| panic!("no {accept} row in {report}"))
}

/// Whether gnumeric's importer is here; in CI it must be (`.ci/run` installs it).
pub fn ssconvert_present() -> bool {
    present("ssconvert", "--version", "gnumeric")
}

/// `csv` as gnumeric's importer (`ssconvert`) reads it, written back out as CSV text.
pub fn through_spreadsheet(csv: &std::path::Path) -> String {
    let back = csv.with_extension("back.csv");
    let output = Command::new("ssconvert")
        .args(["--export-type=Gnumeric_stf:stf_csv"])
        .arg(csv)
        .arg(&back)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    std::fs::read_to_string(back).unwrap()
}

/// `br` for `brotli`: the content coding the answer's text and nginx's directives use.
pub fn codec_coding(codec: &str) -> &str {
    match codec {
        "brotli" => "br",
        other => other,
    }
}

/// An executable shell script `body` at `dir/name`: a hostile baseline or peer.
pub fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A FIFO at `dir/name`, nobody at either end yet.
pub fn fifo(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt as _;
    let path = dir.join(name);
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo reads a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    path
}
