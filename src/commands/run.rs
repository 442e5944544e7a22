//! `codecbench run`: the matrix, streamed to stdout and saved after every cell.

use std::cell::RefCell;

use anyhow::Result;

use super::measure::{measure_all, prepare, Sinks};
use super::outcome::outcome;
use super::output::{Outputs, SavedFiles};
use crate::config::RunConfig;
use crate::error::Failing;
use crate::export;
use crate::export::exporter::Subject;
use crate::results::run::{PayloadResult, RunReport};

/// Runs `config`.
pub(super) fn run(mut config: RunConfig) -> crate::error::Result {
    let (payloads, report) = prepare(&mut config.measure)?;
    // The paths were proved writable, and kept apart from the inputs, by the config; a
    // file already there stays as it was until the first result replaces it.
    let files = SavedFiles(config.exports.clone());
    let kind = Subject::Run {
        report: &report,
        current: None,
    };
    let outputs = Outputs::start(files, config.format, &kind).failing()?;
    let outputs = RefCell::new(outputs);
    let mut on_cell = |report: &RunReport, so_far: &PayloadResult, new: usize| -> Result<()> {
        let subject = Subject::Run {
            report,
            current: Some(so_far),
        };
        outputs.borrow_mut().result(&subject, new)
    };
    let mut on_payload = |report: &RunReport, _last: bool| -> Result<()> {
        let whole = Subject::Run {
            report,
            current: None,
        };
        let finished = report.payloads.last().expect("a payload just finished");
        let table = || export::run::matrix::document(finished);
        outputs.borrow_mut().payload(&whole, table)
    };
    let sinks = Sinks {
        cell: &mut on_cell,
        payload: &mut on_payload,
    };
    let progress = super::progress::Progress::new(config.measure.quiet);
    let report = measure_all(&config.measure, &payloads, report, &progress, sinks).failing()?;
    let mut outputs = outputs.into_inner();
    let finished = outputs.finish(&Subject::Run {
        report: &report,
        current: None,
    });
    super::outcome::finished(finished)?;
    outcome(&report, outputs.files(), config.measure.quiet)
}
