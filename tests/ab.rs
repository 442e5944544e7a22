//! End to end: `ab` measures this build against a baseline in pairs, flags a cell the
//! calibration hook slowed, falls back for a baseline that speaks protocol 1 only, and
//! refuses bad input and hostile baselines in one line.

use std::path::{Path, PathBuf};

use crate::common::{bad_input, codecbench, script};
use serde_json::Value;

/// zstd 1 and 3 on the single record, 9 pairs at most, a 20% threshold (wide enough
/// that noise alone never passes it), JSON kept at `json`.
fn ab_args(baseline: &Path, json: &Path) -> Vec<String> {
    [
        "ab",
        "--baseline",
        baseline.to_str().unwrap(),
        "--payload",
        "single",
        "--codecs",
        "zstd",
        "--zstd-levels",
        "1,3",
        "--max-pairs",
        "9",
        "--threshold",
        "20",
        "--quiet",
        "--export-json",
        json.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// Each direction of each cell has both clocks' ratios (both builds read CPU time),
/// says which its verdict read, and could see the slowdown its interval says:
/// (1 + threshold) × the interval's half-width as a ratio, less 1.
fn both_clocks_and_a_sight_per_direction(report: &Value) {
    let threshold = report["threshold"].as_f64().unwrap();
    for cell in report["cells"].as_array().unwrap() {
        for (index, direction) in ["compress", "decompress"].into_iter().enumerate() {
            let times = &cell[direction];
            let pairs = times["ratios"].as_array().unwrap().len();
            assert_eq!(
                times["cpu_ratios"].as_array().map(Vec::len),
                Some(pairs),
                "{cell}"
            );
            assert!(
                ["wall", "cpu"].contains(&times["basis"].as_str().unwrap()),
                "{cell}"
            );
            let value = |key: &str| times[key].as_f64().unwrap();
            let (estimate, low, high) = (value("estimate"), value("low"), value("high"));
            let half = (high / estimate).max(estimate / low);
            let sight = cell["sight"][index].as_f64().unwrap();
            assert!(
                ((1.0 + threshold) * half - 1.0 - sight).abs() < 1e-9,
                "{cell}"
            );
        }
    }
}

fn this_build() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_codecbench"))
}

fn verdicts(report: &Value, level: i64) -> Vec<String> {
    let cell = report["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"] == level)
        .unwrap();
    cell["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// What the first screen of `ab`'s page shows, and how zstd 3's compression is drawn.
const AB_PAGE: &str = "(() => {
    const fold = window.innerHeight;
    const seen = e => e && e.getBoundingClientRect().bottom <= fold;
    const fails = [...document.querySelectorAll('section.ab h3 + .scroll table tbody tr')]
        .slice(0, 1).map(r => [r.cells[0].textContent, r.cells[1].textContent, seen(r)]);
    const f = document.querySelector('figure.forest');
    const strip = f.querySelector('rect.strip').getBBox();
    const g = [...f.querySelectorAll('g.change')]
        .find(g => g.querySelector('text').textContent.startsWith('single zstd 3 (libzstd) compress'));
    const bar = g.querySelector('line').getBBox();
    const sight = g.querySelector('line.sight');
    return {
        banner: document.querySelector('.verdict').textContent,
        bannerSeen: seen(document.querySelector('.verdict')),
        fails,
        identitySeen: seen(document.querySelector('table.identity')),
        zstd3: [g.getAttribute('class'), bar.x > strip.x + strip.width],
        sightOnTheSlowerSide: sight.x1.baseVal.value > strip.x + strip.width / 2,
        sightSaid: sight.textContent.startsWith('could have shown a slowdown of '),
        rowsWithSight: f.querySelectorAll('g.change line.sight').length,
        rows: f.querySelectorAll('g.change').length,
    };
})()";

#[test]
fn a_cell_slowed_three_times_is_flagged_by_name_and_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    let page = dir.path().join("ab.html");
    let output = codecbench()
        .args(ab_args(&this_build(), &json))
        .arg("--export-html")
        .arg(&page)
        .env("CODECBENCH_CALIBRATE_SLOWDOWN", "zstd:3=3")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("Fails: 1 of 2 cells"), "{stdout}");
    assert!(
        stdout.contains("single zstd 3 (libzstd): slower"),
        "{stdout}"
    );
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(verdicts(&report, 3), ["slower", "slower"], "{report}");
    assert!(!verdicts(&report, 1).contains(&"slower".to_string()));
    assert_eq!(report["baseline_protocol"], 2);
    assert_eq!(report["calibration"], "zstd:3=3");
    both_clocks_and_a_sight_per_direction(&report);
    // The baseline said which build it is: here, this one.
    let (baseline, candidate) = (&report["baseline_build"], &report["environment"]);
    assert_eq!(
        baseline["codecbench_version"],
        env!("CARGO_PKG_VERSION"),
        "{report}"
    );
    assert_eq!(baseline["git_commit"], candidate["git_commit"], "{report}");
    assert_eq!(baseline["rustc"], candidate["rustc"], "{report}");
    assert_eq!(baseline["codecs"], candidate["codecs"], "{report}");
    assert!(baseline["codecs"]["libzstd"]
        .as_str()
        .unwrap()
        .starts_with("libzstd 1.5"));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<strong>Fails</strong>: 1 slower"), "{html}");
    if !crate::browser::installed() {
        return;
    }
    let mut browser = crate::browser::Page::open(&crate::report_first::url(&page));
    let first = browser.eval(AB_PAGE);
    assert_eq!(first["bannerSeen"], true, "{first}");
    assert_eq!(first["identitySeen"], true, "{first}");
    assert_eq!(
        first["fails"],
        serde_json::json!([["single zstd 3 (libzstd)", "slower", true]]),
        "{first}"
    );
    // Slowed 3x: its bar lies wholly right of the threshold strip, drawn as slower.
    assert_eq!(
        first["zstd3"],
        serde_json::json!(["change regressed", true]),
        "{first}"
    );
    // Each row marks the smallest slowdown it could have shown, on the slower side.
    assert_eq!(first["sightOnTheSlowerSide"], true, "{first}");
    assert_eq!(first["sightSaid"], true, "{first}");
    assert_eq!(first["rowsWithSight"], first["rows"], "{first}");
    // From a phone to a desktop: the long baseline path wraps, the tables scroll in
    // their boxes, the page never sideways.
    let laid_out = crate::report_screens::widths(&mut browser);
    let wider: Vec<_> = laid_out
        .iter()
        .filter(|(w, wide)| *wide > u64::from(*w))
        .collect();
    assert!(wider.is_empty(), "{wider:?} (window, page)");
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

#[test]
fn a_baseline_that_speaks_only_protocol_1_gets_a_worker_per_batch() {
    let dir = tempfile::tempdir().unwrap();
    // A protocol 1 build: it refuses version 2 as such a build does, and answers a
    // version 1 job (through this build, which reads it as version 2), never saying
    // which build it is.
    let exe = this_build();
    let old = script(
        dir.path(),
        "old-build",
        &format!(
            r#"[ "$1" = time-worker ] || exit 2
read -r job
case "$job" in
  *'"protocol":1,'*) printf '%s\n' "$job" | sed 's/"protocol":1,/"protocol":2,/' | "{}" time-worker | grep -v '^{{"build"' ;;
  *) echo '{{"refused":"protocol 2 is not spoken here: this build speaks 1"}}'; exit 2 ;;
esac"#,
            exe.display()
        ),
    );
    let json = dir.path().join("ab.json");
    let output = codecbench().args(ab_args(&old, &json)).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.starts_with("Passes: 0 of 2 cells"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["baseline_protocol"], 1);
    assert_eq!(report["baseline_build"], Value::Null, "{report}");
    assert!(
        stdout.contains("codecbench not said (a build from before ab asked)"),
        "{stdout}"
    );
    assert!(
        report["cells"][0]["compress"]["ratios"]
            .as_array()
            .unwrap()
            .len()
            >= 9
    );
}

/// A cell the same both ways gets pairs until it could see `--sight`: an aim no interval
/// reaches keeps both cells to `--max-pairs`, where a wide one lets them stop early (at
/// 9 unless noise leaves one open a few pairs more, never near 30 at a 20% threshold).
#[test]
fn cells_get_pairs_until_they_could_see_the_aim() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    let pairs = |sight: &str, most: &str| -> (Value, Vec<usize>) {
        let mut args = ab_args(&this_build(), &json);
        let at = args.iter().position(|a| a == "--max-pairs").unwrap() + 1;
        args[at] = most.into();
        args.extend(["--sight".to_string(), sight.to_string()]);
        let output = codecbench().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let report: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let counts = (report["cells"].as_array().unwrap().iter())
            .map(|c| c["compress"]["ratios"].as_array().unwrap().len())
            .collect();
        (report, counts)
    };
    // The threshold is 20%: a sight of 20.0001% needs an interval of no width.
    let (report, counts) = pairs("20.0001", "12");
    assert_eq!(counts, [12, 12], "{report}");
    assert!((report["sight_target"].as_f64().unwrap() - 0.200001).abs() < 1e-12);
    let (report, counts) = pairs("100", "30");
    assert!(counts.iter().all(|n| (9..30).contains(n)), "{report}");
}

#[test]
fn bad_input_and_hostile_baselines_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    let missing = dir.path().join("no-such-build");
    let why = bad_input(
        &ab_args(&missing, &json)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(why.contains("no such program"), "{why}");
    // A sight no finer than the threshold (20% here) could never be reached.
    for (sight, expected) in [
        (
            "20",
            "--sight 20 must be a percentage above --threshold (20)",
        ),
        ("nan", "--sight NaN must be a percentage above"),
        (
            "2000",
            "--sight 2000 must be a percentage above --threshold (20) and at most 1000",
        ),
    ] {
        let mut args = ab_args(&this_build(), &json);
        args.extend(["--sight".to_string(), sight.to_string()]);
        let why = bad_input(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(why.contains(expected), "{why}");
    }
    let output = codecbench()
        .args(ab_args(&this_build(), &json))
        .env("CODECBENCH_CALIBRATE_SLOWDOWN", "zstd:3=0.5")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a slowdown factor is from 1 to 10"),
        "{stderr}"
    );
    // A baseline that answers noise, or nothing at all, fails the run with why.
    for (name, body, expected) in [
        (
            "noisy",
            "echo 'not json'; cat > /dev/null",
            "a line that is no answer",
        ),
        ("mute", "read -r job; exit 0", "ended without a result"),
    ] {
        let hostile = script(dir.path(), name, body);
        let output = codecbench()
            .args(ab_args(&hostile, &json))
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn a_stop_request_ends_ab_at_once_with_what_it_decided() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    // zstd 19 on the small payload: 9 pairs, the fewest before a cell may stop, take
    // seconds, so the stop comes mid-run.
    let child = std::process::Command::new(this_build())
        .args([
            "ab",
            "--baseline",
            this_build().to_str().unwrap(),
            "--payload",
            "small",
        ])
        .args([
            "--codecs",
            "zstd",
            "--zstd-levels",
            "19",
            "--quiet",
            "--export-json",
        ])
        .arg(&json)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    crate::common::ctrl_c(&child);
    let stopping = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(stopping.elapsed() < Duration::from_secs(10));
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stdout.starts_with("Interrupted: "), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
}
