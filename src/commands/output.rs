//! Where results go: stdout, and files rewritten whole and atomically; and the outputs
//! of a measuring command (`run`, `http`), written the same way by both.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::config::outputs::{is_stdout, Export, Exports};
use crate::export::exporter::{exporter, CsvStream, Format, Subject};
use crate::export::text::document::{Document, Style};
use crate::process::interrupt;

/// Writes a whole report to stdout.
pub(super) fn print(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Standard output for a command that measures: once its reader has gone (a closed
/// pipe, as with `| head`), it asks the run to stop and takes further writes silently,
/// so that the saved files still end complete, marked interrupted.
pub(super) struct Stdout {
    out: io::StdoutLock<'static>,
    closed: bool,
}

impl Stdout {
    /// Locks stdout.
    pub(super) fn new() -> Self {
        Stdout {
            out: io::stdout().lock(),
            closed: false,
        }
    }

    /// Writes and flushes `bytes`, unless the reader has gone.
    pub(super) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
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

/// The files the `--export-*` options keep up to date. Each regular file is rewritten
/// whole, atomically, after every finished cell or encoding, so a run cut short leaves
/// complete files of what it finished, never a half-written row. Stdout (`-`), a FIFO
/// or a device is written once, at the end: a reader of a pipe sees one whole document,
/// and the run never blocks reopening it.
pub(super) struct SavedFiles(pub Exports);

impl SavedFiles {
    /// Rewrites each regular file asked for with `subject` in its format.
    pub(super) fn write(&self, subject: &Subject) -> Result<()> {
        for (export, path) in self.0.files() {
            if !written_at_end(path) {
                write_file(path, &exporter_of(export).export(subject)?)?;
            }
        }
        Ok(())
    }

    /// Writes the outputs kept for the end, once: `-` to `out`, a FIFO or a device
    /// opened and written in one go.
    pub(super) fn finish(&self, out: &mut Stdout, subject: &Subject) -> Result<()> {
        for (export, path) in self.0.files() {
            if !written_at_end(path) {
                continue;
            }
            let bytes = exporter_of(export).export(subject)?;
            if is_stdout(path) {
                out.write(&bytes)?;
            } else {
                write_stoppable(path, bytes)?;
            }
        }
        Ok(())
    }

    /// Where the results went: `written to FILE and FILE`, or that nothing was saved.
    pub(super) fn whereabouts(&self) -> String {
        match self.saved() {
            Some(names) => format!("written to {names}"),
            None => "not saved (no --export-json or --export-csv)".to_string(),
        }
    }

    /// `FILE and FILE`, the files written, if any was asked for.
    pub(super) fn saved(&self) -> Option<String> {
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

/// The exporter an export file is written with.
fn exporter_of(export: Export) -> &'static dyn crate::export::exporter::Exporter {
    match export {
        Export::Csv => exporter(Format::Csv),
        Export::Json => exporter(Format::Json),
        Export::Markdown => exporter(Format::Markdown),
        Export::Html => &crate::export::exporter::Html,
        Export::GithubBenchmark => &crate::export::exporter::GithubBenchmark,
        Export::Bencher => &crate::export::exporter::Bencher,
    }
}

/// Whether `path` is written once at the end rather than after every result: stdout,
/// and anything that exists and is not a regular file (a FIFO, a device).
fn written_at_end(path: &Path) -> bool {
    is_stdout(path)
        || crate::config::outputs::resolve(path)
            .is_some_and(|target| target.exists() && !target.is_file())
}

/// An ordinary new file's permissions: `rw-r--r--` on Unix, as the OS made it elsewhere.
fn ordinary_permissions(file: &std::fs::File) -> std::io::Result<std::fs::Permissions> {
    #[cfg(unix)]
    {
        let _ = file;
        use std::os::unix::fs::PermissionsExt as _;
        Ok(std::fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    {
        Ok(file.metadata()?.permissions())
    }
}

/// Opens and writes a FIFO or device in a thread of its own, so that a reader that never
/// comes (or stops reading) cannot hold the process: a stop request ends the wait within
/// a tenth of a second, leaving the thread to the process's exit.
fn write_stoppable(path: &Path, bytes: Vec<u8>) -> Result<()> {
    let target = path.to_path_buf();
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let written = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .and_then(|mut file| file.write_all(&bytes));
        let _ = done.send(written);
    });
    loop {
        match result.recv_timeout(Duration::from_millis(100)) {
            Ok(written) => {
                return written.with_context(|| format!("cannot write {}", path.display()))
            }
            Err(_) if interrupt::requested() => {
                bail!("{} was not written: no reader took it", path.display())
            }
            Err(_) => {}
        }
    }
}

/// The outputs of a command that measures, `run` or `http`: stdout in its format,
/// streamed as results come (a CSV row per result, a table per payload), and the saved
/// files, rewritten after every result and finished at the end.
pub(super) struct Outputs {
    files: SavedFiles,
    out: Stdout,
    format: Format,
    payloads_printed: usize,
}

impl Outputs {
    /// Starts stdout (in CSV, the header of `kind`'s results) for `files` and `format`.
    pub(super) fn start(files: SavedFiles, format: Format, kind: &Subject) -> Result<Self> {
        let mut out = Stdout::new();
        if format == Format::Csv {
            out.write(&CsvStream::header(kind).unwrap_or_default())?;
        }
        Ok(Outputs {
            files,
            out,
            format,
            payloads_printed: 0,
        })
    }

    /// After each finished result: every file rewritten with `so_far`, and in CSV the
    /// row of its result at `new` printed.
    pub(super) fn result(&mut self, so_far: &Subject, new: usize) -> Result<()> {
        self.files.write(so_far)?;
        if self.format == Format::Csv {
            self.out
                .write(&CsvStream::row(so_far, new).unwrap_or_default())?;
        }
        Ok(())
    }

    /// After each finished payload: every file rewritten with `whole`, and in the table
    /// and Markdown formats the payload's `table` printed, after an empty line from the
    /// previous one's, so that stdout ends as the Markdown export does.
    pub(super) fn payload(
        &mut self,
        whole: &Subject,
        table: impl FnOnce() -> Document,
    ) -> Result<()> {
        self.files.write(whole)?;
        let style = match self.format {
            Format::Table => Style::Terminal,
            Format::Markdown => Style::Markdown,
            Format::Csv | Format::Json => return Ok(()),
        };
        if self.payloads_printed > 0 {
            self.out.write(b"\n")?;
        }
        self.out
            .write(&crate::export::text::draw::render(&table(), style))?;
        self.payloads_printed += 1;
        Ok(())
    }

    /// At the end: the outputs kept for the end, then the JSON document on stdout.
    pub(super) fn finish(&mut self, whole: &Subject) -> Result<()> {
        self.files.finish(&mut self.out, whole)?;
        if self.format == Format::Json {
            self.out.write(&exporter(Format::Json).export(whole)?)?;
        }
        Ok(())
    }

    /// The saved files.
    pub(super) fn files(&self) -> &SavedFiles {
        &self.files
    }
}

/// A line on stderr with what a terminal would act on shown, not sent: stderr quotes
/// file names, saved runs and servers' answers.
pub(super) fn say(line: impl std::fmt::Display) {
    eprintln!("{}", crate::format::visible(&line.to_string()));
}

/// Writes a whole file, naming it in the error.
///
/// A regular file (or a path not there yet) is replaced atomically: the bytes go to a
/// temporary file in the same directory, which is then renamed over it (tempfile's
/// `persist`), so a reader or a crash never sees half a file. A link is followed and
/// its target replaced. A device or FIFO is written directly, never replaced.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    // Checked again here: a link may be planted after the options were checked.
    crate::config::outputs::refuse_planted_link(path).with_context(cannot)?;
    let target = crate::config::outputs::resolve(path).with_context(cannot)?;
    if target.exists() && !target.is_file() {
        return write_stoppable(&target, bytes.to_vec()).with_context(cannot);
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new()
        .prefix(".codecbench")
        .tempfile_in(dir)
        .with_context(cannot)?;
    temporary.write_all(bytes).with_context(cannot)?;
    temporary.as_file().sync_all().with_context(cannot)?;
    // A temporary file is the owner's alone; the file it becomes keeps the mode of the
    // one it replaces, or gets an ordinary file's (rw-r--r--), so a report can be shared.
    let mode = match std::fs::metadata(&target) {
        Ok(existing) => existing.permissions(),
        Err(_) => ordinary_permissions(temporary.as_file()).with_context(cannot)?,
    };
    temporary
        .as_file()
        .set_permissions(mode)
        .with_context(cannot)?;
    temporary
        .persist(&target)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    Ok(())
}
