//! End to end: outputs never destroy inputs, and outputs that are not regular files are
//! written through, not replaced.

use crate::common;

use common::{bad_input, codecbench, succeed};

const QUICK: [&str; 8] = [
    "--codecs",
    "zstd",
    "--zstd-levels",
    "1",
    "--iterations",
    "3",
    "--quiet",
    "--format=csv",
];

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("b.json");
    std::fs::write(&payload, br#"{"records": [1, 2, 3]}"#).unwrap();
    let p = payload.to_str().unwrap();
    for output in ["--json", "--csv"] {
        let message = bad_input(&[&["run", "--payload", p, output, p][..], &QUICK].concat());
        assert!(message.contains("would overwrite an input"), "{message}");
    }
    // A file inside a payload directory is an input too.
    let inside = dir.path().join("results.json");
    let d = dir.path().to_str().unwrap();
    let message = bad_input(
        &[
            &["run", "--payload", d, "--json", inside.to_str().unwrap()][..],
            &QUICK,
        ]
        .concat(),
    );
    assert!(message.contains("would overwrite an input"), "{message}");
    assert!(!inside.exists());
    assert_eq!(
        std::fs::read(&payload).unwrap(),
        br#"{"records": [1, 2, 3]}"#,
        "the input is untouched"
    );

    // plot and reproduce read a saved run: neither may write over it.
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/base.json");
    let run = dir.path().join("run.json");
    std::fs::copy(fixture, &run).unwrap();
    let before = std::fs::read(&run).unwrap();
    let r = run.to_str().unwrap();
    bad_input(&["plot", r, "-o", r]);
    bad_input(&["reproduce", "--from", r, "--out", r]);
    assert_eq!(std::fs::read(&run).unwrap(), before);
}

#[test]
fn a_link_is_followed_and_a_device_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.json");
    std::fs::write(&target, b"previous").unwrap();
    let link = dir.path().join("link.json");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link).unwrap();
    #[cfg(not(unix))]
    return;
    succeed(
        codecbench()
            .args(["run", "--payload", "single", "--json"])
            .arg(&link)
            .args(QUICK),
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert_eq!(document["schema_version"], 2);

    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        succeed(
            codecbench()
                .args(["run", "--payload", "single", "--json", "/dev/null"])
                .args(QUICK),
        );
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(
            null.file_type().is_char_device(),
            "/dev/null is still a device"
        );
    }
}

#[test]
fn a_closed_pipe_stops_the_run_and_leaves_complete_files_marked_interrupted() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("f.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["run", "--payload", "small", "--codecs", "zstd,gzip"])
        .args(["--zstd-levels", "1..6", "--iterations", "20", "--quiet"])
        .args(["--processes", "1"]) // one process streams each cell as it ends
        .args(["--format", "csv", "--json"])
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the header, then go away, as `| head -1` does.
    let mut header = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut header)
        .unwrap();
    assert!(header.starts_with("payload,"), "{header}");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let payload = &document["payloads"][0];
    assert_eq!(payload["interrupted"], true, "{document}");
    // The cells still in their last round are kept with the samples they have.
    assert!(!payload["cells"].as_array().unwrap().is_empty());
}

#[test]
fn a_dash_writes_the_document_to_stdout_once() {
    let dir = tempfile::tempdir().unwrap();
    let output = succeed(
        codecbench()
            .current_dir(dir.path())
            .args([
                "run",
                "--payload",
                "single",
                "--codecs",
                "zstd",
                "--zstd-levels",
                "1,3",
            ])
            .args([
                "--iterations",
                "3",
                "--quiet",
                "--format",
                "markdown",
                "--json",
                "-",
            ]),
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let json = &stdout[stdout.find("\n{").expect("the JSON after the table") + 1..];
    let document: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        document["payloads"][0]["cells"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file named -"
    );
}

#[test]
fn one_run_writes_every_format_and_each_file_is_what_stdout_shows() {
    let dir = tempfile::tempdir().unwrap();
    for (format, extension) in [("csv", "csv"), ("json", "json"), ("markdown", "md")] {
        let path = |ext: &str| dir.path().join(format!("{format}-run.{ext}"));
        let output = succeed(
            codecbench()
                .arg("run")
                .args(common::TWO_CELLS)
                .args(["--iterations", "5"])
                .args(["--quiet", "--format", format])
                .arg("--export-csv")
                .arg(path("csv"))
                .arg("--export-json")
                .arg(path("json"))
                .arg("--export-markdown")
                .arg(path("md")),
        );
        let file = std::fs::read(path(extension)).unwrap();
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(file).unwrap(),
            "--format {format} and --export-{format}"
        );
        // The three files are one run: the same sizes in each.
        let rows = common::csv_rows(&std::fs::read(path("csv")).unwrap());
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path("json")).unwrap()).unwrap();
        let markdown = std::fs::read_to_string(path("md")).unwrap();
        let cells = json["payloads"][0]["cells"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        for (row, cell) in rows.iter().zip(cells) {
            assert_eq!(
                row["compressed_bytes"],
                cell["compressed_bytes"].to_string()
            );
            assert!(markdown.contains(&format!("| {} |", row["compressed_bytes"])));
        }
    }
}

#[test]
fn two_formats_into_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("out");
    let same = same.to_str().unwrap();
    let message = bad_input(&["run", "--export-csv", same, "--export-json", same]);
    assert!(
        message.contains("--export-csv and --export-json both name"),
        "{message}"
    );
    assert!(!dir.path().join("out").exists());
}
