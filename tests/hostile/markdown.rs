//! Text from outside cannot build Markdown or steer a page: a payload file's name, a
//! baseline's path and a saved run's machine, each holding line breaks and a heading,
//! render as one line with the breaks shown, in every command that writes Markdown; an
//! error naming them is one line; HTML and SVG show bidi and control characters as
//! escapes.

use std::path::Path;

use serde_json::Value;

use crate::common::{bad_input, codecbench, succeed};

/// A name that would open a heading and a table of the attacker's choosing.
const FORGED: &str = "a\n\n# Forged: all cells pass\n\n| forged |\r\n\u{2028}.json";

/// Asserts no line of `markdown` starts what the attacker wrote.
fn inert(what: &str, markdown: &str) {
    for line in markdown.lines() {
        assert!(
            !line.starts_with("# Forged") && !line.starts_with("| forged"),
            "{what}: {line:?} in\n{markdown}"
        );
    }
    assert!(markdown.contains("\\n\\n# Forged"), "{what}: {markdown}");
}

/// A quick run of the payload file `name` in `dir`, saved as JSON there; its path.
fn run_of_file(dir: &Path, name: &str) -> std::path::PathBuf {
    let payload = dir.join(name);
    std::fs::write(&payload, br#"[{"id":1,"name":"a"}]"#).unwrap();
    let json = dir.join("run.json");
    let markdown = dir.join("run.md");
    succeed(
        codecbench()
            .args(["run", "--quick", "--quiet", "--codecs", "zstd"])
            .args(["--zstd-levels", "1", "--payload"])
            .arg(&payload)
            .arg("--export-json")
            .arg(&json)
            .arg("--export-markdown")
            .arg(&markdown),
    );
    if name == FORGED {
        inert(
            "run --export-markdown",
            &std::fs::read_to_string(&markdown).unwrap(),
        );
    }
    json
}

#[test]
fn a_payload_name_or_a_machine_with_line_breaks_stays_one_line_in_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let json = run_of_file(dir.path(), FORGED);
    let compared = succeed(
        codecbench()
            .args(["compare", "--format", "markdown"])
            .args([&json, &json]),
    );
    inert("compare", &String::from_utf8(compared.stdout).unwrap());

    let mut run: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    for field in ["cpu", "os", "arch"] {
        run["environment"][field] = Value::from(FORGED);
    }
    let forged = dir.path().join("forged-machine.json");
    std::fs::write(&forged, serde_json::to_vec(&run).unwrap()).unwrap();
    let merged = succeed(
        codecbench()
            .args(["merge", "--format", "markdown"])
            .args([&forged, &json]),
    );
    inert("merge", &String::from_utf8(merged.stdout).unwrap());
}

#[test]
fn a_baseline_path_with_line_breaks_stays_one_line_in_abs_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join(FORGED);
    std::fs::copy(env!("CARGO_BIN_EXE_codecbench"), &baseline).unwrap();
    let markdown = dir.path().join("ab.md");
    let output = codecbench()
        .args(["ab", "--quiet", "--payload", "single", "--codecs", "zstd"])
        .args(["--zstd-levels", "1", "--threshold", "50", "--baseline"])
        .arg(&baseline)
        .arg("--export-markdown")
        .arg(&markdown)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.code().is_some_and(|c| c <= 1), "{stderr}");
    inert(
        "ab --export-markdown",
        &std::fs::read_to_string(&markdown).unwrap(),
    );
}

#[test]
fn an_error_naming_a_file_with_line_breaks_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join(FORGED);
    let message = bad_input(&["run", "--quick", "--payload", missing.to_str().unwrap()]);
    assert!(message.contains("\\n\\n# Forged"), "{message}");
}

#[test]
fn bidi_and_control_characters_in_a_saved_run_are_shown_in_html_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let json = run_of_file(dir.path(), "plain.json");
    let mut run: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let hostile = "evil\u{202e}nosj.exe\u{1b}[31m\u{0}\u{2066}";
    run["environment"]["cpu"] = Value::from(hostile);
    run["payloads"][0]["payload"] = Value::from(hostile);
    let forged = dir.path().join("forged.json");
    std::fs::write(&forged, serde_json::to_vec(&run).unwrap()).unwrap();
    let (page, svg) = (dir.path().join("page.html"), dir.path().join("chart.svg"));
    succeed(
        codecbench()
            .arg("report")
            .arg(&forged)
            .arg("--out")
            .arg(&page),
    );
    succeed(codecbench().arg("plot").arg(&forged).arg("-o").arg(&svg));
    for path in [page, svg] {
        let text = std::fs::read_to_string(&path).unwrap();
        for raw in ['\u{202e}', '\u{1b}', '\u{0}', '\u{2066}'] {
            assert!(!text.contains(raw), "{}: {raw:?}", path.display());
        }
        assert!(
            text.contains("evil\\u{202e}nosj.exe\\u{1b}"),
            "{}",
            path.display()
        );
    }
}
