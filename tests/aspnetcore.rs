//! End to end: `run --server aspnetcore`, the middleware fed a JSON body as the
//! serializer writes and flushes it (`src/codec/aspnetcore.rs`). Sizes only.

use crate::common;

use common::{bad_input, codecbench, csv_rows, succeed};

/// One timed iteration and no warm-up: these tests read sizes and labels, not speeds.
const ONE_ITERATION: [&str; 4] = ["--iterations", "1", "--warmup", "0"];

/// Compressed bytes per (codec, level, variant) of a CSV run of `args`.
fn sizes(args: &[&str]) -> Vec<(String, i32, String, u64)> {
    let output = succeed(
        codecbench()
            .arg("run")
            .args(ONE_ITERATION)
            .arg("--quiet")
            .args(["--format", "csv"])
            .args([
                "--zstd-levels",
                "1,3",
                "--brotli-levels",
                "1",
                "--gzip-levels",
                "1",
            ])
            .args(args),
    );
    csv_rows(&output.stdout)
        .into_iter()
        .map(|row| {
            (
                row["codec"].clone(),
                row["level"].parse().unwrap(),
                row["variant"].clone(),
                row["compressed_bytes"].parse().unwrap(),
            )
        })
        .collect()
}

fn size_of(rows: &[(String, i32, String, u64)], codec: &str, level: i32) -> u64 {
    rows.iter()
        .find(|r| r.0 == codec && r.1 == level)
        .unwrap_or_else(|| panic!("no {codec} {level} in {rows:?}"))
        .3
}

fn server_args(payload: &'static str, writer: &'static str) -> Vec<&'static str> {
    vec![
        "--payload",
        payload,
        "--server",
        "aspnetcore",
        "--aspnetcore-writer",
        writer,
    ]
}

#[test]
fn on_the_small_payload_the_wire_differs_from_one_write_where_the_flushes_fall() {
    let one_write = sizes(&["--payload", "small", "--brotli-impl", "c"]);
    let minimal = sizes(&server_args("small", "minimal"));
    let mvc = sizes(&server_args("small", "mvc"));
    let net8 = sizes(&server_args("small", "mvc-net8"));
    assert!(
        minimal.iter().all(|r| r.2 == "aspnetcore minimal"),
        "{minimal:?}"
    );
    assert!(mvc.iter().all(|r| r.2 == "aspnetcore mvc"), "{mvc:?}");
    assert!(
        net8.iter().all(|r| r.2 == "aspnetcore mvc-net8"),
        "{net8:?}"
    );
    // (setting, one write, minimal APIs and MVC, MVC on .NET 8): 21 pieces of about
    // 14.7 KB, written in 4 KiB segments on .NET 9's path. brotli 1 ends up larger
    // than gzip 1 there.
    let expected = [
        ("zstd", 1, 41_132, 42_267, 41_135),
        ("zstd", 3, 43_644, 44_811, 43_647),
        ("brotli", 1, 44_606, 70_873, 55_350),
        ("gzip", 1, 69_832, 70_059, 69_819),
    ];
    for (codec, level, article, on_minimal, on_net8) in expected {
        let setting = format!("{codec} {level}");
        assert_eq!(size_of(&one_write, codec, level), article, "{setting}");
        assert_eq!(size_of(&minimal, codec, level), on_minimal, "{setting}");
        assert_eq!(size_of(&mvc, codec, level), on_minimal, "{setting}");
        assert_eq!(size_of(&net8, codec, level), on_net8, "{setting}");
    }
}

#[test]
fn one_record_is_one_write_and_one_flush_on_every_path() {
    let minimal = sizes(&server_args("single", "minimal"));
    let mvc = sizes(&server_args("single", "mvc-net8"));
    assert_eq!(
        minimal.iter().map(|r| r.3).collect::<Vec<_>>(),
        mvc.iter().map(|r| r.3).collect::<Vec<_>>()
    );
    // The flush before the end costs zstd an empty block: 3 bytes on 241.
    assert_eq!(size_of(&minimal, "zstd", 1), 244);
}

#[test]
fn the_run_says_the_rows_are_modelled_not_measured_on_kestrel() {
    let output = succeed(codecbench().arg("run").args(ONE_ITERATION).args([
        "--payload",
        "single",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1",
        "--server",
        "aspnetcore",
    ]));
    let text = String::from_utf8_lossy(&output.stdout).replace("\n  ", " ");
    assert!(
        text.contains("modelled from ASP.NET Core's source (docs/servers.md), not measured against a live Kestrel"),
        "{text}"
    );
}

#[test]
fn a_writer_without_aspnetcore_is_refused() {
    let message = bad_input(&["run", "--payload", "single", "--aspnetcore-writer", "mvc"]);
    assert!(message.contains("--server"), "{message}");
    let other = bad_input(&[
        "run",
        "--payload",
        "single",
        "--server",
        "nginx",
        "--aspnetcore-writer",
        "mvc",
    ]);
    assert!(
        other.contains("--aspnetcore-writer is for --server aspnetcore"),
        "{other}"
    );
}

#[test]
fn recommend_and_its_emitted_configuration_say_so_too() {
    let base = [
        "--payload",
        "single",
        "--payload",
        "small",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1,3",
        "--server",
        "aspnetcore",
    ];
    let recommend = || {
        let mut command = codecbench();
        command.arg("recommend").args(ONE_ITERATION).args(base);
        command
    };
    let report = succeed(&mut recommend());
    let text = String::from_utf8_lossy(&report.stdout).replace("\n", " ");
    assert!(
        text.contains("not measured against a live Kestrel"),
        "{text}"
    );
    let emitted = succeed(recommend().args(["--emit", "aspnetcore"]));
    let config = String::from_utf8_lossy(&emitted.stdout);
    assert!(
        config.contains("modelled from its source (docs/servers.md), not measured on a live"),
        "{config}"
    );
}

#[test]
fn the_writer_reaches_every_measuring_process() {
    // Six iterations run in two processes by default; a child that fed the encoder as a
    // minimal API would give 70,873 B and fail the cell.
    let output = succeed(codecbench().args([
        "run",
        "--iterations",
        "6",
        "--warmup",
        "0",
        "--quiet",
        "--format",
        "csv",
        "--payload",
        "small",
        "--codecs",
        "brotli",
        "--brotli-levels",
        "1",
        "--server",
        "aspnetcore",
        "--aspnetcore-writer",
        "mvc-net8",
    ]));
    let rows = csv_rows(&output.stdout);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[0]["variant"], "aspnetcore mvc-net8");
    assert_eq!(rows[0]["compressed_bytes"], "55350");
}
