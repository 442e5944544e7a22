//! Where results go: stdout, and files rewritten whole and atomically.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::config::outputs::is_stdout;

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
                crate::bench::interrupt::stdout_closed();
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

/// The files `--csv` and `--json` keep up to date. Both are rewritten whole, atomically,
/// after every finished cell or encoding, so a run cut short leaves complete files of
/// what it finished, never a half-written row.
pub struct SavedFiles {
    /// The CSV file, if asked for.
    pub csv: Option<PathBuf>,
    /// The JSON file, if asked for.
    pub json: Option<PathBuf>,
}

impl SavedFiles {
    /// Writes what `csv` renders to the CSV file and what `json` renders to the JSON
    /// file, rendering only for the files asked for. `-` (stdout) is left for
    /// [`SavedFiles::finish`].
    pub fn write(
        &self,
        csv: impl FnOnce() -> Vec<u8>,
        json: impl FnOnce() -> Vec<u8>,
    ) -> Result<()> {
        if let Some(path) = self.csv.as_deref().filter(|p| !is_stdout(p)) {
            write_file(path, &csv())?;
        }
        if let Some(path) = self.json.as_deref().filter(|p| !is_stdout(p)) {
            write_file(path, &json())?;
        }
        Ok(())
    }

    /// Writes the outputs named `-` to `out`, once, at the end of the run.
    pub fn finish(
        &self,
        out: &mut Stdout,
        csv: impl FnOnce() -> Vec<u8>,
        json: impl FnOnce() -> Vec<u8>,
    ) -> io::Result<()> {
        if self.csv.as_deref().is_some_and(is_stdout) {
            out.write(&csv())?;
        }
        if self.json.as_deref().is_some_and(is_stdout) {
            out.write(&json())?;
        }
        Ok(())
    }

    /// Where the results went, for the message after a stop: `written to FILE and
    /// FILE`, or that nothing was saved.
    pub fn whereabouts(&self) -> String {
        let names: Vec<String> = [&self.csv, &self.json]
            .into_iter()
            .flatten()
            .map(|p| p.display().to_string())
            .collect();
        if names.is_empty() {
            "nothing saved (no --csv or --json)".to_string()
        } else {
            format!("written to {}", names.join(" and "))
        }
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
