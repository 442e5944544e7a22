//! Where an output file goes, held as an open directory: the path is walked once, one
//! component at a time, and the file is then created and renamed relative to that
//! directory (`openat`, `renameat`), never by resolving the path again. So a link
//! another user swaps in after the check cannot redirect the write, and a link planted
//! as any component of the path is refused.
//!
//! A link is followed unless Linux's `fs.protected_symlinks` rule would refuse it: a
//! link in a sticky, world-writable directory (as `/tmp`) owned by neither the caller nor
//! the directory's owner (see the kernel's `Documentation/admin-guide/sysctl/fs.rst`).
//! Links the caller owns, and links in directories only trusted users can write (a home
//! directory link), keep working.
//!
//! The syscalls come from rustix, already built for tempfile: safe, typed wrappers of
//! `openat` and friends. cap-std was not taken: it refuses every escape from the
//! directory it opens (`..`, absolute links), which would break ordinary paths.

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};

use anyhow::{bail, Context as _, Result};
use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat, CWD};
use rustix::io::Errno;

/// Links followed in one path before it is refused, as the kernel's `MAXSYMLINKS`.
const MOST_LINKS: usize = 40;

/// The opened directory of an output, and the name the file has in it.
pub(crate) struct Destination {
    dir: OwnedFd,
    name: OsString,
}

/// What the name holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Existing {
    /// Nothing yet.
    Nothing,
    /// A regular file, replaced whole.
    File,
    /// A directory: refused.
    Directory,
    /// A FIFO, device or socket: written in place, never replaced.
    Special,
}

impl Destination {
    /// The directory of `path` opened and its name, every link on the way checked.
    pub(crate) fn open(path: &Path) -> Result<Destination> {
        let mut links = 0;
        let (mut dir, mut name) = walk_parent(path, &mut links)?;
        loop {
            match stat_here(&dir, &name)? {
                Some(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                    refuse_planted(&dir, &stat, &name)?;
                    let target = follow(&dir, &name, &mut links)?;
                    let (next_dir, next_name) = walk_from(dir, &target, &mut links)?;
                    (dir, name) = (next_dir, next_name);
                }
                _ => return Ok(Destination { dir, name }),
            }
        }
    }

    /// What the name holds now, links not followed.
    pub(crate) fn existing(&self) -> Result<Existing> {
        Ok(match stat_here(&self.dir, &self.name)? {
            None => Existing::Nothing,
            Some(stat) => match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile | FileType::Symlink => Existing::File,
                FileType::Directory => Existing::Directory,
                _ => Existing::Special,
            },
        })
    }

    /// Proves a file can be made in the directory by making one and removing it.
    pub(crate) fn probe(&self) -> Result<()> {
        let (file, temporary) = self.temporary()?;
        drop(file);
        temporary.remove();
        Ok(())
    }

    /// Replaces the name with `bytes`: a temporary file beside it, written, synced and
    /// renamed over it, keeping the old file's mode (or `rw-r--r--`). On any failure the
    /// temporary file is removed and nothing else is touched.
    pub(crate) fn replace(&self, bytes: &[u8]) -> Result<()> {
        let mode = match stat_here(&self.dir, &self.name)? {
            Some(stat) => Mode::from_raw_mode(stat.st_mode) & Mode::from_raw_mode(0o7777),
            None => Mode::from_raw_mode(0o644),
        };
        let (file, temporary) = self.temporary()?;
        let mut file = std::fs::File::from(file);
        let written = (|| -> Result<()> {
            file.write_all(bytes)?;
            file.sync_all()?;
            rustix::fs::fchmod(&file, mode)?;
            rustix::fs::renameat(&self.dir, temporary.name(), &self.dir, &self.name)?;
            Ok(())
        })();
        match written {
            Ok(()) => temporary.forget(),
            Err(_) => temporary.remove(),
        }
        written
    }

    /// Opens the FIFO or device the name holds for writing, never following a link.
    pub(crate) fn open_special(&self) -> Result<std::fs::File> {
        let flags = OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.dir, self.name.as_os_str(), flags, Mode::empty())?;
        let kind = FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode);
        if matches!(kind, FileType::RegularFile | FileType::Directory) {
            bail!("changed into a {kind:?} while it was opened");
        }
        Ok(std::fs::File::from(fd))
    }

    /// A new temporary file in the directory, owner-only, and its name kept for removal;
    /// none once the process is ending at once ([`end_pending`]).
    fn temporary(&self) -> Result<(OwnedFd, Temporary<'_>)> {
        // Counted while made and registered, so that an end at once waits for it.
        MAKING.fetch_add(1, Ordering::SeqCst);
        let made = match ENDING.load(Ordering::SeqCst) {
            true => Err(anyhow::anyhow!("stopped")),
            false => self.new_temporary(),
        };
        MAKING.fetch_sub(1, Ordering::SeqCst);
        made
    }

    fn new_temporary(&self) -> Result<(OwnedFd, Temporary<'_>)> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        for _ in 0..100 {
            let number = NEXT_TEMPORARY.fetch_add(1, Ordering::SeqCst);
            let name = temporary_name(std::process::id(), number);
            match rustix::fs::openat(&self.dir, name.as_slice(), flags, Mode::from(0o600)) {
                Ok(fd) => return Ok((fd, Temporary::register(&self.dir, number, name))),
                Err(Errno::EXIST) => continue,
                Err(why) => return Err(why.into()),
            }
        }
        bail!("no free name for a temporary file")
    }
}

/// The parent directory of `path` opened, and `path`'s file name.
fn walk_parent(path: &Path, links: &mut usize) -> Result<(OwnedFd, OsString)> {
    let start = rustix::fs::openat(CWD, ".", directory_flags(), Mode::empty())?;
    walk_from(start, path, links)
}

/// `path` walked from `dir` (from the root when it is absolute): its parent opened, and
/// its file name. A path that names no file (`..`, `/`) is refused.
fn walk_from(dir: OwnedFd, path: &Path, links: &mut usize) -> Result<(OwnedFd, OsString)> {
    let name = match path.components().next_back() {
        Some(Component::Normal(name)) => name.to_os_string(),
        _ => bail!("names no file"),
    };
    let parent = path.parent().unwrap_or(Path::new(""));
    Ok((walk(dir, parent, links)?, name))
}

/// The directory `path` names from `dir`, opened one component at a time.
fn walk(mut dir: OwnedFd, path: &Path, links: &mut usize) -> Result<OwnedFd> {
    let mut left: Vec<OsString> = Vec::new();
    push_components(&mut left, path, &mut dir)?;
    while let Some(component) = left.pop() {
        match stat_here(&dir, &component)? {
            Some(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                refuse_planted(&dir, &stat, &component)?;
                let target = follow(&dir, &component, links)?;
                push_components(&mut left, &target, &mut dir)?;
            }
            // Opened without following: a link swapped in since the stat fails here.
            _ => dir = open_directory(&dir, &component)?,
        }
    }
    Ok(dir)
}

/// The directory `name` in `dir`, opened without following a link.
fn open_directory(dir: &OwnedFd, name: &OsStr) -> Result<OwnedFd> {
    match rustix::fs::openat(dir, name, directory_flags(), Mode::empty()) {
        Ok(opened) => Ok(opened),
        Err(Errno::NOENT) => bail!("no such directory"),
        Err(Errno::NOTDIR) => bail!("{} is not a directory", shown(name)),
        Err(why) => Err(why).with_context(|| format!("cannot open the directory {}", shown(name))),
    }
}

/// Puts `path`'s components on `left` to be walked next (last first); an absolute path
/// starts again from the root.
fn push_components(left: &mut Vec<OsString>, path: &Path, dir: &mut OwnedFd) -> Result<()> {
    let mut components = Vec::new();
    for component in path.components() {
        match component {
            Component::RootDir | Component::Prefix(_) => {
                *dir = rustix::fs::openat(CWD, "/", directory_flags(), Mode::empty())?;
                components.clear();
            }
            Component::CurDir => {}
            Component::ParentDir => components.push(OsString::from("..")),
            Component::Normal(name) => components.push(name.to_os_string()),
        }
    }
    left.extend(components.into_iter().rev());
    Ok(())
}

/// Opening a directory only to walk through it: no read permission needed, no link followed.
fn directory_flags() -> OFlags {
    OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

/// `name` in `dir`, not following a link; `None` when there is nothing.
fn stat_here(dir: &OwnedFd, name: &OsStr) -> Result<Option<Stat>> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some(stat)),
        Err(Errno::NOENT) => Ok(None),
        Err(why) => Err(why).with_context(|| format!("cannot look at {}", shown(name))),
    }
}

/// The target of the link `name` in `dir`, counted against [`MOST_LINKS`].
fn follow(dir: &OwnedFd, name: &OsStr, links: &mut usize) -> Result<PathBuf> {
    *links += 1;
    if *links > MOST_LINKS {
        bail!("more than {MOST_LINKS} links on the way");
    }
    let target = rustix::fs::readlinkat(dir, name, Vec::new())?;
    Ok(PathBuf::from(OsStr::from_bytes(target.as_bytes())))
}

/// Refuses the link `link` (named `name`) in `dir` when `fs.protected_symlinks` would.
fn refuse_planted(dir: &OwnedFd, link: &Stat, name: &OsStr) -> Result<()> {
    let shared = rustix::fs::fstat(dir)?;
    // The sticky bit and write for others, as /tmp has them.
    let sticky_shared = shared.st_mode & 0o1002 == 0o1002;
    let caller = rustix::process::geteuid().as_raw();
    if sticky_shared && link.st_uid != caller && link.st_uid != shared.st_uid {
        bail!(
            "{} is a link another user (uid {}) left in a shared directory: codecbench does not write through it",
            shown(name),
            link.st_uid
        );
    }
    Ok(())
}

/// A name as the user may see it: quoted, control characters escaped.
fn shown(name: &OsStr) -> String {
    format!("{:?}", name.to_string_lossy())
}

/// The number the next temporary file's name carries.
static NEXT_TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// Temporary files not yet renamed or removed: their directory's descriptor and number,
/// removed by [`remove_pending`] when a stop ends the process at once.
static PENDING: [(AtomicI32, AtomicU64); 8] =
    [const { (AtomicI32::new(-1), AtomicU64::new(0)) }; 8];

/// `.codecbench-PID-NUMBER.tmp`, NUL-terminated, built without allocating.
fn temporary_name(pid: u32, number: u64) -> TemporaryName {
    let mut name = TemporaryName {
        bytes: [0; 64],
        len: 0,
    };
    name.push(b".codecbench-");
    name.push_number(u64::from(pid));
    name.push(b"-");
    name.push_number(number);
    name.push(b".tmp\0");
    name
}

/// A temporary file's name in a fixed buffer, so that a signal handler can build it.
struct TemporaryName {
    bytes: [u8; 64],
    len: usize,
}

impl TemporaryName {
    fn push(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn push_number(&mut self, mut number: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (number % 10) as u8;
            number /= 10;
            if number == 0 {
                break;
            }
        }
        self.push(&digits[at..]);
    }

    /// The name with its NUL, as a C string.
    fn as_slice(&self) -> &std::ffi::CStr {
        std::ffi::CStr::from_bytes_with_nul(&self.bytes[..self.len]).expect("one NUL, at the end")
    }
}

/// A temporary file's name, registered in [`PENDING`] until it is renamed or removed.
struct Temporary<'a> {
    dir: &'a OwnedFd,
    name: TemporaryName,
    slot: Option<usize>,
}

impl<'a> Temporary<'a> {
    fn register(dir: &'a OwnedFd, number: u64, name: TemporaryName) -> Temporary<'a> {
        let fd = dir.as_raw_fd();
        // Claimed first, so that the number is there before the descriptor says the
        // slot holds a file.
        let slot = PENDING.iter().position(|(dir, kept)| {
            let free = dir
                .compare_exchange(-1, CLAIMED, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
            if free {
                kept.store(number, Ordering::SeqCst);
                dir.store(fd, Ordering::SeqCst);
            }
            free
        });
        Temporary { dir, name, slot }
    }

    fn name(&self) -> &std::ffi::CStr {
        self.name.as_slice()
    }

    /// Renamed: nothing to remove.
    fn forget(self) {
        if let Some(slot) = self.slot {
            PENDING[slot].0.store(-1, Ordering::SeqCst);
        }
    }

    /// Removed, and its slot freed.
    fn remove(self) {
        let _ = rustix::fs::unlinkat(self.dir, self.name(), AtFlags::empty());
        self.forget();
    }
}

/// A slot of [`PENDING`] taken, its file not yet named.
const CLAIMED: i32 = -2;

/// Set when the process ends at once: no temporary file is made after it.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Temporary files being made and registered now.
static MAKING: AtomicUsize = AtomicUsize::new(0);

/// The longest an end at once waits for a temporary file being made.
const MAKING_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// For the stop that ends the process at once: no temporary file is made from now on,
/// one being made is waited for (up to [`MAKING_WAIT`]), and every one not yet renamed
/// is removed. It waits, so it runs on a thread of its own, not in a signal handler.
pub(crate) fn end_pending() {
    ENDING.store(true, Ordering::SeqCst);
    let start = std::time::Instant::now();
    while MAKING.load(Ordering::SeqCst) > 0 && start.elapsed() < MAKING_WAIT {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    remove_pending();
}

/// Removes every temporary file not yet renamed.
fn remove_pending() {
    let pid = std::process::id();
    for (dir, number) in &PENDING {
        let fd = dir.swap(-1, Ordering::SeqCst);
        if fd >= 0 {
            let name = temporary_name(pid, number.load(Ordering::SeqCst));
            // SAFETY: unlinkat reads a NUL-terminated name; the descriptor may have been
            // closed since, in which case the call fails and nothing is removed.
            unsafe { libc::unlinkat(fd, name.as_slice().as_ptr(), 0) };
        }
    }
}

#[cfg(test)]
#[path = "destination_tests.rs"]
mod tests;
