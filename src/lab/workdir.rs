//! The lab's private directory, and what a killed lab left behind.
//!
//! Each lab works in `$TMPDIR/codecbench-lab-XXXXXX`, made 0700 (0710 with httpd's
//! group where Apache must read the bodies as `www-data`). It holds a lock, taken for
//! the lab's life, and `pids`, where each process it starts writes its own pid before
//! it runs (see [`super::launch`]). A lab killed whole (SIGKILL, a CI job's timeout)
//! cannot clean up: the next lab to start takes the lock of every such directory of
//! its user, ends the process groups named in `pids` that still run from it, and
//! removes the directory.

use std::fs::File;
use std::io::Read as _;
use std::os::fd::AsFd as _;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;
use std::time::Duration;

/// What a lab directory's name starts with.
const PREFIX: &str = "codecbench-lab-";

/// The most entries of `$TMPDIR` looked at for leftovers.
const MOST_ENTRIES: usize = 100_000;

/// The most bytes of a leftover's `pids` read.
const MOST_PIDS_BYTES: u64 = 64 * 1024;

/// A directory whose name does not say who made it is a lab being made until it is
/// this old.
const BEING_MADE: Duration = Duration::from_secs(60);

/// The lab's directory, locked while it lives, removed when dropped.
pub(crate) struct Workdir {
    dir: tempfile::TempDir,
    /// Held for the lab's life: a lab that finds it taken leaves the directory be.
    _lock: File,
    /// Where each process started writes its pid, appended.
    pids: File,
    /// The group that reads `www/`, if any.
    group: Option<u32>,
}

impl Workdir {
    /// A new directory in `$TMPDIR`, 0700 and locked. `group`: a group that must reach
    /// the files in `www/` (httpd's, as it serves as `www-data`), which then gets search
    /// permission on the directory and read permission on `www/`.
    pub(crate) fn create(group: Option<u32>) -> std::io::Result<Self> {
        Self::create_in(&std::env::temp_dir(), group)
    }

    /// As [`Workdir::create`], in `parent`.
    fn create_in(parent: &Path, group: Option<u32>) -> std::io::Result<Self> {
        // The name says which process made it, so that a lab killed before it took the
        // lock is told from one being made.
        let me = std::process::id();
        let born = started(me).unwrap_or(0);
        let prefix = format!("{PREFIX}{me}-{born}-");
        let dir = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(parent)?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))?;
        let lock = private(&dir.path().join("lab.lock"))?;
        rustix::fs::flock(
            lock.as_fd(),
            rustix::fs::FlockOperation::NonBlockingLockExclusive,
        )?;
        let pids = std::fs::OpenOptions::new()
            .append(true)
            .create_new(true)
            .mode(0o600)
            .open(dir.path().join("pids"))?;
        std::fs::create_dir(dir.path().join("www"))?;
        std::fs::create_dir(dir.path().join("tmp"))?;
        if let Some(gid) = group {
            let gid = Some(rustix::fs::Gid::from_raw(gid));
            let www = dir.path().join("www");
            for (path, mode) in [(dir.path(), 0o710), (www.as_path(), 0o750)] {
                rustix::fs::chown(path, None, gid)?;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
            }
        }
        Ok(Workdir {
            dir,
            _lock: lock,
            pids,
            group,
        })
    }

    /// Its path.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The file each process started appends its pid to.
    pub(crate) fn pids(&self) -> &File {
        &self.pids
    }

    /// Writes `text` as the file `name`, 0600: the lab's own.
    pub(crate) fn write(&self, name: &str, text: &[u8]) -> std::io::Result<()> {
        use std::io::Write as _;
        private(&self.path().join(name))?.write_all(text)
    }

    /// Writes `bytes` as the body `name` in `www/`, 0600, or 0640 with the group that
    /// reads it.
    pub(crate) fn serve(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write as _;
        let mut file = private(&self.path().join("www").join(name))?;
        file.write_all(bytes)?;
        if let Some(gid) = self.group {
            rustix::fs::fchown(file.as_fd(), None, Some(rustix::fs::Gid::from_raw(gid)))?;
            file.set_permissions(std::fs::Permissions::from_mode(0o640))?;
        }
        Ok(())
    }
}

/// A new file at `path`, 0600, not through a link.
fn private(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Ends what labs of this user killed before they could clean up left in `tmp`: the
/// process groups their `pids` name that still run from their directory, and the
/// directories. A lab that still holds its lock is left alone, and so is anything
/// another user owns. Says what it ended, a line each.
pub(crate) fn end_leftovers(tmp: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return Vec::new();
    };
    let me = rustix::process::geteuid().as_raw();
    let mut ended = Vec::new();
    for entry in entries.take(MOST_ENTRIES).flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        if let Some(what) = end_leftover(&path, &meta) {
            ended.push(what);
        }
    }
    ended
}

/// Ends one leftover lab at `dir`, if it is one: what it ended, or `None`.
fn end_leftover(dir: &Path, meta: &std::fs::Metadata) -> Option<String> {
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(dir.join("lab.lock"));
    // Held until the directory is gone, so that two labs starting do not both end it.
    let _held: Option<File> = match lock {
        Ok(lock) => {
            let operation = rustix::fs::FlockOperation::NonBlockingLockExclusive;
            rustix::fs::flock(lock.as_fd(), operation).ok()?;
            Some(lock)
        }
        Err(_) => None,
    };
    // The lab that made it may be making it still: its lock not yet taken.
    if maker_lives(dir, meta) {
        return None;
    }
    let mut killed = Vec::new();
    for pid in recorded_pids(&dir.join("pids")) {
        if runs_from(pid, dir) {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                killed.push(pid.as_raw_nonzero().to_string());
            }
        }
    }
    std::fs::remove_dir_all(dir).ok()?;
    let shown = crate::format::one_line(&dir.to_string_lossy());
    Some(match killed.is_empty() {
        true => format!("removed {shown}, left by a lab that was killed"),
        false => format!(
            "ended process {} and removed {shown}, left by a lab that was killed",
            killed.join(", ")
        ),
    })
}

/// When process `pid` started, in clock ticks since boot (proc(5), `stat` field 22):
/// with its pid, what tells it from a process that has its pid later.
fn started(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 3 on follow the command's closing parenthesis.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()
}

/// Whether the lab that made `dir` still runs: the pid and start time its name holds
/// name a live process. A name without them (an older codecbench's) counts as one
/// being made for a minute.
fn maker_lives(dir: &Path, meta: &std::fs::Metadata) -> bool {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let mut parts = name.strip_prefix(PREFIX).unwrap_or_default().split('-');
    let pid = parts.next().and_then(|p| p.parse::<u32>().ok());
    let born = parts.next().and_then(|b| b.parse::<u64>().ok());
    match (pid, born) {
        (Some(pid), Some(born)) => started(pid) == Some(born),
        _ => {
            let age = meta.modified().ok().and_then(|m| m.elapsed().ok());
            age.unwrap_or_default() < BEING_MADE
        }
    }
}

/// The pids a lab's processes wrote, one a line; what is not a pid is left out.
fn recorded_pids(path: &Path) -> Vec<i32> {
    let mut text = String::new();
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path);
    if let Ok(file) = opened {
        let _ = file.take(MOST_PIDS_BYTES).read_to_string(&mut text);
    }
    text.lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// Whether process `pid` runs from `dir`: its command line names it, as every server
/// and guard the lab starts does. A pid used again since names something else.
fn runs_from(pid: i32, dir: &Path) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let needle = dir.as_os_str().as_encoded_bytes();
    cmdline.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt as _;

    /// Whether process `pid` is gone (or a zombie).
    fn gone(pid: u32) -> bool {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status.is_empty() || status.contains("State:\tZ")
    }

    /// A lab directory in `tmp` as a killed lab leaves it: a lock nobody holds, and a
    /// process group that runs from it, its pid in `pids`.
    fn killed_lab(tmp: &Path) -> (std::path::PathBuf, std::process::Child) {
        // Made by a process that has ended: pid 1 started long before this tick.
        let dir = tmp.join(format!("{PREFIX}1-{}-killed", u64::MAX));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("lab.lock"), "").unwrap();
        // `; true` keeps the shell, whose command line names the directory.
        let server = std::process::Command::new("sh")
            .args(["-c", "sleep 300; true", "server"])
            .arg(&dir)
            .process_group(0)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::fs::write(dir.join("pids"), format!("{}\n1\nnot a pid\n", server.id())).unwrap();
        // spawn returns once the old image is gone, before the kernel has set the new
        // one's arguments: a lab killed long ago has no such moment.
        let started = std::time::Instant::now();
        while !runs_from(server.id() as i32, &dir) {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "sh never started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        (dir, server)
    }

    #[test]
    fn a_killed_labs_servers_and_directory_are_ended_and_a_live_lab_is_left() {
        let tmp = tempfile::tempdir().unwrap();
        let live = Workdir::create_in(tmp.path(), None).unwrap();
        let mode = std::fs::metadata(live.path()).unwrap().mode();
        assert_eq!(mode & 0o777, 0o700);
        let (dir, mut server) = killed_lab(tmp.path());
        let ended = end_leftovers(tmp.path());
        assert_eq!(ended.len(), 1, "{ended:?}");
        assert!(ended[0].contains(&server.id().to_string()), "{ended:?}");
        let _ = server.wait();
        assert!(gone(server.id()));
        assert!(!dir.exists(), "the killed lab's directory is removed");
        assert!(live.path().exists(), "a lab that holds its lock is left");
        // pid 1 was named in `pids` but runs from elsewhere: never signalled.
        assert!(!gone(1));
    }

    #[test]
    fn a_directory_being_made_or_another_users_is_left() {
        let tmp = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let new = tmp
            .path()
            .join(format!("{PREFIX}{me}-{}-new", started(me).unwrap()));
        let old_style = tmp.path().join(format!("{PREFIX}AbC123"));
        for dir in [&new, &old_style] {
            std::fs::create_dir(dir).unwrap();
        }
        assert!(end_leftovers(tmp.path()).is_empty());
        assert!(new.exists(), "no lock yet, and its maker runs");
        assert!(old_style.exists(), "no lock yet, and younger than a minute");
        if !rustix::process::geteuid().is_root() {
            return;
        }
        let (theirs, mut server) = killed_lab(tmp.path());
        let nobody = Some(rustix::fs::Uid::from_raw(65534));
        rustix::fs::chown(&theirs, nobody, None).unwrap();
        assert!(end_leftovers(tmp.path()).is_empty());
        assert!(theirs.exists() && !gone(server.id()));
        let group = rustix::process::Pid::from_child(&server);
        rustix::process::kill_process_group(group, rustix::process::Signal::KILL).unwrap();
        let _ = server.wait();
    }
}
