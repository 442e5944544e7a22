//! End to end: bad input, interruption, corrupted output and closed pipes. Every bad input
//! must give one line on stderr naming the problem and exit 2, before anything is
//! measured; nothing here depends on the machine's speed.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use common::{bad_input, codecbench, csv_rows};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Asserts that `args` is bad input whose message contains `expected`.
fn refuses(args: &[&str], expected: &str) {
    let message = bad_input(args);
    assert!(
        message.contains(expected),
        "{args:?}: expected {expected:?} in {message:?}"
    );
}

#[test]
fn payload_files_that_cannot_be_measured() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    std::fs::write(path("empty.json"), b"").unwrap();
    std::fs::create_dir(path("nothing")).unwrap();
    // Sparse: 300 MiB on paper, no blocks on disk.
    let huge = std::fs::File::create(path("huge.json")).unwrap();
    huge.set_len(300 * 1024 * 1024).unwrap();

    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "--payload", "/no/such/file.json"],
            "'/no/such/file.json' is neither",
        ),
        (&["run", "--payload", &path("empty.json")], "is empty"),
        (&["run", "--payload", &path("nothing")], "holds no files"),
    ];
    for (args, expected) in cases {
        refuses(args, expected);
    }
    refuses(
        &["run", "--payload", &path("huge.json")],
        "is 300.0 MiB (314572800 bytes); codecbench reads up to 256 MiB",
    );
    refuses(
        &["run", "--payload", "medium"],
        "'medium' is neither a built-in payload",
    );
    refuses(&["payloads", "--records", "900000"], "--records 900000");
}

#[test]
fn unknown_names_and_levels_out_of_range() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "--codecs", "lz4"],
            "invalid value 'lz4' for '--codecs",
        ),
        (
            &["run", "--brotli-impl", "go"],
            "invalid value 'go' for '--brotli-impl",
        ),
        (
            &["run", "--encoder", "pooled"],
            "invalid value 'pooled' for '--encoder",
        ),
        (
            &["run", "--zstd-levels", "23"],
            "zstd level 23 is out of range",
        ),
        (
            &["run", "--zstd-levels=-131073"],
            "zstd level -131073 is out of range",
        ),
        (
            &["run", "--brotli-levels", "12"],
            "brotli level 12 is out of range",
        ),
        (
            &["run", "--brotli-levels", "-1"],
            "brotli level -1 is out of range",
        ),
        (
            &["run", "--gzip-levels", "10"],
            "gzip level 10 is out of range",
        ),
        (
            &["run", "--gzip-levels", "1..x"],
            "invalid --gzip-levels '1..x'",
        ),
    ];
    for (args, expected) in cases {
        refuses(args, expected);
    }
}

#[test]
fn counts_that_are_zero_negative_or_not_numbers() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--iterations", "0"], "'0' for '--iterations <N>'"),
        (
            &["run", "--iterations", "-3"],
            "'-3' for '--iterations <N>'",
        ),
        (
            &["run", "--iterations", "abc"],
            "'abc' for '--iterations <N>'",
        ),
        (&["run", "--warmup", "-1"], "'-1' for '--warmup <N>'"),
        (&["run", "--rounds", "0"], "'0' for '--rounds <N>'"),
        (&["run", "--min-time", "-1"], "--min-time -1"),
        (&["run", "--min-time", "soon"], "'soon' for '--min-time"),
        (
            &["run", "--max-iterations", "0"],
            "'0' for '--max-iterations <N>'",
        ),
        (&["run", "--seed", "abc"], "'abc' for '--seed <SEED>'"),
        (&["run", "--pin", "-1"], "'-1' for '--pin <CPU>'"),
        (
            &["compare", "a", "b", "--threshold", "x"],
            "'x' for '--threshold",
        ),
        (&["recommend", "--bandwidth", "-10"], "--bandwidth -10"),
    ];
    for (args, expected) in cases {
        refuses(args, expected);
    }
}

#[test]
fn unwritable_outputs_are_refused_before_measuring() {
    let start = Instant::now();
    // The large payload would take minutes to measure: the refusal must come first.
    let run = ["run", "--payload", "large"];
    refuses(
        &[&run[..], &["--csv", "/no/such/dir/out.csv"]].concat(),
        "cannot write /no/such/dir/out.csv",
    );
    refuses(
        &[&run[..], &["--json", "/no/such/dir/out.json"]].concat(),
        "cannot write /no/such/dir/out.json",
    );
    #[cfg(target_os = "linux")]
    refuses(
        &[&run[..], &["--csv", "/proc/codecbench.csv"]].concat(),
        "cannot write /proc/codecbench.csv",
    );
    let base = fixture("base.json");
    let base = base.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["plot", base, "-o", "/no/such/dir/chart.svg"],
            "cannot write /no/such/dir/chart.svg",
        ),
        (
            &["reproduce", "--out", "/no/such/dir/R.md"],
            "cannot write /no/such/dir/R.md (--out): no such directory",
        ),
        (
            &["recommend", "--export-json", "/no/such/dir/r.json"],
            "cannot write /no/such/dir/r.json (--export-json)",
        ),
        (
            &["payloads", "--out", "/proc/codecbench"],
            "cannot create directory /proc/codecbench",
        ),
    ];
    for (args, expected) in cases {
        refuses(args, expected);
    }
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "refused without measuring"
    );
}

#[test]
fn saved_runs_that_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let good = std::fs::read(fixture("base.json")).unwrap();
    let truncated = write("truncated.json", &good[..good.len() / 2]);
    let binary = write("binary.bin", &[0x89, b'P', b'N', b'G', 0, 0, 0xff, 0xfe, 7]);
    let future = write(
        "future.json",
        &String::from_utf8(good.clone())
            .unwrap()
            .replacen("\"schema_version\": 1", "\"schema_version\": 99", 1)
            .into_bytes(),
    );
    let csv = std::fs::read_to_string(fixture("base.csv")).unwrap();
    let wrong_type = write(
        "wrong-type.csv",
        csv.replacen(",241,", ",lots,", 1).as_bytes(),
    );
    let base = fixture("base.json");
    let base = base.to_str().unwrap();

    let cases: &[(&[&str], &str)] = &[
        (
            &["compare", base, &truncated],
            "truncated.json is not a valid codecbench JSON run",
        ),
        (
            &["compare", base, &binary],
            "binary.bin is not a valid codecbench CSV run",
        ),
        (
            &["compare", base, &future],
            "schema_version 99 is not supported",
        ),
        (
            &["compare", base, &wrong_type],
            "'lots' in column compressed_bytes is not a number",
        ),
        (
            &["merge", base, &truncated],
            "truncated.json is not a valid codecbench JSON run",
        ),
        (
            &["merge", &future, base],
            "schema_version 99 is not supported",
        ),
        (&["recommend", "--from", &wrong_type], "is not a number"),
    ];
    for (args, expected) in cases {
        refuses(args, expected);
    }
}

#[test]
fn a_corrupted_round_trip_is_caught_and_never_reported_as_valid() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path) = (dir.path().join("run.csv"), dir.path().join("run.json"));
    let output = codecbench()
        .env("CODECBENCH_TEST_CORRUPT", "gzip")
        .arg("run")
        .args(common::TWO_CELLS)
        .args(["--iterations", "3"])
        .arg("--csv")
        .arg(&csv_path)
        .arg("--json")
        .arg(&json_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("codecbench: FAILED single gzip 1 (zlib-rs): round trip mismatch"),
        "{stderr}"
    );
    assert!(
        stdout.contains("FAILED"),
        "the table marks the cell: {stdout}"
    );

    let csv = std::fs::read(&csv_path).unwrap();
    let rows = csv_rows(&csv);
    let gzip = rows.iter().find(|r| r["codec"] == "gzip").unwrap();
    assert_eq!(gzip["status"], "failed");
    assert!(gzip["failure"].starts_with("round trip mismatch"));
    for column in ["compress_mb_s", "decompress_mb_s", "compress_median_ms"] {
        assert_eq!(gzip[column], "", "no speed for a failed cell: {column}");
    }
    let zstd = rows.iter().find(|r| r["codec"] == "zstd").unwrap();
    assert_eq!(zstd["status"], "ok");

    // Streamed, the failed cell (second in setting order, done first) waits for the
    // cell before it, and each is named as itself in its CSV row and progress line.
    let streamed = codecbench()
        .env("CODECBENCH_TEST_CORRUPT", "gzip")
        .arg("run")
        .args(common::TWO_CELLS)
        .args(["--iterations", "3", "--rounds", "3", "--format", "csv"])
        .output()
        .unwrap();
    let rows = csv_rows(&streamed.stdout);
    let named: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["codec"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(named, [("zstd", "ok"), ("gzip", "failed")]);
    let stderr = String::from_utf8(streamed.stderr).unwrap();
    assert!(
        stderr.contains("  gzip     1: FAILED (zlib-rs)"),
        "{stderr}"
    );
    // The cell that worked is in the CSV; only the failure gets a line of its own.
    assert!(!stderr.contains("  zstd     1: 241 B"), "{stderr}");

    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    let cells = json["payloads"][0]["cells"].as_array().unwrap();
    let gzip = cells.iter().find(|c| c["codec"] == "gzip").unwrap();
    assert!(gzip["failure"]
        .as_str()
        .unwrap()
        .contains("round trip mismatch"));
    assert!(gzip["compress"].is_null() && gzip["compress_mb_s"].is_null());
}

/// Reads the first line of the child's stdout, then closes the pipe; the child must exit
/// 0 without a word on stderr, as ripgrep does under `| head -1`.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_codecbench"))
        .args([
            "run",
            "--payload",
            "small",
            "--codecs",
            "zstd",
            "--zstd-levels",
            "1..3",
        ])
        .args([
            "--iterations",
            "20",
            "--rounds",
            "1",
            "--format",
            "csv",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    stdout.read_line(&mut header).unwrap();
    assert!(header.starts_with("payload,input_bytes,"));
    drop(stdout);
    let (status, stderr) = common::wait_with_stderr(&mut child);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

/// Waits until `csv_path` holds `rows` rows, sends `child` SIGINT, and checks that it
/// exits 130; returns its stderr.
#[cfg(unix)]
fn interrupt_once_saved(mut child: std::process::Child, csv_path: &Path, rows: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read(csv_path)
        .map(|b| csv_rows(&b).len())
        .unwrap_or(0)
        < rows
    {
        assert!(Instant::now() < deadline, "nothing saved within 120 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    common::ctrl_c(&child);
    let (status, stderr) = common::wait_with_stderr(&mut child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    stderr
}

/// Sends SIGINT once the run has saved a few cells; the files must then hold complete
/// rows and a valid document, and the exit code must be 130.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_every_finished_cell_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path) = (dir.path().join("run.csv"), dir.path().join("run.json"));
    // One round, so cells finish one by one; the large payload and brotli 11 make the run
    // last far longer than the test waits.
    let child = StdCommand::new(env!("CARGO_BIN_EXE_codecbench"))
        .args([
            "run",
            "--payload",
            "single",
            "--payload",
            "large",
            "--codecs",
            "zstd,brotli",
        ])
        .args([
            "--zstd-levels",
            "1..3",
            "--brotli-levels",
            "11",
            "--brotli-impl",
            "c",
        ])
        .args(["--iterations", "50", "--rounds", "1", "--quiet"])
        .arg("--csv")
        .arg(&csv_path)
        .arg("--json")
        .arg(&json_path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = interrupt_once_saved(child, &csv_path, 2);
    assert!(stderr.contains("codecbench: interrupted;"), "{stderr}");
    assert!(stderr.contains("written to"), "{stderr}");

    let csv = std::fs::read(&csv_path).unwrap();
    let rows = csv_rows(&csv);
    assert!(rows.len() >= 2);
    let columns = csv_rows(&std::fs::read(&csv_path).unwrap())[0].len();
    for row in &rows {
        assert_eq!(row.len(), columns, "complete rows only");
        assert_eq!(row["status"], "ok");
        assert!(row["compress_mb_s"].parse::<f64>().unwrap() > 0.0);
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    let saved: usize = json["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(saved, rows.len(), "CSV and JSON hold the same cells");
}

/// The same for `http`: SIGINT after the first encoding is saved ends the load in flight,
/// keeps every finished encoding in both files, marks the payload interrupted and exits
/// 130.
#[cfg(unix)]
#[test]
fn ctrl_c_during_http_keeps_finished_encodings() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path) = (dir.path().join("h.csv"), dir.path().join("h.json"));
    let child = StdCommand::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["http", "--payload", "single", "--duration", "2"])
        .args(["--encodings", "zstd:1,gzip:1,identity"])
        .arg("--csv")
        .arg(&csv_path)
        .arg("--json")
        .arg(&json_path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = interrupt_once_saved(child, &csv_path, 1);
    assert!(stderr.contains("codecbench: interrupted;"), "{stderr}");

    let rows = csv_rows(&std::fs::read(&csv_path).unwrap());
    assert!(!rows.is_empty() && rows.len() < 3, "{rows:?}");
    assert_eq!(rows[0]["http_encoding"], "zstd:1");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    let payload = &json["payloads"][0];
    assert_eq!(payload["interrupted"], true);
    assert_eq!(payload["encodings"].as_array().unwrap().len(), rows.len());
}

/// What the fuzz target (`fuzz/`) calls: a saved run gives its results, anything else an
/// error, never a panic.
#[test]
fn the_fuzzed_reader_gives_results_or_an_error() {
    let run = std::fs::read(fixture("base.json")).unwrap();
    assert!(codecbench::saved_run_results(&run).unwrap() > 0);
    for garbage in [
        &b""[..],
        b"[1,2]",
        b"{\"schema_version\": 99}",
        b"\xff\xfe\x00",
    ] {
        assert!(codecbench::saved_run_results(garbage).is_err());
    }
}
