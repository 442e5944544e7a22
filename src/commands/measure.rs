//! Measuring every payload of a configuration, shared by `run`, `recommend` and
//! `reproduce`: progress and noise warnings on stderr, results through sinks.

use std::io::IsTerminal;

use anyhow::{bail, Result};

use super::output::SavedFiles;
use crate::bench::instructions::{self, valgrind_version, Counts};
use crate::bench::runner::SystemClock;
use crate::bench::schedule::Plan;
use crate::bench::settings::make_ready;
use crate::bench::workers::measure_in_processes;
use crate::bench::{run_payload, Step};
use crate::commands::progress::Progress;
use crate::config::MeasureConfig;
use crate::error::{Error, Failing};
use crate::export;
use crate::export::exporter::Subject;
use crate::format::{significant, thousands};
use crate::payload::{self, Payload};
use crate::process::interrupt;
use crate::results::environment::{Environment, Pin};
use crate::results::run::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};
use crate::vocab::CellId;
use std::collections::HashMap;

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
/// `--measure instructions`, the settings made ready (dictionaries trained), the payloads
/// loaded and `--pin` applied. Gives the payloads and a report with none of them yet.
/// What a HAR capture held goes to stderr.
pub(super) fn prepare(config: &mut MeasureConfig) -> Result<(Vec<Payload>, RunReport)> {
    let counter = match &config.instructions {
        Some(plan) => Some(instructions::counter(&valgrind_version()?, plan.calls)),
        None => None,
    };
    make_ready(&mut config.settings, config.dictionaries.as_ref())?;
    let payloads = load_payloads(&config.payloads, config.seed, config.rng, config.quiet)?;
    let pin = config.pin.map(pin_to).transpose()?;
    let report = RunReport {
        schema_version: SCHEMA_VERSION,
        environment: Environment {
            pin,
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

/// Measures every payload with progress and noise warnings on stderr. A stop request
/// (Ctrl-C, SIGTERM) ends the run after the iteration in flight; the report then holds
/// what was finished. An error from a sink stops the run.
pub(super) fn measure_all(
    config: &MeasureConfig,
    payloads: &[Payload],
    mut report: RunReport,
    progress: &Progress,
    sinks: Sinks,
) -> Result<RunReport> {
    for (index, payload) in payloads.iter().enumerate() {
        if interrupt::requested() {
            break;
        }
        let plan = config.method.plan(payload.bytes.len());
        let counts = count_instructions(config, payload, progress)?;
        start_payload(config, payload, plan, progress);
        let mut on_cell = |so_far: &PayloadResult, new: usize| -> Result<()> {
            let cell = &so_far.cells[new];
            progress.line(&format!("  {}", progress_line(so_far.input_bytes, cell)));
            match &counts {
                Some(counts) => {
                    let mut counted = so_far.clone();
                    instructions::fill(&mut counted, counts);
                    (sinks.cell)(&report, &counted, new)
                }
                None => (sinks.cell)(&report, so_far, new),
            }
        };
        let mut result = measure_payload(config, payload, plan, progress, &mut on_cell)?;
        result.content_type = payload.content_type.clone();
        if let Some(counts) = &counts {
            instructions::fill(&mut result, counts);
        }
        // A run that was stopped says so, not how noisy its partial cells were.
        progress.finish();
        let remedies = config.noise_remedies();
        let warning = export::run::noise::warning(&result, &remedies, config.verbose);
        if let Some(warning) = warning.filter(|_| !interrupt::requested() && !config.quiet) {
            progress.warn(&warning);
        }
        report.payloads.push(result);
        let last = index + 1 == payloads.len() || interrupt::requested();
        (sinks.payload)(&report, last)?;
    }
    Ok(report)
}

/// With `--measure instructions`, every cell's counts on `payload`, by cell.
fn count_instructions(
    config: &MeasureConfig,
    payload: &Payload,
    progress: &Progress,
) -> Result<Option<HashMap<CellId, Counts>>> {
    let Some(counting) = &config.instructions else {
        return Ok(None);
    };
    progress.line(&format!(
        "{}: counting the instructions of {} under callgrind",
        payload.name,
        crate::format::count(cell_count(config) as u64, "setting"),
    ));
    let mut on_cell = |id: CellId, counted: &Result<Counts>| match counted {
        Ok(counts) => progress.line(&format!(
            "  {id}: {} / {} instructions",
            thousands(counts.compress),
            thousands(counts.decompress)
        )),
        Err(error) => progress.warn(&format!("instructions of {id} not counted: {error:#}")),
    };
    let counts = instructions::count_payload(
        counting.calls,
        &payload.bytes,
        &config.settings,
        &mut on_cell,
    )?;
    Ok(Some(counts))
}

/// The cells one payload has.
fn cell_count(config: &MeasureConfig) -> usize {
    config.settings.iter().map(|s| s.levels.len()).sum()
}

/// The cells·rounds measuring a body of `bytes` takes under `config`, every process's.
pub(super) fn steps(config: &MeasureConfig, bytes: usize) -> u64 {
    let rounds: u32 = config.method.plan(bytes).rounds_of_each().iter().sum();
    cell_count(config) as u64 * u64::from(rounds)
}

/// The payload's heading, and the progress count restarted for its cells·rounds, those
/// of every process.
fn start_payload(config: &MeasureConfig, payload: &Payload, plan: Plan, progress: &Progress) {
    let planned = PayloadResult::planned(&payload.name, &payload.bytes, plan);
    let cells = cell_count(config);
    progress.start_payload(
        &format!(
            "{}: {} bytes, {}, {} each way",
            payload.name,
            thousands(payload.bytes.len() as u64),
            crate::format::count(cells as u64, "setting"),
            export::labels::iteration_text(&planned),
        ),
        steps(config, payload.bytes.len()),
    );
}

/// Times `payload` under `plan`, here or in children (see [`crate::bench::workers`]),
/// passing each finished cell to `on_cell` (with children, all of them once the last has
/// ended).
fn measure_payload(
    config: &MeasureConfig,
    payload: &Payload,
    plan: Plan,
    progress: &Progress,
    on_cell: &mut dyn FnMut(&PayloadResult, usize) -> Result<()>,
) -> Result<PayloadResult> {
    if plan.processes == 1 {
        let mut on_step = |step: Step| progress.step(&step);
        let (name, body) = (&payload.name, &payload.bytes);
        let clock = SystemClock::new();
        return run_payload(
            name,
            body,
            &config.settings,
            plan,
            &clock,
            &mut on_step,
            on_cell,
        );
    }
    let on_step = |step: Step| progress.step(&step);
    let pooled = measure_in_processes(&config.settings, payload, plan, &on_step)?;
    let mut so_far = PayloadResult {
        cells: Vec::new(),
        ..pooled.clone()
    };
    for cell in pooled.cells.iter().cloned() {
        so_far.cells.push(cell);
        on_cell(&so_far, so_far.cells.len() - 1)?;
    }
    Ok(pooled)
}

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
        super::output::say(format_args!("codecbench: FAILED {failure}"));
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
