//! End to end: saved probes of Debian's nginx gate a deployment through `compare` and
//! line up through `merge`, sizes exactly, times with their noise bands.

use crate::common;
use crate::servers;

use std::path::Path;

use codecbench::{generate, RngKind};
use common::codecbench;
use servers::{installed, BROTLI_FILTER, BROTLI_STATIC};

const PACKAGES: &str = "nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static";

/// A site's brotli and gzip for JSON at these levels.
fn site(brotli: i32, gzip: i32) -> String {
    format!(
        "    brotli on; brotli_comp_level {brotli}; brotli_types application/json;\n    \
         gzip on; gzip_comp_level {gzip}; gzip_types application/json; gzip_vary on;"
    )
}

/// Probes `url`, saving JSON and CSV in `dir` under `name`.
fn probe_into(url: &str, dir: &Path, name: &str) {
    let json = dir.join(format!("{name}.json"));
    let csv = dir.join(format!("{name}.csv"));
    let output = codecbench()
        .args(["probe", url, "--requests", "5", "--quiet", "--export-json"])
        .arg(&json)
        .arg("--export-csv")
        .arg(&csv)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

fn run(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let output = codecbench().args(args).current_dir(dir).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        stderr,
    )
}

#[test]
fn compare_gates_a_deployment_on_its_probes_and_merge_lines_them_up() {
    if !installed("nginx", &[BROTLI_FILTER, BROTLI_STATIC], PACKAGES) {
        return;
    }
    let small = generate(1000, 42, RngKind::Dotnet);
    let dir = tempfile::tempdir().unwrap();
    let before = servers::nginx(&[("small.json", &small)], &site(5, 6)).unwrap();
    probe_into(&before.url("/small.json"), dir.path(), "before");
    probe_into(&before.url("/small.json"), dir.path(), "again");
    drop(before);
    // The same content behind another port: the URL is the row's identity, so the
    // redeployed server answers on the port the baseline saw.
    let after = servers::nginx(&[("small.json", &small)], &site(6, 6)).unwrap();
    probe_into(&after.url("/small.json"), dir.path(), "after");
    let after_url = after.url("/small.json");
    drop(after);

    // The same server probed twice: every size the same, nothing fails; the JSON and
    // the CSV of one probe read back alike. Five requests over loopback time too loosely
    // to gate on: this checks sizes, with a threshold no time change reaches.
    let sizes_only = ["--threshold", "1000"];
    for (baseline, candidate) in [("before.json", "again.json"), ("before.json", "before.csv")] {
        let args = [&["compare", baseline, candidate][..], &sizes_only].concat();
        let (code, stdout, stderr) = run(&args, dir.path());
        assert_eq!(code, Some(0), "{baseline} → {candidate}\n{stdout}{stderr}");
        assert!(stdout.contains("5 probe rows compared"), "{stdout}");
        assert!(
            stdout.contains("times normalised to each probe's identity request"),
            "{stdout}"
        );
        assert!(stdout.contains("verdict: pass"), "{stdout}");
    }

    // A different URL is a different deployment: nothing in common is an error.
    let (code, _, stderr) = run(&["compare", "before.json", "after.json"], dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no result in common"), "{stderr}");

    // Rewrite the baseline's URL to the new port: brotli 5 → 6 is a size drift on the
    // br and browser rows, and the gate fails.
    let text = std::fs::read_to_string(dir.path().join("before.json")).unwrap();
    let old_url = text
        .split("\"url\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();
    let moved = text.replace(&old_url, &after_url);
    std::fs::write(dir.path().join("moved.json"), moved).unwrap();
    let args = [&["compare", "moved.json", "after.json"][..], &sizes_only].concat();
    let (code, stdout, stderr) = run(&args, dir.path());
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("verdict: FAIL (2 size drifts)"), "{stdout}");
    assert!(stdout.contains("DRIFT"), "{stdout}");
    println!("{stdout}");
    assert!(stdout.contains("(Accept-Encoding: br)"), "{stdout}");

    // merge puts the probes side by side, sizes and encodings per probe.
    let (code, stdout, stderr) = run(&["merge", "moved.json", "after.json"], dir.path());
    println!("{stdout}");
    println!("{stdout}");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("Probe: what the server sent"), "{stdout}");
    assert!(stdout.contains("(sizes differ)"), "{stdout}");
    let (code, csv, stderr) = run(
        &["merge", "before.json", "again.csv", "--format", "csv"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(csv.starts_with("url,accept_encoding,ratio,run,machine,encoding,body_bytes"));
    assert_eq!(csv.lines().count(), 1 + 5 * 2, "{csv}");
}
