//! End to end: `codecbench run` on the real binary.

use crate::common;

use common::{assert_no_float_noise, bad_input, codecbench, csv_rows, succeed};

/// Runs `codecbench run ARGS --format csv`, expects success, and returns the rows.
fn run_csv(args: &[&str]) -> Vec<std::collections::HashMap<String, String>> {
    let output = succeed(codecbench().arg("run").args(args).args(["--format", "csv"]));
    assert_no_float_noise(&output.stdout);
    csv_rows(&output.stdout)
}

#[test]
fn small_payload_reproduces_the_article_sizes() {
    let rows = run_csv(&["--payload", "small", "--iterations", "2", "--warmup", "0"]);
    assert_eq!(
        rows.len(),
        33,
        "24 zstd + 3 brotli in C + 3 in Rust + 3 gzip default settings"
    );

    let size_from = |library: &str, level: &str| -> u64 {
        let row = rows
            .iter()
            .find(|r| r["library"] == library && r["level"] == level)
            .unwrap();
        row["compressed_bytes"].parse().unwrap()
    };
    assert_eq!(size_from("libzstd", "1"), 41_132);
    assert_eq!(size_from("libzstd", "3"), 43_644);
    assert_eq!(size_from("libbrotli", "1"), 44_606);
    assert_eq!(size_from("brotli-rs", "1"), 44_606);
    assert_eq!(size_from("zlib-rs", "1"), 69_832);
    // C brotli q11 reaches the article's 8.78x.
    assert_eq!(
        format!("{:.2}", 298_727.0 / size_from("libbrotli", "11") as f64),
        "8.78"
    );

    for row in &rows {
        assert_eq!(row["payload"], "small");
        assert_eq!(row["input_bytes"], "298727");
        assert_eq!(row["status"], "ok");
        assert_eq!(
            (
                row["compress_iterations"].as_str(),
                row["decompress_iterations"].as_str(),
                row["warmup"].as_str()
            ),
            ("2", "2", "0")
        );
        let input: f64 = row["input_bytes"].parse().unwrap();
        let compressed: f64 = row["compressed_bytes"].parse().unwrap();
        assert_eq!(row["ratio"], format!("{:.4}", input / compressed));
        for speed in ["compress_mb_s", "decompress_mb_s"] {
            assert!(
                row[speed].parse::<f64>().unwrap() > 0.0,
                "{speed} in {row:?}"
            );
        }
    }
    let dotnet: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|r| !r["dotnet_level"].is_empty())
        .map(|r| {
            (
                r["codec"].as_str(),
                r["level"].as_str(),
                r["dotnet_level"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        dotnet,
        [
            ("zstd", "1", "Fastest"),
            ("zstd", "3", "Optimal"),
            ("brotli", "1", "Fastest"),
            ("brotli", "4", "Optimal"),
            ("brotli", "11", "SmallestSize"),
            ("brotli", "1", "Fastest"),
            ("brotli", "4", "Optimal"),
            ("brotli", "11", "SmallestSize"),
            ("gzip", "1", "Fastest"),
            ("gzip", "6", "Optimal"),
            ("gzip", "9", "SmallestSize"),
        ]
    );
    assert!(rows
        .iter()
        .any(|r| r["library"] == "libzstd" && r["version"] == "v1.5.7"));
}

#[test]
fn large_payload_zstd_ratios_match_the_article_to_two_decimals() {
    let rows = run_csv(&[
        "--payload",
        "large",
        "--iterations",
        "1",
        "--warmup",
        "0",
        "--codecs",
        "zstd",
        "--zstd-levels=-5,1,3,19",
    ]);
    let ratios: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["level"].clone(),
                format!("{:.2}", r["ratio"].parse::<f64>().unwrap()),
            )
        })
        .collect();
    // The article prints 6.66 for level 3; libzstd 1.5.7 gives 454,007 bytes, 6.649x.
    let expected = [("-5", "3.81"), ("1", "7.37"), ("3", "6.65"), ("19", "8.34")];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(l, r)| (l.to_string(), r.to_string()))
        .collect();
    assert_eq!(ratios, expected);
}

#[test]
fn table_shows_one_matrix_per_payload_and_progress_goes_to_stderr() {
    let output = succeed(
        codecbench()
            .args([
                "run",
                "--payload",
                "single",
                "--iterations",
                "3",
                "--warmup",
                "1",
            ])
            .args([
                "--codecs",
                "zstd,gzip",
                "--zstd-levels",
                "1,3",
                "--gzip-levels",
                "1",
            ]),
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stdout.starts_with(
            "single: 290 bytes, median of 3 timed iterations after 1 warm-up, in 3 rounds"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("compress") && stdout.contains("MB/s"),
        "{stdout}"
    );
    // Three cells, each once: in the table, not again as a progress line on stderr.
    for setting in ["│ zstd 1 ", "│ zstd 3 ", "│ gzip 1 "] {
        assert_eq!(stdout.matches(setting).count(), 1, "{setting}: {stdout}");
    }
    assert!(
        stdout.contains(".NET Fastest/Optimal: zstd 1/3, gzip 1/-"),
        "{stdout}"
    );
    let progress_lines = |stderr: &str, codec: &str| {
        stderr
            .lines()
            .filter(|l| l.trim_start().starts_with(codec) && l.contains(" B ("))
            .count()
    };
    assert_eq!(progress_lines(&stderr, "zstd"), 0, "{stderr}");
    assert!(!stdout.contains("brotli"));
    // gzip Fastest on one record is larger than the record itself, as the article found.
    assert!(stdout.contains("│ gzip 1  ┆ zlib-rs ┆   298 ┆"), "{stdout}");

    // gzip alone, with `flag`: what it prints on stderr.
    let gzip_with = |flag: &str| {
        let args = [
            "run",
            "--payload",
            "single",
            "--iterations",
            "3",
            "--codecs",
            "gzip",
        ];
        String::from_utf8(succeed(codecbench().args(args).arg(flag)).stderr).unwrap()
    };
    // With -v, a line per cell as it finishes.
    let stderr = gzip_with("-v");
    assert!(stderr.contains("gzip     1: 298 B"), "{stderr}");

    let stderr = gzip_with("--quiet");
    assert_eq!(progress_lines(&stderr, "gzip"), 0, "{stderr}");
    assert!(!stderr.contains("single: 290 bytes"), "{stderr}");
}

#[test]
fn user_files_and_directories_are_payloads_and_csv_file_matches_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let payloads = dir.path().join("bodies");
    std::fs::create_dir(&payloads).unwrap();
    let records = br#"{"b":[1,2,3,4,5,6,7,8,9,10]},"#.repeat(20);
    let array = [&b"["[..], &records[..records.len() - 1], b"]"].concat();
    std::fs::write(payloads.join("b.json"), array).unwrap();
    let text = [
        &b"\""[..],
        &b"hello hello hello hello".repeat(10)[..228],
        b"\"",
    ]
    .concat();
    std::fs::write(payloads.join("a.json"), text).unwrap();
    // Neither a picture nor a folder is measured, and each is named on stderr.
    std::fs::write(payloads.join("c.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    std::fs::create_dir(payloads.join("d")).unwrap();
    let csv_path = dir.path().join("out.csv");
    let output = succeed(
        codecbench()
            .args(["run", "--payload"])
            .arg(&payloads)
            .args([
                "--iterations",
                "2",
                "--warmup",
                "0",
                "--codecs",
                "brotli",
                "--brotli-impl",
                "c",
                "--brotli-levels",
                "0..2",
            ])
            .args(["--format", "csv", "--csv"])
            .arg(&csv_path),
    );
    assert_eq!(std::fs::read(&csv_path).unwrap(), output.stdout);
    let rows = csv_rows(&output.stdout);
    assert_eq!(rows.len(), 2 * 3);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("c.png: not JSON: not UTF-8 text"),
        "{stderr}"
    );
    assert!(stderr.contains("d: a folder"), "{stderr}");
    assert!(rows[0]["payload"].ends_with("a.json"), "sorted by name");
    assert!(rows[5]["payload"].ends_with("b.json"));
    assert_eq!(rows[0]["input_bytes"], "230");
    assert_eq!(rows[0]["dotnet_level"], "NoCompression");
}

#[test]
fn json_output_holds_every_sample_and_its_environment() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("run.json");
    let output = succeed(
        codecbench()
            .args([
                "run",
                "--payload",
                "single",
                "--iterations",
                "4",
                "--warmup",
                "0",
            ])
            .args([
                "--codecs",
                "zstd",
                "--zstd-levels=-1",
                "--format",
                "json",
                "--json",
            ])
            .arg(&json_path),
    );
    assert_eq!(std::fs::read(&json_path).unwrap(), output.stdout);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["schema_version"], 2);
    assert_eq!(report["seed"], 42);
    assert_eq!(report["rng"], "dotnet");
    let environment = &report["environment"];
    assert_eq!(environment["codecs"]["libzstd"], "libzstd 1.5.7");
    assert!(environment["rustc"].as_str().unwrap().starts_with("rustc "));
    assert!(environment["timestamp"].as_str().unwrap().ends_with('Z'));
    let payload = &report["payloads"][0];
    assert_eq!(
        payload["sha256"],
        "c603c915538b6b2aefc473a151cff2c9cce768209747743a810c02ebfeceee1a"
    );
    let cell = &payload["cells"][0];
    assert_eq!(cell["level"], -1);
    assert_eq!(cell["compress"]["samples_s"].as_array().unwrap().len(), 4);
    assert_eq!(cell["decompress"]["samples_s"].as_array().unwrap().len(), 4);
}

#[test]
fn seed_and_rng_change_the_builtin_payload() {
    let size = |extra: &[&str]| -> String {
        let base = ["--payload", "small", "--iterations", "1", "--warmup", "0"];
        let codec = ["--codecs", "gzip", "--gzip-levels", "1"];
        run_csv(&[&base[..], &codec, extra].concat())[0]["compressed_bytes"].clone()
    };
    let default = size(&[]);
    assert_eq!(default, "69832");
    assert_ne!(size(&["--seed", "7"]), default);
    assert_ne!(size(&["--rng", "chacha"]), default);
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let quick = ["--iterations", "1", "--warmup", "0"];
    let message = bad_input(&[&["run", "--payload", "medium"][..], &quick].concat());
    assert!(
        message.contains("'medium'") && message.contains("single, small, large"),
        "{message}"
    );

    let message = bad_input(&["run", "--payload", "/no/such/file.json"]);
    assert!(message.contains("/no/such/file.json"), "{message}");

    let message = bad_input(&["run", "--zstd-levels", "99"]);
    assert!(
        message.contains("zstd level 99 is out of range"),
        "{message}"
    );

    let message = bad_input(&["run", "--brotli-levels", "12"]);
    assert!(
        message.contains("brotli level 12 is out of range"),
        "{message}"
    );

    let message = bad_input(&["run", "--gzip-levels", "1,x"]);
    assert!(message.contains("--gzip-levels"), "{message}");

    let message = bad_input(&["run", "--iterations", "0"]);
    assert!(message.contains("--iterations"), "{message}");

    let message = bad_input(&["run", "--min-time", "0"]);
    assert!(message.contains("--min-time 0"), "{message}");
    let message = bad_input(&["run", "--max-iterations", "5"]);
    assert!(message.contains("only with --min-time"), "{message}");
    let message = bad_input(&["run", "--quick", "--iterations", "5"]);
    assert!(message.contains("--quick"), "{message}");
    let message = bad_input(&["run", "--pin", "4096"]);
    assert!(message.contains("--pin 4096"), "{message}");

    let message = bad_input(&["run", "--codecs", "lz4"]);
    assert!(
        message.contains("lz4") && message.contains("[possible values: zstd, brotli, gzip]"),
        "{message}"
    );

    let message = bad_input(&["run", "--codecs", "gzip", "--zstd-levels", "1"]);
    assert!(message.contains("zstd is not in --codecs"), "{message}");

    let message = bad_input(
        &[
            &[
                "run",
                "--payload",
                "single",
                "--csv",
                "/no/such/dir/out.csv",
            ][..],
            &quick,
        ]
        .concat(),
    );
    assert!(message.contains("/no/such/dir/out.csv"), "{message}");

    let message = bad_input(&["frobnicate"]);
    assert!(message.contains("frobnicate"), "{message}");
}

#[test]
fn command_line_errors_come_whole_from_clap() {
    let message = bad_input(&["compare", "a.json"]);
    assert!(
        message.contains("required arguments were not provided") && message.contains("<CANDIDATE>"),
        "{message}"
    );
    let message = bad_input(&["run", "--iteration", "5"]);
    assert!(
        message.contains("a similar argument exists: '--iterations'"),
        "{message}"
    );
    // Bare `codecbench` lists the commands (as help) but still fails.
    let output = codecbench().output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("Commands:") && stderr.contains("compare"),
        "{stderr}"
    );
}

#[test]
fn empty_payload_files_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, b"").unwrap();
    let message = bad_input(&["run", "--payload", empty.to_str().unwrap()]);
    assert!(message.contains("empty"), "{message}");
}

#[test]
fn help_and_version_succeed() {
    codecbench().arg("--help").assert().success();
    codecbench().args(["run", "--help"]).assert().success();
    codecbench().arg("--version").assert().success();
}

#[test]
fn a_time_budget_sizes_iterations_per_cell_and_records_statistics() {
    let rows = run_csv(&[
        "--payload",
        "small",
        "--codecs",
        "zstd,brotli",
        "--zstd-levels",
        "1",
        "--brotli-levels",
        "11",
        "--brotli-impl",
        "c",
        "--min-time",
        "0.2",
        "--max-iterations",
        "40",
    ]);
    let count = |row: &std::collections::HashMap<String, String>, direction: &str| -> u32 {
        row[&format!("{direction}_iterations")].parse().unwrap()
    };
    let (zstd, brotli) = (&rows[0], &rows[1]);
    // zstd 1 takes about a millisecond, so the budget runs it many times, within the cap.
    assert!((2..=40).contains(&count(zstd, "compress")), "{zstd:?}");
    // brotli 11 takes far longer than 200 ms: its first run is its one sample. (At 20 ms,
    // a stalled VM once made zstd 1's first run 26 ms, and so its only sample.)
    assert_eq!(count(brotli, "compress"), 1, "{brotli:?}");
    assert!(count(brotli, "decompress") > 1);
    for column in [
        "compress_mean_ms",
        "compress_mad_ms",
        "compress_ci95_low_ms",
        "compress_ci95_high_ms",
    ] {
        let value: f64 = zstd[column].parse().unwrap();
        assert!(value >= 0.0, "{column}");
    }
    let median: f64 = zstd["compress_median_ms"].parse().unwrap();
    let low: f64 = zstd["compress_ci95_low_ms"].parse().unwrap();
    let high: f64 = zstd["compress_ci95_high_ms"].parse().unwrap();
    assert!(low <= median && median <= high);
    assert_eq!(
        brotli["compress_ci95_low_ms"], "",
        "no interval from one sample"
    );
}

#[test]
fn progress_reaches_a_log_file_while_the_run_goes_on() {
    // stderr to a file, as in CI: a line per round must show before the table (written
    // once the payload is done), not all at the end.
    let dir = tempfile::tempdir().unwrap();
    let (err_path, out_path) = (dir.path().join("err.log"), dir.path().join("out.txt"));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("codecbench"))
        .args([
            "run",
            "--payload",
            "small",
            "--codecs",
            "zstd",
            "--zstd-levels",
            "19",
        ])
        .args(["--rounds", "3", "--iterations", "30", "--warmup", "0"])
        .stderr(std::fs::File::create(&err_path).unwrap())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let seen_early = loop {
        let log = std::fs::read_to_string(&err_path).unwrap();
        // By default 5 processes of 3 rounds each, their rounds counted together.
        if log.contains("round 2/15") {
            // Read stdout only after the log showed round 2: the table cannot be there.
            break std::fs::read_to_string(&out_path).unwrap().is_empty();
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended without round lines: {log}"
        );
        assert!(std::time::Instant::now() < deadline, "no round line: {log}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert!(child.wait().unwrap().success());
    assert!(seen_early, "the round line came after the table");
    let log = std::fs::read_to_string(&err_path).unwrap();
    assert!(log.contains("ETA"), "{log}");
}

#[test]
fn a_server_whose_encoders_do_not_run_here_is_refused_in_one_line() {
    let message = bad_input(&["run", "--server", "caddy", "--payload", "single"]);
    assert!(message.contains("Go's libraries"), "{message}");
    // A server's own encoders are its API and encoder: the options that set those clash.
    let message = bad_input(&["run", "--server", "nginx", "--api", "oneshot"]);
    assert!(message.contains("cannot be used with"), "{message}");
}

/// `command` (codecbench, its environment set) running zstd 1 on single three times,
/// with `extra`, saved to `saved`: the saved run.
fn zstd_1_on_single(
    mut command: assert_cmd::Command,
    extra: &[&str],
    saved: &std::path::Path,
) -> serde_json::Value {
    command.args([
        "run",
        "--payload",
        "single",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1",
    ]);
    command.args(["--iterations", "3", "--warmup", "0", "--quiet"]);
    succeed(command.args(extra).arg("--export-json").arg(saved));
    serde_json::from_slice(&std::fs::read(saved).unwrap()).unwrap()
}

#[test]
fn a_pinned_run_still_names_every_core_of_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("pinned.json");
    let run = zstd_1_on_single(codecbench(), &["--pin", "0"], &saved);
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(
        run["environment"]["logical_cores"], cores,
        "{}",
        run["environment"]
    );
    assert_eq!(run["environment"]["pin"]["cpu"], 0);
}

#[test]
fn a_run_slowed_on_purpose_says_so_in_its_file_and_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("slowed.json");
    let mut slowed = codecbench();
    slowed.env("CODECBENCH_CALIBRATE_SLOWDOWN", "zstd:1=1.50");
    let run = zstd_1_on_single(slowed, &[], &saved);
    assert_eq!(run["environment"]["calibration"], "zstd:1=1.5");
    let page = dir.path().join("report.html");
    succeed(
        codecbench()
            .arg("report")
            .arg(&saved)
            .arg("--out")
            .arg(&page),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("cells slowed on purpose: zstd:1=1.5"),
        "{html}"
    );
    let unreadable = codecbench()
        .env("CODECBENCH_CALIBRATE_SLOWDOWN", "zstd:1=fast")
        .args(["run", "--payload", "single", "--codecs", "zstd"])
        .output()
        .unwrap();
    assert_eq!(unreadable.status.code(), Some(2));
}
