//! Outputs that can never destroy inputs: an output path that resolves to an input (the
//! same file, through any link, or a file inside a payload directory) is refused before
//! anything is read or written, and an output is proved writable without touching a
//! file already there, which stays as it was until the first result replaces it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::payload::PayloadSource;
use crate::process::destination::{Destination, Existing};

/// Where `path` points once every link is followed: the file itself when it exists,
/// else its directory's real path joined with its name. `None` for a path with no file
/// name or no existing directory.
pub(crate) fn resolve(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = path.canonicalize() {
        return Some(real);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(name))
}

/// What a command reads, for the check against what it writes.
pub(crate) enum Input<'a> {
    /// A file or a directory read as payloads.
    Payloads(&'a [PayloadSource]),
    /// A saved run or another file read whole.
    File(&'a Path),
}

/// Refuses any of `outputs` (as `(option, path)`) that resolves to one of `inputs` or
/// lies inside an input directory, then proves each writable.
pub(crate) fn check(outputs: &[(&str, &Path)], inputs: &[Input]) -> Result<()> {
    let mut read: Vec<(PathBuf, bool)> = Vec::new();
    for input in inputs {
        match input {
            Input::Payloads(sources) => {
                for source in sources.iter() {
                    if let PayloadSource::Path(path) | PayloadSource::Har(path) = source {
                        if let Some(real) = resolve(path) {
                            read.push((real.clone(), real.is_dir()));
                        }
                    }
                }
            }
            Input::File(path) => read.extend(resolve(path).map(|real| (real, false))),
        }
    }
    for (option, output) in outputs {
        if is_stdout(output) {
            continue;
        }
        // Every component walked as the write will walk it: a planted link is refused.
        let destination = Destination::open(output)
            .with_context(|| format!("cannot write {} ({option})", output.display()))?;
        let Some(target) = resolve(output) else {
            bail!(
                "cannot write {} ({option}): no such directory",
                output.display()
            );
        };
        for (input, is_dir) in &read {
            if &target == input || (*is_dir && target.starts_with(input)) {
                bail!(
                    "{option} {} would overwrite an input ({}); write the results elsewhere",
                    output.display(),
                    input.display()
                );
            }
        }
        prove_writable(option, output, &target, &destination)?;
    }
    Ok(())
}

/// Creates and removes a file beside `target` (or checks a device or FIFO may be
/// written, without opening it), so that an unwritable output is refused before
/// measuring, and an existing file is left as it was. The results replace a file by
/// renaming over it, which needs only the directory to be writable, as the probe proves.
fn prove_writable(
    option: &str,
    output: &Path,
    target: &Path,
    destination: &Destination,
) -> Result<()> {
    let cannot = || format!("cannot write {} ({option})", output.display());
    match destination.existing().with_context(cannot)? {
        Existing::Directory => bail!("{option} {} is a directory", output.display()),
        Existing::Special => may_write(target).with_context(cannot),
        Existing::Nothing | Existing::File => destination.probe().with_context(cannot),
    }
}

/// Whether a FIFO or device may be written, without opening it: opening a FIFO waits
/// for a reader, and opening and closing it would end a reader already there (it reads
/// end of file).
fn may_write(target: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let path = std::ffi::CString::new(target.as_os_str().as_bytes())?;
        // SAFETY: access(2) reads a NUL-terminated path and nothing else.
        if unsafe { libc::access(path.as_ptr(), libc::W_OK) } == 0 {
            return Ok(());
        }
        Err(std::io::Error::last_os_error())
    }
    #[cfg(not(unix))]
    {
        std::fs::OpenOptions::new()
            .write(true)
            .open(target)
            .map(drop)
    }
}

/// A format a measuring command can keep a file of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Export {
    /// One row per result.
    Csv,
    /// Everything, every sample included; what `compare` and `merge` read best.
    Json,
    /// The tables `--format markdown` prints.
    Markdown,
    /// The tables as one self-contained HTML page.
    Html,
    /// github-action-benchmark's custom JSON (`run` only).
    GithubBenchmark,
    /// Bencher Metric Format (`run` only).
    Bencher,
}

impl Export {
    /// The option that asks for it.
    pub(crate) fn option(self) -> &'static str {
        match self {
            Export::Csv => "--export-csv",
            Export::Json => "--export-json",
            Export::Markdown => "--export-markdown",
            Export::Html => "--export-html",
            Export::GithubBenchmark => "--export-github-benchmark",
            Export::Bencher => "--export-bencher",
        }
    }
}

/// The files a measuring command keeps up to date, one per format at most.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Exports {
    /// Where CSV goes, if anywhere.
    pub csv: Option<PathBuf>,
    /// Where JSON goes, if anywhere.
    pub json: Option<PathBuf>,
    /// Where Markdown goes, if anywhere.
    pub markdown: Option<PathBuf>,
    /// Where the HTML page goes, if anywhere.
    pub html: Option<PathBuf>,
    /// Where github-action-benchmark's JSON goes, if anywhere.
    pub github_benchmark: Option<PathBuf>,
    /// Where Bencher's JSON goes, if anywhere.
    pub bencher: Option<PathBuf>,
}

impl Exports {
    /// Each format asked for, with its path.
    pub(crate) fn files(&self) -> Vec<(Export, &Path)> {
        [
            (Export::Csv, &self.csv),
            (Export::Json, &self.json),
            (Export::Markdown, &self.markdown),
            (Export::Html, &self.html),
            (Export::GithubBenchmark, &self.github_benchmark),
            (Export::Bencher, &self.bencher),
        ]
        .into_iter()
        .filter_map(|(export, path)| path.as_deref().map(|p| (export, p)))
        .collect()
    }

    /// Refuses two formats into one file and any file that is one of `inputs`, then
    /// proves each writable; see [`check`].
    pub(crate) fn check(&self, inputs: &[Input]) -> Result<()> {
        let named: Vec<(&str, &Path)> =
            self.files().iter().map(|(e, p)| (e.option(), *p)).collect();
        distinct(&named)?;
        check(&named, inputs)
    }
}

/// Refuses two of `outputs` (as `(option, path)`) that name one file: each format
/// needs its own.
pub(crate) fn distinct(outputs: &[(&str, &Path)]) -> Result<()> {
    for (index, (option, path)) in outputs.iter().enumerate() {
        for (other, other_path) in &outputs[..index] {
            if !is_stdout(path) && resolve(path) == resolve(other_path) {
                bail!(
                    "{other} and {option} both name {}: give each format its own file",
                    path.display()
                );
            }
        }
    }
    Ok(())
}

/// Whether `path` is `-`: standard output rather than a file.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The export files `output` asks for, checked: none overwrites a payload or another
/// export, and each is writable.
pub(crate) fn exports(
    output: &crate::cli::OutputArgs,
    payloads: &[PayloadSource],
) -> Result<Exports> {
    let exports = exports_of(output);
    exports.check(&[Input::Payloads(payloads)])?;
    Ok(exports)
}

/// The files `output` names, unchecked.
pub(crate) fn exports_of(output: &crate::cli::OutputArgs) -> Exports {
    Exports {
        csv: output.csv.clone(),
        json: output.json.clone(),
        markdown: output.markdown.clone(),
        html: output.html.clone(),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_or_inside_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let payload = dir.path().join("b.json");
        std::fs::write(&payload, b"{}").unwrap();
        let sources = [PayloadSource::Path(payload.clone())];
        let message = format!(
            "{:#}",
            check(&[("--json", &payload)], &[Input::Payloads(&sources)]).unwrap_err()
        );
        assert!(message.contains("would overwrite an input"), "{message}");
        assert_eq!(std::fs::read(&payload).unwrap(), b"{}", "untouched");

        // The same file through another spelling of its path.
        let spelled = dir.path().join(".").join("b.json");
        assert!(check(&[("--csv", &spelled)], &[Input::Payloads(&sources)]).is_err());

        // A file inside a payload directory.
        let directory = [PayloadSource::Path(dir.path().to_path_buf())];
        let inside = dir.path().join("out.json");
        assert!(check(&[("--json", &inside)], &[Input::Payloads(&directory)]).is_err());

        // A saved run read whole, written over by plot.
        assert!(check(&[("-o", &payload)], &[Input::File(&payload)]).is_err());

        // Elsewhere is fine, and an existing output is left as it was.
        let elsewhere = tempfile::tempdir().unwrap();
        let output = elsewhere.path().join("old.json");
        std::fs::write(&output, b"previous").unwrap();
        check(&[("--json", &output)], &[Input::Payloads(&sources)]).unwrap();
        assert_eq!(std::fs::read(&output).unwrap(), b"previous");
        assert_eq!(
            std::fs::read_dir(elsewhere.path()).unwrap().count(),
            1,
            "no probe left"
        );
    }
}
