use std::os::unix::fs::{lchown, symlink, PermissionsExt as _};
use std::path::Path;

use super::*;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// A sticky, world-writable directory, as /tmp.
fn shared() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    dir
}

/// Whether `path`, a link, could be given to nobody (root only).
fn planted(path: &Path) -> bool {
    lchown(path, Some(65534), Some(65534)).is_ok()
}

#[test]
fn a_new_file_is_shared_readable_and_an_old_one_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.json");
    Destination::open(&new).unwrap().replace(b"one").unwrap();
    assert_eq!(std::fs::read(&new).unwrap(), b"one");
    assert_eq!(mode(&new), 0o644);

    let old = dir.path().join("old.json");
    std::fs::write(&old, "before").unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
    Destination::open(&old).unwrap().replace(b"after").unwrap();
    assert_eq!(std::fs::read(&old).unwrap(), b"after");
    assert_eq!(mode(&old), 0o600);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary left"
    );
}

#[test]
fn links_the_caller_owns_are_followed_in_every_component() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir_all(real.join("deeper")).unwrap();
    symlink(&real, dir.path().join("to-real")).unwrap();
    symlink("deeper/file.json", real.join("relative")).unwrap();
    let through = dir.path().join("to-real").join("relative");
    Destination::open(&through).unwrap().replace(b"x").unwrap();
    assert_eq!(std::fs::read(real.join("deeper/file.json")).unwrap(), b"x");
    assert!(std::fs::symlink_metadata(real.join("relative"))
        .unwrap()
        .file_type()
        .is_symlink());
    // `..` after a link goes to the link target's parent, as the kernel does.
    let up = dir.path().join("to-real/deeper/../up.json");
    Destination::open(&up).unwrap().replace(b"y").unwrap();
    assert_eq!(std::fs::read(real.join("up.json")).unwrap(), b"y");
}

#[test]
fn a_link_another_user_planted_is_refused_as_any_component() {
    let shared = shared();
    let victim = tempfile::tempdir().unwrap();
    let secret = victim.path().join("secret.txt");
    std::fs::write(&secret, "the victim's").unwrap();
    let as_directory = shared.path().join("results");
    symlink(victim.path(), &as_directory).unwrap();
    let as_file = shared.path().join("out.json");
    symlink(&secret, &as_file).unwrap();
    if !planted(&as_directory) || !planted(&as_file) {
        eprintln!("skipped: planting another user's link needs root");
        return;
    }
    for path in [as_directory.join("secret.txt"), as_file.clone()] {
        let message = format!("{:#}", Destination::open(&path).err().unwrap());
        assert!(message.contains("another user (uid 65534)"), "{message}");
    }
    // Deeper too: a planted link reached through a link of the caller's own.
    let mine = tempfile::tempdir().unwrap();
    symlink(shared.path(), mine.path().join("shared")).unwrap();
    let deep = mine.path().join("shared/results/secret.txt");
    assert!(Destination::open(&deep).is_err());
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "the victim's");
}

#[test]
fn a_link_loop_and_a_path_naming_no_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    symlink("b", dir.path().join("a")).unwrap();
    symlink("a", dir.path().join("b")).unwrap();
    let message = format!(
        "{:#}",
        Destination::open(&dir.path().join("a")).err().unwrap()
    );
    assert!(message.contains("more than 40 links"), "{message}");
    assert!(Destination::open(Path::new("/")).is_err());
    assert!(Destination::open(&dir.path().join("..")).is_err());
}

#[test]
fn what_a_name_holds_is_told_without_following_it() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| Destination::open(&dir.path().join(name)).unwrap();
    assert_eq!(at("none").existing().unwrap(), Existing::Nothing);
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    assert_eq!(at("sub").existing().unwrap(), Existing::Directory);
    assert_eq!(
        Destination::open(Path::new("/dev/null"))
            .unwrap()
            .existing()
            .unwrap(),
        Existing::Special
    );
    at("probed").probe().unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
