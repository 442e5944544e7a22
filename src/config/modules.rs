//! Whether the lab may run the code of a `node_modules` directory: the Express app runs
//! what it holds, as the user codecbench runs as (root in CI). Another user who can
//! write any of it, or rename a directory above it, could put their code there.
//!
//! The directory and everything in it must belong to this user or root and be writable
//! by no one else; a link in it must point inside it. Each directory above it must
//! belong to this user or root, and may be writable by others only with the sticky bit
//! (as `/tmp` is), which keeps them from renaming what they do not own. A group counts
//! as no one else when it is this user's own: its group id, with no other member in
//! `/etc/group` or `/etc/passwd`.

use std::io::Read as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// The most entries looked at in a `node_modules` tree.
const MOST_ENTRIES: usize = 500_000;

/// Who may be trusted with a file: this user and root, and the groups only this user
/// is in.
struct Trusted {
    uid: u32,
    private_groups: Vec<u32>,
}

impl Trusted {
    fn current() -> Self {
        let uid = rustix::process::geteuid().as_raw();
        let gid = rustix::process::getegid().as_raw();
        let private = gid_is_private(gid, uid);
        Trusted {
            uid,
            private_groups: if private { vec![gid] } else { Vec::new() },
        }
    }

    /// Why no one but this user or root can change what `meta` describes, or `Err` with
    /// what another could do. `sticky_ok`: a directory above the tree, where the sticky
    /// bit keeps others from renaming.
    fn check(&self, meta: &std::fs::Metadata, sticky_ok: bool) -> Result<(), String> {
        let owner = meta.uid();
        if owner != self.uid && owner != 0 {
            return Err(format!("belongs to user id {owner}"));
        }
        if meta.file_type().is_symlink() {
            return Ok(());
        }
        let mode = meta.mode();
        let sticky = sticky_ok && meta.is_dir() && mode & 0o1000 != 0;
        let group_writes = mode & 0o020 != 0 && !self.private_groups.contains(&meta.gid());
        if (mode & 0o002 != 0 || group_writes) && !sticky {
            return Err(format!(
                "is writable by other users (mode {:o})",
                mode & 0o7777
            ));
        }
        Ok(())
    }
}

/// Whether group `gid` has no member but user `uid`: no other user takes it as their
/// primary group, and `/etc/group` lists no member but that user.
fn gid_is_private(gid: u32, uid: u32) -> bool {
    let read = |path: &str| {
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(16 << 20).read_to_string(&mut text))
            .map(|_| text)
    };
    let (Ok(passwd), Ok(group)) = (read("/etc/passwd"), read("/etc/group")) else {
        return false;
    };
    let mut me = None;
    for line in passwd.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        let (Some(user), Some(their_uid), Some(their_gid)) =
            (fields.first(), fields.get(2), fields.get(3))
        else {
            continue;
        };
        if their_uid.parse() == Ok(uid) {
            me = Some(*user);
        } else if their_gid.parse() == Ok(gid) {
            return false;
        }
    }
    let group_line = group
        .lines()
        .find(|l| l.split(':').nth(2).and_then(|g| g.parse().ok()) == Some(gid));
    let members = group_line.and_then(|l| l.split(':').nth(3)).unwrap_or("");
    members
        .split(',')
        .filter(|m| !m.is_empty())
        .all(|m| Some(m) == me)
}

/// `dir`, checked as the module says, as its canonical path. `option` names what the
/// user gave, for the message.
pub(crate) fn trusted(dir: &Path, option: &str) -> Result<PathBuf> {
    let shown = |path: &Path| crate::format::one_line(&path.to_string_lossy());
    let refuse = |path: &Path, why: String| -> Result<PathBuf> {
        bail!(
            "{option}: {} {why}: the lab would run the code in it as this user; fix its permissions or copy it somewhere only you can write",
            shown(path)
        )
    };
    let root =
        std::fs::canonicalize(dir).map_err(|e| anyhow::anyhow!("{option}: {}: {e}", shown(dir)))?;
    let trusted = Trusted::current();
    for above in root.ancestors().skip(1) {
        let meta = std::fs::symlink_metadata(above)?;
        if let Err(why) = trusted.check(&meta, true) {
            return refuse(above, why);
        }
    }
    let mut pending = vec![root.clone()];
    let mut seen = 0usize;
    while let Some(path) = pending.pop() {
        seen += 1;
        if seen > MOST_ENTRIES {
            bail!(
                "{option}: {} holds over {MOST_ENTRIES} files: too many to check",
                shown(&root)
            );
        }
        let meta = std::fs::symlink_metadata(&path)?;
        if let Err(why) = trusted.check(&meta, false) {
            return refuse(&path, why);
        }
        if meta.file_type().is_symlink() {
            if !link_stays_inside(&path, &root) {
                return refuse(&path, format!("links out of {}", shown(&root)));
            }
        } else if meta.is_dir() {
            for entry in std::fs::read_dir(&path)? {
                pending.push(entry?.path());
            }
        }
    }
    Ok(root)
}

/// Whether the link at `link` leads inside `root`: where it resolves, or where its text
/// points when nothing is there yet (only this user or root could make it).
fn link_stays_inside(link: &Path, root: &Path) -> bool {
    if let Ok(target) = std::fs::canonicalize(link) {
        return target.starts_with(root);
    }
    let Ok(text) = std::fs::read_link(link) else {
        return false;
    };
    let mut target = link.parent().unwrap_or(root).to_path_buf();
    for part in text.components() {
        match part {
            std::path::Component::RootDir => target = PathBuf::from("/"),
            std::path::Component::ParentDir => {
                target.pop();
            }
            std::path::Component::Normal(name) => target.push(name),
            std::path::Component::CurDir | std::path::Component::Prefix(_) => {}
        }
    }
    target.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_tree_only_this_user_can_write_is_trusted_and_any_opening_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        mode(tmp.path(), 0o755);
        let modules = tmp.path().join("node_modules");
        std::fs::create_dir_all(modules.join("express/lib")).unwrap();
        std::fs::write(modules.join("express/index.js"), "").unwrap();
        std::os::unix::fs::symlink("../index.js", modules.join("express/lib/link")).unwrap();
        std::os::unix::fs::symlink("../not-yet", modules.join("express/lib/later")).unwrap();
        for path in [
            &modules,
            &modules.join("express"),
            &modules.join("express/lib"),
        ] {
            mode(path, 0o755);
        }
        mode(&modules.join("express/index.js"), 0o644);
        assert_eq!(
            trusted(&modules, "--node-modules").unwrap(),
            modules.canonicalize().unwrap()
        );

        mode(&modules.join("express/index.js"), 0o646);
        let refused = trusted(&modules, "--node-modules").unwrap_err().to_string();
        assert!(
            refused.contains("index.js is writable by other users (mode 646)"),
            "{refused}"
        );
        mode(&modules.join("express/index.js"), 0o644);

        // A directory above may be open to all with the sticky bit, as /tmp is.
        mode(tmp.path(), 0o1777);
        assert!(trusted(&modules, "--node-modules").is_ok());
        mode(tmp.path(), 0o777);
        let refused = trusted(&modules, "--node-modules").unwrap_err().to_string();
        assert!(refused.contains("mode 777"), "{refused}");
        mode(tmp.path(), 0o755);

        for (text, name) in [("/etc", "etc"), ("../../nowhere", "away")] {
            std::os::unix::fs::symlink(text, modules.join(name)).unwrap();
            let refused = trusted(&modules, "--node-modules").unwrap_err().to_string();
            assert!(refused.contains("links out of"), "{refused}");
            std::fs::remove_file(modules.join(name)).unwrap();
        }
    }

    #[test]
    fn another_users_file_is_refused() {
        if !rustix::process::geteuid().is_root() {
            eprintln!("skipped: a file of another user needs root to make");
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        mode(tmp.path(), 0o755);
        let planted = tmp.path().join("vary.js");
        std::fs::write(&planted, "").unwrap();
        rustix::fs::chown(&planted, Some(rustix::fs::Uid::from_raw(65534)), None).unwrap();
        let refused = trusted(tmp.path(), "--node-modules")
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("vary.js belongs to user id 65534"),
            "{refused}"
        );
    }
}
