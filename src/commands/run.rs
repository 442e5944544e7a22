//! `codecbench run`: the matrix, streamed to stdout and saved after every cell.

use std::cell::RefCell;

use anyhow::Result;

use super::measure::{empty_report, measure_all, outcome, prepare, Sinks};
use super::output::{SavedFiles, Stdout};
use crate::config::outputs::Export;
use crate::config::RunConfig;
use crate::error::Failing;
use crate::export::{self, Format, Style};
use crate::results::codec::{PayloadResult, RunReport};

/// Runs `config`.
pub fn run(config: RunConfig) -> crate::error::Result {
    let (payloads, pin) = prepare(&config.measure)?;
    // The paths were proved writable, and kept apart from the inputs, by the config; a
    // file already there stays as it was until the first result replaces it.
    let files = SavedFiles(config.exports.clone());
    let report = empty_report(&config.measure, pin);
    let format = config.format;
    let out = RefCell::new(Stdout::new());
    if format == Format::Csv {
        out.borrow_mut().write(&export::csv::header()).failing()?;
    }
    let mut on_cell = |report: &RunReport, so_far: &PayloadResult, new: usize| -> Result<()> {
        files.write(|export| render(report, Some(so_far), export))?;
        if format == Format::Csv {
            let row = export::csv::row(so_far, &so_far.cells[new]);
            out.borrow_mut().write(&row)?;
        }
        Ok(())
    };
    let mut on_payload = |report: &RunReport, _last: bool| -> Result<()> {
        files.write(|export| render(report, None, export))?;
        let index = report.payloads.len() - 1;
        let style = match format {
            Format::Table => Style::Terminal,
            Format::Markdown => Style::Markdown,
            Format::Csv | Format::Json => return Ok(()),
        };
        // The empty line between payloads comes before each one after the first, so
        // that stdout ends as the Markdown export does.
        let mut bytes = if index > 0 {
            b"\n".to_vec()
        } else {
            Vec::new()
        };
        bytes.extend(export::render(
            &export::matrix::document(&report.payloads[index]),
            style,
        ));
        out.borrow_mut().write(&bytes)?;
        Ok(())
    };
    let sinks = Sinks {
        cell: &mut on_cell,
        payload: &mut on_payload,
    };
    let report = measure_all(&config.measure, &payloads, report, sinks).failing()?;
    files
        .finish(&mut out.borrow_mut(), |export| {
            render(&report, None, export)
        })
        .failing()?;
    if format == Format::Json {
        out.borrow_mut()
            .write(&export::json::render(&report))
            .failing()?;
    }
    outcome(&report, &files, config.measure.quiet)
}

/// `report` (with `current`, the payload being measured, if any) in the `export` format.
pub fn render(report: &RunReport, current: Option<&PayloadResult>, export: Export) -> Vec<u8> {
    match export {
        Export::Csv => export::csv::render_with(report, current),
        Export::Json => export::json::render_with(report, current),
        Export::Markdown => export::render_each(
            report
                .payloads
                .iter()
                .chain(current)
                .map(export::matrix::document),
            Style::Markdown,
        ),
    }
}
