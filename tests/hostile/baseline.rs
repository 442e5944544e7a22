//! `ab` against baselines that attack it: one that refuses every version, one that
//! talks forever, one that answers late, answers for something else than the batch
//! asked for, and workers that leave children behind. Each run ends within
//! `--max-time` + 30 s with one line, and leaves no process behind.

use std::path::Path;
use std::time::Duration;

use super::peer::{run, Ended};
use crate::common::script;

/// The most a run may take past its `--max-time`.
const GRACE: Duration = Duration::from_secs(30);

/// This build, which the hostile baselines wrap.
fn this_build() -> &'static str {
    env!("CARGO_BIN_EXE_codecbench")
}

/// `ab` of zstd 1 on the single record against `baseline`, within `max_time` seconds.
fn ab(baseline: &Path, max_time: u64) -> Ended {
    ab_with(baseline, max_time, &[])
}

/// [`ab`] with `extra` options.
fn ab_with(baseline: &Path, max_time: u64, extra: &[&str]) -> Ended {
    let max = max_time.to_string();
    let args = [
        "ab",
        "--baseline",
        baseline.to_str().unwrap(),
        "--payload",
        "single",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1",
        "--quiet",
        "--max-time",
        &max,
    ];
    let args = [&args[..], extra].concat();
    run(&args, None, Duration::from_secs(max_time) + GRACE)
}

/// Asserts a failed run said one line naming the baseline and `expected`.
fn failed_naming(ended: &Ended, baseline: &Path, expected: &str) {
    let stderr = &ended.stderr;
    assert_eq!(ended.code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("the baseline ({})", baseline.display())),
        "{stderr}"
    );
    assert!(stderr.contains(expected), "{expected}: {stderr}");
    assert!(ended.peak_mb < 300.0, "{} MB", ended.peak_mb);
}

/// How many processes run `marker` in their command line.
fn running(marker: &str) -> usize {
    let found = std::process::Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .unwrap();
    String::from_utf8_lossy(&found.stdout).lines().count()
}

#[test]
fn a_baseline_refusing_every_version_is_asked_once_more_then_refused() {
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts");
    let body = format!(
        "echo >> '{}'\nread -r job\necho '{{\"refused\":\"this build speaks 1\"}}'",
        starts.display()
    );
    let baseline = script(dir.path(), "speaks-1", &body);
    let ended = ab(&baseline, 5);
    failed_naming(&ended, &baseline, "this build speaks 1");
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 2, "once per version");
}

#[test]
fn a_baseline_that_talks_forever_or_answers_late_ends_at_max_time() {
    let dir = tempfile::tempdir().unwrap();
    let step = r#"{"step":{"round":0,"rounds":1,"cell":0,"cells":1,"label":"single zstd 1"}}"#;
    for (name, body) in [
        (
            "chatty",
            format!("read -r job\nwhile :; do echo '{step}'; sleep 1; done"),
        ),
        ("late", "read -r job\nsleep 100".to_string()),
    ] {
        let baseline = script(dir.path(), name, &body);
        let ended = ab(&baseline, 5);
        assert!(ended.elapsed < Duration::from_secs(5) + GRACE);
        assert_eq!(ended.code, Some(1), "{name}: {}", ended.stderr);
        assert!(
            ended
                .stderr
                .contains("1 cell not measured within --max-time 5 s"),
            "{}",
            ended.stderr
        );
        let stdout = String::from_utf8_lossy(&ended.stdout);
        assert!(
            stdout.starts_with("Out of time: 0 of 0 cells failed"),
            "{stdout}"
        );
        assert!(stdout.contains("--max-time ran out after"), "{stdout}");
    }
    assert_eq!(running(&format!("{}/late", dir.path().display())), 0);
}

#[test]
fn an_answer_for_anything_but_the_batch_asked_for_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, rewrite, expected) in [
        ("zero", r#"s/"min_s":[^,]*/"min_s":0/g"#, "no clock gives"),
        (
            "negative",
            r#"s/"median_s":[^,]*/"median_s":-1/g"#,
            "no clock gives",
        ),
        ("another-cell", r#"s/"level":1,/"level":2,/"#, "was asked"),
        (
            "another-payload",
            r#"s/"payload":"single"/"payload":"other"/"#,
            "another payload",
        ),
        (
            "cut-short",
            r#"s/"interrupted":false/"interrupted":true/"#,
            "cut short",
        ),
        (
            "no-cells",
            r#"s/"cells":\[.*\]\}\}$/"cells":[]}}/"#,
            "answered 0 cells",
        ),
        (
            "two-cells",
            r#"s/"cells":\[(.*)\]\}\}$/"cells":[\1,\1]}}/"#,
            "answered 2 cells",
        ),
    ] {
        let body = format!("'{}' \"$@\" | sed -u -E '{rewrite}'", this_build());
        let baseline = script(dir.path(), name, &body);
        failed_naming(&ab(&baseline, 60), &baseline, expected);
    }
}

#[test]
fn a_baselines_children_end_with_it_and_an_early_exit_is_seen_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // A marker no other test's process carries.
    let marker = format!("sleep 86{:04}", std::process::id() % 10_000);
    let forked = script(
        dir.path(),
        "forks",
        &format!("{marker} &\nexec '{}' \"$@\"", this_build()),
    );
    let ended = ab(&forked, 60);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(running(&marker), 0, "children outlived their worker");

    // Exits at once, its child still holding the stdout ab reads.
    let holding = script(
        dir.path(),
        "holds",
        &format!("read -r job\n{marker} &\nexit 0"),
    );
    let ended = ab(&holding, 60);
    failed_naming(&ended, &holding, "ended without a result");
    assert!(
        ended.elapsed < Duration::from_secs(10),
        "{:?}",
        ended.elapsed
    );
    assert_eq!(running(&marker), 0);
}

#[test]
fn a_baseline_that_says_a_build_of_50_mb_is_cut_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    // The worker's answers as they are, but its build says a version of 50 MB.
    let grow = dir.path().join("grow.js");
    let code = "const rl = require('readline').createInterface({ input: process.stdin });\n\
        rl.on('line', (line) => {\n  if (line.startsWith('{\"build\"')) {\n    const a = JSON.parse(line);\n    \
        a.build.codecbench_version = '9'.repeat(50e6);\n    line = JSON.stringify(a);\n  }\n  \
        process.stdout.write(line + '\\n');\n});\n";
    std::fs::write(&grow, code).unwrap();
    let body = format!("'{}' \"$@\" | node '{}'", this_build(), grow.display());
    let baseline = script(dir.path(), "says-a-lot", &body);
    let saved = dir.path().join("ab.json");
    let ended = ab_with(&baseline, 60, &["--export-json", saved.to_str().unwrap()]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(
        ended.stdout.len() < 20_000,
        "{} bytes printed",
        ended.stdout.len()
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&saved).unwrap()).unwrap();
    let said = report["baseline_build"]["codecbench_version"]
        .as_str()
        .unwrap();
    assert!(said.ends_with("… (49999744 bytes cut)"), "{:.300}", said);
    assert!(ended.peak_mb < 300.0, "{} MB", ended.peak_mb);
}
