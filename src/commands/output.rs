//! Where results go: stdout, and files rewritten whole and atomically; and the outputs
//! of a measuring command (`run`, `http`), written the same way by both.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::config::outputs::{is_stdout, Export, Exports};
use crate::export::exporter::{exporter, CsvStream, Format, Subject};
use crate::export::text::document::{Document, Style};
use crate::process::destination::{Destination, Existing};
use crate::process::interrupt::{self, Aside};

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
                write_file(path, &bytes)?;
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
        || Destination::open(path)
            .and_then(|d| d.existing())
            .is_ok_and(|existing| existing == Existing::Special)
}

/// Opens and writes the FIFO or device `destination` holds aside ([`interrupt::run_aside`]),
/// so that a reader that never comes (or stops reading) cannot hold the process: a stop
/// request ends the wait.
fn write_stoppable(destination: Destination, path: &Path, bytes: Vec<u8>) -> Result<()> {
    let write = move || -> Result<()> { Ok(destination.open_special()?.write_all(&bytes)?) };
    match interrupt::run_aside(write, None) {
        Aside::Done(written) => written.with_context(|| format!("cannot write {}", path.display())),
        Aside::Stopped | Aside::TimedOut => {
            bail!("{} was not written: no reader took it", path.display())
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

/// A line on stderr with what a terminal would act on shown, not sent, and one line
/// whatever it quotes: file names, saved runs and servers' answers.
pub(super) fn say(line: impl std::fmt::Display) {
    eprintln!("{}", crate::format::one_line(&line.to_string()));
}

/// An error on stderr: one line, whatever line breaks a file name or a peer put in it.
pub(super) fn say_error(line: impl std::fmt::Display) {
    eprintln!("{}", crate::format::one_line(&line.to_string()));
}

/// Writes a whole file, naming it in the error.
///
/// A regular file (or a path not there yet) is replaced atomically: the bytes go to a
/// temporary file in the same directory, which is then renamed over it, so a reader or
/// a crash never sees half a file. The directory is opened once and the file made and
/// renamed relative to it ([`Destination`]): a link planted on the way is refused, and
/// one swapped in afterwards is replaced, never followed. A link of the caller's own is
/// followed and its target replaced. A device or FIFO is written directly. A stop that
/// ends the process at once removes the temporary file on the way out.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    let destination = Destination::open(path).with_context(cannot)?;
    match destination.existing().with_context(cannot)? {
        Existing::Directory => bail!("cannot write {}: it is a directory", path.display()),
        Existing::Special => write_stoppable(destination, path, bytes.to_vec()),
        Existing::Nothing | Existing::File => destination.replace(bytes).with_context(cannot),
    }
}
