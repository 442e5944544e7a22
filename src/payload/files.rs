//! Payload files read from disk: a directory's files (no dotfile, no link out of it),
//! each named the same however its path was typed, and every read held to a ceiling.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::body::{Payload, MAX_PAYLOAD_BYTES};
use crate::process::interrupt::{run_aside, Aside};

/// The regular files of `directory`, sorted by name, and a note for each left out: a
/// dotfile (`.env`, `.git`) is never a payload, nor a file whose real path, links
/// followed, lies outside the directory (`serve` would hand it to any client).
pub(super) fn directory_files(directory: &Path) -> Result<(Vec<PathBuf>, Vec<String>)> {
    let cannot_read = || format!("cannot read directory {}", directory.display());
    let root = directory.canonicalize().with_context(cannot_read)?;
    let (mut files, mut skipped) = (Vec::new(), Vec::new());
    for entry in std::fs::read_dir(directory).with_context(cannot_read)? {
        let path = entry.with_context(cannot_read)?.path();
        let hidden = path
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with('.'));
        let inside = path
            .canonicalize()
            .is_ok_and(|real| real.starts_with(&root));
        match (path.is_file(), hidden, inside) {
            (false, _, _) if path.is_dir() && !hidden => skipped.push(format!(
                "skipped {}: a folder (name it as a --payload of its own to measure it)",
                path.display()
            )),
            (false, _, _) => {}
            (true, true, _) => skipped.push(format!("skipped {}: a dotfile", path.display())),
            (true, false, false) => skipped.push(format!(
                "skipped {}: a link to a file outside {}",
                path.display(),
                directory.display()
            )),
            (true, false, true) => files.push(path),
        }
    }
    if files.is_empty() {
        bail!("payload directory {} holds no files", directory.display());
    }
    files.sort();
    skipped.sort();
    Ok((files, skipped))
}

/// The name a payload directory gives its files: its own last component, however the
/// path was typed (`pl/`, `./pl`, `/home/me/pl` are all `pl`).
pub(super) fn root_name(directory: &Path) -> String {
    let real = directory.canonicalize().ok();
    let last = real.as_deref().unwrap_or(directory).file_name();
    last.map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
}

/// Why `bytes` from a directory are not measured: `None` when they are one JSON
/// document. A payload set is JSON; a picture or a log among the files would otherwise
/// turn the answer (a PNG once made the emitted nginx configuration compress nothing).
pub(super) fn not_json(bytes: &[u8]) -> Option<String> {
    let error = serde_json::from_slice::<serde::de::IgnoredAny>(bytes).err()?;
    let what = match std::str::from_utf8(bytes) {
        Err(_) => "not JSON: not UTF-8 text".to_string(),
        Ok(_) => format!("not JSON: {error}"),
    };
    Some(format!(
        "{what} (name the file as a --payload of its own to measure it anyway)"
    ))
}

/// The file at `path` as a payload called `name`.
pub(super) fn read_file(path: &Path, name: String) -> Result<Payload> {
    let bytes = read_limited(path, MAX_PAYLOAD_BYTES, "payload file")?;
    payload(path, name, bytes)
}

/// The file at `path`, which [`directory_files`] found inside `root`, as a payload called
/// `name`. What is read is what was opened, and what was opened is checked to be a file
/// inside `root`: a file swapped for a link between the listing and the read is refused.
pub(super) fn read_file_inside(path: &Path, root: &Path, name: String) -> Result<Payload> {
    let cannot_read = || format!("cannot read payload file {}", path.display());
    let file = std::fs::File::open(path).with_context(cannot_read)?;
    let opened = file.metadata().with_context(cannot_read)?;
    let real = path.canonicalize().with_context(cannot_read)?;
    let there = std::fs::metadata(&real).with_context(cannot_read)?;
    if !(opened.is_file() && same_file(&opened, &there) && real.starts_with(root)) {
        bail!(
            "payload file {} changed to a file outside {} as it was read",
            path.display(),
            root.display()
        );
    }
    let bytes = read_limited_from(file, path, MAX_PAYLOAD_BYTES, "payload file")?;
    payload(path, name, bytes)
}

/// Whether two metadata are of one file (device and inode, where there are such).
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

fn payload(path: &Path, name: String, bytes: Vec<u8>) -> Result<Payload> {
    if bytes.is_empty() {
        bail!("payload file {} is empty", path.display());
    }
    Ok(Payload {
        name,
        bytes,
        content_type: None,
    })
}

/// The whole of the file at `path`, at most `limit` bytes: a larger file is refused by
/// its size before a byte is read, and one that grows past the limit as it is read (a
/// device such as `/dev/zero`, a file still being written) one byte past it. `what`
/// names the file in the error, e.g. `saved run`.
///
/// Anything but a regular file (a FIFO, a device, a pipe from `<(command)`) is opened and
/// read aside ([`run_aside`]), within [`LONGEST_READ`]: a FIFO with no writer blocks
/// its opening forever, and a stop request ends the wait at once.
pub(crate) fn read_limited(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let cannot_read = || format!("cannot read {what} {}", path.display());
    if std::fs::metadata(path).with_context(cannot_read)?.is_file() {
        let file = std::fs::File::open(path).with_context(cannot_read)?;
        return read_limited_from(file, path, limit, what);
    }
    let (owned, what_owned) = (path.to_path_buf(), what.to_string());
    let read = move || {
        std::fs::File::open(&owned)
            .with_context(|| format!("cannot read {what_owned} {}", owned.display()))
            .and_then(|file| read_limited_from(file, &owned, limit, &what_owned))
    };
    match run_aside(read, Some(LONGEST_READ)) {
        Aside::Done(bytes) => bytes,
        Aside::Stopped => bail!("{what} {} was not read: stopped", path.display()),
        Aside::TimedOut => bail!(
            "{what} {} sent nothing whole within {} s (a FIFO with no writer?)",
            path.display(),
            LONGEST_READ.as_secs()
        ),
    }
}

/// The regular file at `path`, opened and within `limit` bytes by its size, for a reader
/// that streams it (and bounds what it reads to the limit); `None` for anything else,
/// which [`read_limited`] reads whole.
pub(crate) fn open_regular(path: &Path, limit: u64, what: &str) -> Result<Option<std::fs::File>> {
    let cannot_read = || format!("cannot read {what} {}", path.display());
    if !std::fs::metadata(path).with_context(cannot_read)?.is_file() {
        return Ok(None);
    }
    let file = std::fs::File::open(path).with_context(cannot_read)?;
    within_limit(&file, path, limit, what)?;
    Ok(Some(file))
}

/// The file's size; a size over `limit` is refused, naming the file.
fn within_limit(file: &std::fs::File, path: &Path, limit: u64, what: &str) -> Result<u64> {
    let size = file
        .metadata()
        .with_context(|| format!("cannot read {what} {}", path.display()))?
        .len();
    if size > limit {
        let mib = format!("{:.1} MiB ({size} bytes)", size as f64 / 1024.0 / 1024.0);
        return Err(too_big(path, limit, what, &mib));
    }
    Ok(size)
}

fn too_big(path: &Path, limit: u64, what: &str, size: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{what} {} is {size}; codecbench reads up to {} MiB",
        path.display(),
        limit / 1024 / 1024
    )
}

/// The longest a FIFO or device may take to be read whole.
const LONGEST_READ: std::time::Duration = std::time::Duration::from_secs(10);

/// [`read_limited`] of a file already open, `path` naming it in errors.
fn read_limited_from(file: std::fs::File, path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let cannot_read = || format!("cannot read {what} {}", path.display());
    let size = within_limit(&file, path, limit, what)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(cannot_read)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(path, limit, what, "larger than that, as read"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_file_that_became_a_link_out_of_its_directory_is_not_read() {
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(outside.path(), "a secret outside").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(dir.path().join("a.json"), "[1]").unwrap();
        let listed = directory_files(dir.path()).unwrap().0;
        // Swapped after the listing, as a racing attacker would.
        std::fs::remove_file(&listed[0]).unwrap();
        std::os::unix::fs::symlink(outside.path(), &listed[0]).unwrap();
        let error = read_file_inside(&listed[0], &root, "a".into()).unwrap_err();
        assert!(
            error.to_string().contains("changed to a file outside"),
            "{error}"
        );
        // A file still inside reads as before.
        std::fs::remove_file(&listed[0]).unwrap();
        std::fs::write(&listed[0], "[2]").unwrap();
        let read = read_file_inside(&listed[0], &root, "a".into()).unwrap();
        assert_eq!(read.bytes, b"[2]");
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_one_byte_past_the_limit() {
        let error = read_limited(Path::new("/dev/zero"), 1000, "saved run").unwrap_err();
        assert_eq!(
            error.to_string(),
            "saved run /dev/zero is larger than that, as read; codecbench reads up to 0 MiB"
        );
    }
}
