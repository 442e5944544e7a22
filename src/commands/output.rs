//! Where results go: stdout, and files rewritten whole and atomically.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};

use crate::config::outputs::{is_stdout, Export, Exports};

/// Writes a whole report to stdout.
pub fn print(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Standard output for a command that measures: once its reader has gone (a closed
/// pipe, as with `| head`), it asks the run to stop and takes further writes silently,
/// so that the saved files still end complete, marked interrupted.
pub struct Stdout {
    out: io::StdoutLock<'static>,
    closed: bool,
}

impl Stdout {
    /// Locks stdout.
    pub fn new() -> Self {
        Stdout {
            out: io::stdout().lock(),
            closed: false,
        }
    }

    /// Writes and flushes `bytes`, unless the reader has gone.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.out.write_all(bytes).and_then(|()| self.out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                crate::process::interrupt::stdout_closed();
                Ok(())
            }
            other => other,
        }
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

/// The files the `--export-*` options keep up to date. Each is rewritten whole,
/// atomically, after every finished cell or encoding, so a run cut short leaves complete
/// files of what it finished, never a half-written row.
pub struct SavedFiles(pub Exports);

impl SavedFiles {
    /// Writes what `render` gives for each format asked for, rendering only those. `-`
    /// (stdout) is left for [`SavedFiles::finish`].
    pub fn write(&self, render: impl Fn(Export) -> Vec<u8>) -> Result<()> {
        for (export, path) in self.0.files() {
            if !is_stdout(path) {
                write_file(path, &render(export))?;
            }
        }
        Ok(())
    }

    /// Writes the outputs named `-` to `out`, once, at the end of the run.
    pub fn finish(&self, out: &mut Stdout, render: impl Fn(Export) -> Vec<u8>) -> io::Result<()> {
        for (export, path) in self.0.files() {
            if is_stdout(path) {
                out.write(&render(export))?;
            }
        }
        Ok(())
    }

    /// Where the results went: `written to FILE and FILE`, or that nothing was saved.
    pub fn whereabouts(&self) -> String {
        match self.saved() {
            Some(names) => format!("written to {names}"),
            None => "not saved (no --export-json or --export-csv)".to_string(),
        }
    }

    /// `FILE and FILE`, the files written, if any was asked for.
    pub fn saved(&self) -> Option<String> {
        let names: Vec<String> = self
            .0
            .files()
            .into_iter()
            .filter(|(_, path)| !is_stdout(path))
            .map(|(_, path)| path.display().to_string())
            .collect();
        (!names.is_empty()).then(|| names.join(" and "))
    }
}

/// Writes a whole file, naming it in the error.
///
/// A regular file (or a path not there yet) is replaced atomically: the bytes go to a
/// temporary file in the same directory, which is then renamed over it (tempfile's
/// `persist`), so a reader or a crash never sees half a file. A link is followed and
/// its target replaced. A device or FIFO is written directly, never replaced.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    let target = crate::config::outputs::resolve(path).with_context(cannot)?;
    if target.exists() && !target.is_file() {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .with_context(cannot)?;
        return file.write_all(bytes).with_context(cannot);
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new()
        .prefix(".codecbench")
        .tempfile_in(dir)
        .with_context(cannot)?;
    temporary.write_all(bytes).with_context(cannot)?;
    temporary.as_file().sync_all().with_context(cannot)?;
    temporary
        .persist(&target)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    Ok(())
}
