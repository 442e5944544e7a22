//! Files as hostile as servers: a saved run or HAR capture past its ceiling is refused
//! by its size before it is read, and a device that never ends one byte past it.

use std::time::Duration;

use super::peer::run;
use super::PEAK_MB;

/// A sparse file of `bytes` bytes named `name`: as large as it claims, on no disk.
fn sparse(dir: &tempfile::TempDir, name: &str, bytes: u64) -> String {
    let path = dir.path().join(name);
    std::fs::File::create(&path)
        .unwrap()
        .set_len(bytes)
        .unwrap();
    path.display().to_string()
}

/// A sparse file of `bytes` bytes that opens like a JSON run: `{` and then nothing.
fn sparse_json(dir: &tempfile::TempDir, name: &str, bytes: u64) -> String {
    let path = sparse(dir, name, bytes);
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    std::io::Write::write_all(&mut file, b"{").unwrap();
    path
}

#[test]
fn a_json_run_is_streamed_to_its_own_ceiling_and_never_held() {
    let dir = tempfile::tempdir().unwrap();
    let past = sparse_json(&dir, "past.json", 1_100_000_000);
    refused(
        &["compare", &past, &past],
        &["saved run", "codecbench reads up to 1024 MiB"],
    );
    // Within the ceiling, past the one for runs read whole: streamed, so the peak stays
    // small whatever the file's size, and the first byte that is no JSON ends it.
    let within = sparse_json(&dir, "within.json", 520_000_000);
    refused(
        &["compare", &within, &within],
        &["not a valid codecbench JSON run"],
    );
}

#[test]
fn saved_runs_and_captures_past_their_ceiling_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let run_file = sparse(&dir, "huge.json", 520_000_000);
    let har = sparse(&dir, "big.har", 1_300_000_000);
    let cases: [(&[&str], &str); 4] = [
        (&["compare", &run_file, &run_file], "saved run"),
        (
            &["compare", "/dev/zero", "/dev/zero"],
            "larger than that, as read",
        ),
        (&["merge", &run_file], "saved run"),
        (&["run", "--payload", &har, "--quick"], "HAR capture"),
    ];
    for (args, says) in cases {
        refused(args, &[says, "codecbench reads up to 256 MiB"]);
    }
}

/// Runs `args`, which must end within 60 s with exit 2, one line that says each of
/// `says`, and a small peak; returns what ended.
fn refused(args: &[&str], says: &[&str]) -> super::peer::Ended {
    let ended = run(args, None, Duration::from_secs(60));
    assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
    for said in says {
        assert!(ended.stderr.contains(said), "{args:?}: {}", ended.stderr);
    }
    assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
    assert!(
        ended.peak_mb < PEAK_MB,
        "{args:?}: peak {} MB",
        ended.peak_mb
    );
    ended
}

#[test]
fn payloads_that_cost_nothing_on_disk_are_refused_by_their_total_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let payloads = dir.path().join("payloads");
    std::fs::create_dir(&payloads).unwrap();
    for i in 0..30 {
        let name = format!("body{i:02}.json");
        std::fs::File::create(payloads.join(name))
            .unwrap()
            .set_len(200 << 20)
            .unwrap();
    }
    let payloads = payloads.display().to_string();
    for args in [
        vec!["run", "--payload", &payloads, "--quick"],
        vec!["serve", "--payload", &payloads, "--port", "0"],
    ] {
        let ended = run(&args, None, Duration::from_secs(60));
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert!(
            ended.stderr.contains("past 1 GiB together"),
            "{}",
            ended.stderr
        );
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(
            ended.peak_mb < PEAK_MB,
            "{args:?}: peak {} MB",
            ended.peak_mb
        );
    }
}

#[test]
fn a_capture_of_a_hundred_thousand_tiny_bodies_is_refused_by_their_count() {
    let dir = tempfile::tempdir().unwrap();
    let entry = r#"{"request":{"method":"GET","url":"https://x.example/a"},"response":{"status":200,"content":{"mimeType":"application/json","text":"{\"a\":1}"}}}"#;
    let entries = vec![entry; 100_000].join(",");
    let har = dir.path().join("many.har");
    let text = format!(r#"{{"log":{{"version":"1.2","entries":[{entries}]}}}}"#);
    std::fs::write(&har, text).unwrap();
    let har = har.display().to_string();
    let ended = run(
        &["serve", "--payload", &har, "--port", "0"],
        None,
        Duration::from_secs(60),
    );
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert!(ended.stderr.contains("past 10,000"), "{}", ended.stderr);
    assert!(
        ended.elapsed < Duration::from_secs(10),
        "{:?}",
        ended.elapsed
    );
    assert!(ended.peak_mb < PEAK_MB, "peak {} MB", ended.peak_mb);
}

#[test]
fn a_file_swapped_for_a_link_out_of_its_directory_is_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, format!("[\"{}\"]", "s".repeat(4090))).unwrap();
    let payloads = dir.path().join("payloads");
    std::fs::create_dir(&payloads).unwrap();
    let body = payloads.join("a.json");
    std::fs::write(&body, "[1]").unwrap();
    // An attacker swaps the file for a link to the secret and back, every half
    // millisecond: often enough to land in any window, rarely enough that runs also
    // find the file as it was.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, secret, body) = (stop.clone(), secret.clone(), body.clone());
        let (link, file) = (dir.path().join("link"), dir.path().join("file"));
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let _ = std::os::unix::fs::symlink(&secret, &link);
                let _ = std::fs::rename(&link, &body);
                std::thread::sleep(Duration::from_micros(500));
                let _ = std::fs::write(&file, "[1]");
                let _ = std::fs::rename(&file, &body);
                std::thread::sleep(Duration::from_micros(500));
            }
        })
    };
    let payloads = payloads.display().to_string();
    let args = [
        "run",
        "--payload",
        &payloads,
        "--codecs",
        "gzip",
        "--gzip-levels",
        "1",
        "--iterations",
        "1",
        "--warmup",
        "0",
        "--format",
        "csv",
        "--quiet",
    ];
    let mut read = 0;
    for _ in 0..100 {
        let ended = run(&args, None, Duration::from_secs(30));
        if ended.code == Some(0) {
            read += 1;
            let csv = String::from_utf8_lossy(&ended.stdout);
            assert!(!csv.contains(",4094,"), "the secret was read: {csv}");
        } else {
            assert_eq!(ended.code, Some(2), "{}", ended.stderr);
        }
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    swapper.join().unwrap();
    assert!(read > 0, "no run read the file at all");
}
