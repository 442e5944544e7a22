//! How a measuring command ends: interrupted, with failed round trips named, or
//! saved; and how writing its last outputs went.

use std::io::IsTerminal as _;

use anyhow::Result;

use super::output::SavedFiles;
use crate::error::{Error, Failing};
use crate::process::interrupt;
use crate::results::run::RunReport;

/// The end of a measuring command: interrupted (saying where the results went), failed
/// round trips (each named on stderr), or success, with where the run was saved (or how
/// to save one) unless `quiet`.
pub(super) fn outcome(report: &RunReport, files: &SavedFiles, quiet: bool) -> crate::error::Result {
    if interrupt::by_closed_stdout() {
        return Ok(()); // as ripgrep does: a reader that stopped reading is no failure
    }
    if interrupt::requested() {
        let cells: usize = report.payloads.iter().map(|p| p.cells.len()).sum();
        return Err(Error::Interrupted(format!(
            "{} {}",
            crate::format::count(cells as u64, "measured cell"),
            files.whereabouts()
        )));
    }
    if !quiet {
        if let Some(saved) = files.saved() {
            eprintln!("codecbench: results written to {saved}");
        } else if std::io::stdout().is_terminal() {
            eprintln!(
                "codecbench: not saved; add --export-json FILE to keep the run for compare, merge, plot and recommend --from"
            );
        }
    }
    named_failures(&report.failures(), |n| {
        format!(
            "{} failed their round trip",
            crate::format::count(n as u64, "cell")
        )
    })
}

/// Names each of `failures` on stderr, one line each, and fails with `summary` of their
/// count when there are any.
pub(super) fn named_failures(
    failures: &[String],
    summary: impl Fn(usize) -> String,
) -> crate::error::Result {
    for failure in failures {
        super::output::say_error(format_args!("codecbench: FAILED {failure}"));
    }
    match failures.len() {
        0 => Ok(()),
        n => Err(Error::failed(summary(n))),
    }
}

/// How writing the outputs kept for the end went: an output abandoned because a stop
/// was asked for while it waited for a reader is the interruption, said in one line.
pub(super) fn finished(written: Result<()>) -> crate::error::Result {
    match written {
        Err(err) if interrupt::requested() && !interrupt::by_closed_stdout() => {
            Err(Error::Interrupted(format!("{err:#}")))
        }
        other => other.failing(),
    }
}
