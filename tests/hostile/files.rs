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
        let ended = run(args, None, Duration::from_secs(60));
        assert_eq!(ended.code, Some(2), "{args:?}: {}", ended.stderr);
        assert!(ended.stderr.contains(says), "{args:?}: {}", ended.stderr);
        assert!(
            ended.stderr.contains("codecbench reads up to 256 MiB"),
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
