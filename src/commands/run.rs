//! `codecbench run`: the matrix, streamed to stdout and saved after every cell.

use std::cell::RefCell;

use anyhow::Result;

use super::measure::{empty_report, measure_all, outcome, prepare, Sinks};
use super::output::{SavedFiles, Stdout};
use crate::config::RunConfig;
use crate::error::Failing;
use crate::export::{self, Format, Style};
use crate::results::codec::{PayloadResult, RunReport};

/// Runs `config`.
pub fn run(config: RunConfig) -> crate::error::Result {
    let (payloads, pin) = prepare(&config.measure)?;
    // The paths were proved writable, and kept apart from the inputs, by the config; a
    // file already there stays as it was until the first result replaces it.
    let files = SavedFiles {
        csv: config.csv_path.clone(),
        json: config.json_path.clone(),
    };
    let report = empty_report(&config.measure, pin);
    let format = config.format;
    let out = RefCell::new(Stdout::new());
    if format == Format::Csv {
        out.borrow_mut().write(&export::csv::header()).failing()?;
    }
    let mut on_cell = |report: &RunReport, so_far: &PayloadResult, new: usize| -> Result<()> {
        save(&files, report, Some(so_far))?;
        if format == Format::Csv {
            let row = export::csv::row(so_far, &so_far.cells[new]);
            out.borrow_mut().write(&row)?;
        }
        Ok(())
    };
    let mut on_payload = |report: &RunReport, last: bool| -> Result<()> {
        save(&files, report, None)?;
        let result = report.payloads.last().expect("a payload was just added");
        let style = match format {
            Format::Table => Style::Terminal,
            Format::Markdown => Style::Markdown,
            Format::Csv | Format::Json => return Ok(()),
        };
        let mut bytes = export::render(&export::matrix::document(result), style);
        if !last {
            bytes.push(b'\n');
        }
        out.borrow_mut().write(&bytes)?;
        Ok(())
    };
    let sinks = Sinks {
        cell: &mut on_cell,
        payload: &mut on_payload,
    };
    let report = measure_all(&config.measure, &payloads, report, sinks).failing()?;
    files
        .finish(
            &mut out.borrow_mut(),
            || export::csv::render(&report),
            || export::json::render(&report),
        )
        .failing()?;
    if format == Format::Json {
        out.borrow_mut()
            .write(&export::json::render(&report))
            .failing()?;
    }
    outcome(&report, &files.whereabouts())
}

/// Writes `report` (with `current`, the payload being measured, if any) to each file.
fn save(files: &SavedFiles, report: &RunReport, current: Option<&PayloadResult>) -> Result<()> {
    files.write(
        || export::csv::render_with(report, current),
        || export::json::render_with(report, current),
    )
}
