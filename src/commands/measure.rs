//! Measuring every payload of a configuration, shared by `run`, `recommend` and
//! `reproduce`: progress and noise warnings on stderr, results through sinks.

use std::cell::RefCell;

use anyhow::{bail, Result};

use super::output::SavedFiles;
use crate::bench::instructions::{self, valgrind_version, Counts};
use crate::bench::schedule::Plan;
use crate::bench::session::Observer;
use crate::bench::settings::make_ready;
use crate::bench::Step;
use crate::commands::progress::Progress;
use crate::config::MeasureConfig;
use crate::error::Failing;
use crate::export;
use crate::export::exporter::Subject;
use crate::format::{significant, thousands};
use crate::payload::{self, Payload};
use crate::process::interrupt;
use crate::results::environment::{Environment, Pin};
use crate::results::run::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};
use crate::vocab::CellId;

/// What the caller does with results as they come: the payload so far after each
/// finished cell (with the new cell's index in it), then each finished payload with the
/// report.
pub(super) struct Sinks<'a> {
    /// After each finished cell.
    pub cell: &'a mut dyn FnMut(&RunReport, &PayloadResult, usize) -> Result<()>,
    /// After each finished payload; `true` for the last.
    pub payload: &'a mut dyn FnMut(&RunReport, bool) -> Result<()>,
}

/// Everything that can be bad input, before anything is measured: valgrind looked up for
/// `--measure instructions`, the payloads loaded, the settings made ready (dictionaries
/// trained) and `--pin` applied. Gives the payloads and a report with none of them yet.
/// What a HAR capture held goes to stderr.
pub(super) fn prepare(config: &mut MeasureConfig) -> Result<(Vec<Payload>, RunReport)> {
    let counter = match &config.instructions {
        Some(plan) => Some(instructions::counter(&valgrind_version()?, plan.calls)),
        None => None,
    };
    let payloads = load_payloads(&config.payloads, config.seed, config.rng, config.quiet)?;
    make_ready(&mut config.settings, config.dictionaries.as_ref())?;
    let pin = config.pin.map(pin_to).transpose()?;
    let report = RunReport {
        schema_version: SCHEMA_VERSION,
        environment: Environment {
            pin,
            calibration: crate::bench::calibrate::described(),
            ..Environment::current()
        },
        seed: config.seed,
        rng: config.rng.to_string(),
        payloads: Vec::new(),
        instructions: counter,
    };
    Ok((payloads, report))
}

/// The payloads `sources` name, loaded; what a HAR capture held goes to stderr unless
/// `quiet`.
pub(super) fn load_payloads(
    sources: &[payload::PayloadSource],
    seed: i32,
    rng: payload::RngKind,
    quiet: bool,
) -> Result<Vec<Payload>> {
    let (payloads, notes) = payload::load(sources, seed, rng)?;
    if !quiet {
        notes.iter().for_each(super::output::say);
    }
    Ok(payloads)
}

/// Measures every payload with progress and noise warnings on stderr (see
/// [`crate::bench::session`]). A stop request (Ctrl-C, SIGTERM) ends the run after the
/// iteration in flight; the report then holds what was finished. An error from a sink
/// stops the run.
pub(super) fn measure_all(
    config: &MeasureConfig,
    payloads: &[Payload],
    report: RunReport,
    progress: &Progress,
    sinks: Sinks,
) -> Result<RunReport> {
    let shown = Shown {
        config,
        progress,
        sinks: RefCell::new(sinks),
    };
    config.session().measure(payloads, report, &shown)
}

/// What a session shows on stderr, and where its results go.
struct Shown<'a, 's> {
    config: &'a MeasureConfig,
    progress: &'a Progress,
    sinks: RefCell<Sinks<'s>>,
}

impl Observer for Shown<'_, '_> {
    fn counting(&self, payload: &Payload, cells: usize) {
        self.progress.line(&format!(
            "{}: counting the instructions of {} under callgrind",
            payload.name,
            crate::format::count(cells as u64, "setting"),
        ));
    }

    fn counted(&self, id: CellId, counted: &Result<Counts>) {
        match counted {
            Ok(counts) => self.progress.line(&format!(
                "  {id}: {} / {} instructions",
                thousands(counts.compress),
                thousands(counts.decompress)
            )),
            Err(error) => self.progress.warn(&format!(
                "{}\n",
                crate::format::one_line(&format!("instructions of {id} not counted: {error:#}"))
            )),
        }
    }

    fn started(&self, payload: &Payload, plan: Plan, cells: usize, steps: u64) {
        let planned = PayloadResult::planned(&payload.name, &payload.bytes, plan);
        self.progress.start_payload(
            &format!(
                "{}: {} bytes, {}, {} each way",
                payload.name,
                thousands(payload.bytes.len() as u64),
                crate::format::count(cells as u64, "setting"),
                export::labels::iteration_text(&planned),
            ),
            steps,
        );
    }

    fn step(&self, step: &Step) {
        self.progress.step(step);
    }

    fn cell(&self, report: &RunReport, so_far: &PayloadResult, new: usize) -> Result<()> {
        let cell = &so_far.cells[new];
        // The payload's table (or its CSV row) shows each cell: a line of its own is for
        // -v, or to say why a cell failed.
        if self.config.verbose || cell.failure.is_some() {
            self.progress
                .line(&format!("  {}", progress_line(so_far.input_bytes, cell)));
        }
        (self.sinks.borrow_mut().cell)(report, so_far, new)
    }

    fn finished(&self, report: &RunReport, last: bool) -> Result<()> {
        // A run that was stopped says so, not how noisy its partial cells were.
        self.progress.finish();
        let result = report.payloads.last().expect("a payload just finished");
        let remedies = self.config.noise_remedies();
        let warning = export::run::noise::warning(result, &remedies, self.config.verbose);
        if let Some(warning) = warning.filter(|_| !interrupt::requested() && !self.config.quiet) {
            self.progress.warn(&warning);
        }
        (self.sinks.borrow_mut().payload)(report, last)
    }
}

/// Measures `payloads` into `report`, rewriting `files` after every cell.
pub(super) fn measure_saving(
    config: &MeasureConfig,
    payloads: &[Payload],
    report: RunReport,
    progress: &Progress,
    files: &SavedFiles,
) -> crate::error::Result<RunReport> {
    measure_all(
        config,
        payloads,
        report,
        progress,
        Sinks {
            cell: &mut |report, so_far, _| {
                files.write(&Subject::Run {
                    report,
                    current: Some(so_far),
                })
            },
            payload: &mut |report, _| {
                files.write(&Subject::Run {
                    report,
                    current: None,
                })
            },
        },
    )
    .failing()
}

/// Pins this thread, which does all the measuring, to logical CPU `cpu`. A CPU the
/// process may not use is bad input; an OS that refuses pinning gets a warning.
fn pin_to(cpu: usize) -> Result<Pin> {
    let available = core_affinity::get_core_ids().unwrap_or_default();
    let Some(&core) = available.iter().find(|core| core.id == cpu) else {
        let ids: Vec<String> = available.iter().map(|c| c.id.to_string()).collect();
        bail!(
            "--pin {cpu}: no such CPU available to this process (available: {})",
            if ids.is_empty() {
                "unknown".to_string()
            } else {
                ids.join(", ")
            }
        );
    };
    let pinned = core_affinity::set_for_current(core);
    if !pinned {
        eprintln!("codecbench: warning: --pin {cpu}: the OS refused; measuring unpinned");
    }
    Ok(Pin { cpu, pinned })
}

/// The stderr line printed after each cell.
fn progress_line(input_bytes: u64, cell: &CellResult) -> String {
    let head = format!("{:<6} {:>3}", cell.id.codec.name(), cell.id.level);
    let library = export::labels::library_text(&cell.id);
    if let Some(why) = &cell.failure {
        return format!("{head}: FAILED ({library}): {why}");
    }
    format!(
        "{head}: {} B ({:.2}x), compress {} MB/s, decompress {} MB/s  [{library}]",
        thousands(cell.compressed_bytes),
        cell.ratio(input_bytes).unwrap_or(0.0),
        significant(cell.compress_mb_s(input_bytes).unwrap_or(0.0), 3),
        significant(cell.decompress_mb_s(input_bytes).unwrap_or(0.0), 3),
    )
}
