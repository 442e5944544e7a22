//! Outputs against another user's links in a shared, sticky directory (as `/tmp`): a
//! link planted as a directory of the path, and an output name swapped between a file
//! and a link as fast as a thread can (`renameat2` with `RENAME_EXCHANGE`). Planting
//! another user's link needs root; elsewhere these tests skip, saying so.

use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{lchown, symlink, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::{bad_input, codecbench};

const VICTIM: &str = "the victim's own file";

/// A sticky, world-writable directory, and a victim's file in a directory of its own.
fn shared_and_victim() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let victim_dir = tempfile::tempdir().unwrap();
    let victim = victim_dir.path().join("secret.txt");
    std::fs::write(&victim, VICTIM).unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o600)).unwrap();
    (shared, victim_dir, victim)
}

/// Gives `path` (not followed) to nobody, as another user's entry; false without root.
fn as_nobody(path: &Path) -> bool {
    lchown(path, Some(65534), Some(65534)).is_ok()
}

/// The three output flags, writing to `output`.
fn writers(output: &str) -> Vec<Vec<&str>> {
    let run = ["run", "--quick", "--quiet", "--payload", "single"];
    let one = ["--codecs", "zstd", "--zstd-levels", "1"];
    vec![
        vec!["report", "tests/fixtures/base.json", "--out", output],
        [&run[..], &one[..], &["--export-json", output]].concat(),
        [&run[..], &one[..], &["--export-csv", output]].concat(),
    ]
}

#[test]
fn a_link_another_user_planted_as_a_directory_of_the_path_is_refused() {
    let (shared, victim_dir, victim) = shared_and_victim();
    let results = shared.path().join("results");
    symlink(victim_dir.path(), &results).unwrap();
    if !as_nobody(&results) {
        eprintln!("skipped: planting another user's link needs root");
        return;
    }
    let output = results.join("secret.txt");
    for args in writers(output.to_str().unwrap()) {
        let message = bad_input(&args);
        assert!(
            message.contains("\"results\" is a link another user (uid 65534) left"),
            "{args:?}: {message}"
        );
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), VICTIM);
}

/// Swaps `a` and `b` until `stop`, as an attacker's loop would.
fn swap_until(a: PathBuf, b: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
        let (a, b) = (c(&a), c(&b));
        while !stop.load(Ordering::Relaxed) {
            // SAFETY: two NUL-terminated paths; the result is ignored, as an attacker would.
            unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    a.as_ptr(),
                    libc::AT_FDCWD,
                    b.as_ptr(),
                    libc::RENAME_EXCHANGE,
                )
            };
        }
    })
}

#[test]
fn an_output_name_swapped_with_a_link_never_reaches_the_victim() {
    let (shared, _victim_dir, victim) = shared_and_victim();
    let (name, spare) = (shared.path().join("out.html"), shared.path().join("spare"));
    // Each entry is given to nobody before it takes its name: chowned by name, one
    // swapped in between would stay root's, a link of the caller's own.
    let plant = || {
        let _ = std::fs::remove_file(&name);
        let _ = std::fs::remove_file(&spare);
        let (file, link) = (
            shared.path().join("file.new"),
            shared.path().join("link.new"),
        );
        std::fs::write(&file, "the attacker's file").unwrap();
        symlink(&victim, &link).unwrap();
        let owned = as_nobody(&file) && as_nobody(&link);
        std::fs::rename(&link, &spare).unwrap();
        std::fs::rename(&file, &name).unwrap();
        owned
    };
    if !plant() {
        eprintln!("skipped: planting another user's link needs root");
        return;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let attacker = swap_until(name.clone(), spare.clone(), stop.clone());
    let (mut overwritten, mut refused) = (0, 0);
    // On the writer that followed the link after checking it, 20 of 100 tries overwrote.
    for _ in 0..200 {
        let output = codecbench()
            .args(["report", "tests/fixtures/base.json", "--out"])
            .arg(&name)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        refused += usize::from(stderr.contains("a link another user (uid 65534) left"));
        if std::fs::read_to_string(&victim).unwrap() != VICTIM {
            overwritten += 1;
            std::fs::write(&victim, VICTIM).unwrap();
        }
        plant();
    }
    stop.store(true, Ordering::Relaxed);
    attacker.join().unwrap();
    assert_eq!(overwritten, 0, "{refused} refused");
    assert!(refused > 0, "the attack never showed the link");
}
