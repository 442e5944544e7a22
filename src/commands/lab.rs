//! `codecbench lab`: each server started, measured through and stopped; the tables
//! printed and the run saved.

use super::measure::load_payloads;
use super::output::{print, say, SavedFiles, Stdout};
use crate::config::lab::LabConfig;
use crate::error::{Error, Failing};
use crate::export::exporter::{exporter, Subject};
use crate::lab::Setting;
use crate::lab::{beside, end_leftovers, measure_through, missing, record, serves, version};
use crate::payload::{sha256_hex, Payload};
use crate::process::interrupt;
use crate::results::environment::Environment;
use crate::results::lab::{LabReport, LabServer};
use crate::results::run::{PayloadResult, RunReport, SCHEMA_VERSION};
use crate::vocab::Server;

/// Measures through every server of `config`; a failed cell is a failure (exit 1).
pub(super) fn run(config: LabConfig) -> crate::error::Result {
    // A lab killed before it could stop its servers left them to the next one.
    for ended in end_leftovers(&std::env::temp_dir()) {
        if !config.quiet {
            say(format_args!("codecbench: {ended}"));
        }
    }
    let loaded = load_payloads(&config.payloads, config.seed, config.rng, config.quiet)?;
    let (payloads, cut_from): (Vec<Payload>, Vec<Option<String>>) =
        with_cuts(loaded, &config.cuts).into_iter().unzip();
    let mut lab = LabReport {
        run: RunReport {
            schema_version: SCHEMA_VERSION,
            environment: Environment::current(),
            seed: config.seed,
            rng: config.rng.to_string(),
            payloads: payloads
                .iter()
                .zip(&cut_from)
                .map(|(p, from)| payload_result(p, from.as_deref(), &config))
                .collect(),
            instructions: None,
        },
        servers: Vec::new(),
        rows: Vec::new(),
        load: (config.load.batches, config.load.requests),
    };
    // Servers that did not start, then cells that failed: each a failure (exit 1).
    let mut failed: Vec<String> = Vec::new();
    for &server in &config.servers {
        if interrupt::requested() {
            break;
        }
        let (entry, did_not_start) = through(server, &config, &payloads, &mut lab);
        if let Some(why) = &entry.skipped {
            if !config.quiet {
                say(format_args!("{server}: skipped: {why}"));
            }
            if did_not_start {
                failed.push(why.clone());
            }
        }
        lab.servers.push(entry);
    }
    let interrupted = interrupt::requested();
    for payload in &mut lab.run.payloads {
        payload.interrupted = interrupted;
    }
    let subject = Subject::Lab(&lab);
    let files = SavedFiles(config.exports.clone());
    files.write(&subject).failing()?;
    files.finish(&mut Stdout::new(), &subject).failing()?;
    print(&exporter(config.format).export(&subject)?).failing()?;
    if interrupted && !interrupt::by_closed_stdout() {
        return Err(Error::Interrupted(format!(
            "the cells measured so far are {}",
            files.whereabouts()
        )));
    }
    failed.extend(lab.rows.iter().filter_map(|r| r.failure.clone()));
    super::outcome::named_failures(&failed, |n| {
        crate::format::counted(n as u64, "server or cell failed", "servers or cells failed")
    })
}

/// Measures every body at every setting through `server`, its cells into `lab`: the
/// server's entry, and whether it failed to start.
fn through(
    server: Server,
    config: &LabConfig,
    payloads: &[Payload],
    lab: &mut LabReport,
) -> (LabServer, bool) {
    let version = version(server, &config.installs);
    let mut entry = LabServer {
        server,
        version: version.clone(),
        skipped: missing(server, &config.installs),
        notes: notes(server, &config.settings),
    };
    let mut failed = false;
    if entry.skipped.is_none() {
        let progress = |body: usize, setting: Setting| {
            if !config.quiet {
                say(format_args!(
                    "{version}: {} {} {}",
                    payloads[body].name, setting.codec, setting.level
                ));
            }
        };
        let (installs, settings) = (&config.installs, &config.settings);
        let (load, port) = (config.load, config.first_port);
        match measure_through(server, installs, payloads, settings, load, port, &progress) {
            Ok(cells) => {
                for cell in &cells {
                    let (result, row) =
                        record(server, &version, &payloads[cell.body], cell, config.load);
                    lab.run.payloads[cell.body].cells.push(result);
                    lab.rows.push(row);
                }
            }
            Err(why) => {
                entry.skipped = Some(format!("{version} did not start: {why}"));
                failed = true;
            }
        }
    }
    (entry, failed)
}

/// What the table says beside `server`'s figures, and the settings it cannot take.
fn notes(server: Server, settings: &[Setting]) -> Vec<String> {
    let unserved: Vec<String> = settings
        .iter()
        .filter(|&&s| !serves(server, s))
        .map(|s| format!("{} {}", s.codec.content_coding(), s.level))
        .collect();
    let mut notes = vec![beside(server)];
    if !unserved.is_empty() {
        notes.push(format!(
            "Not measured, as {server} has no encoder for them: {}.",
            unserved.join(", ")
        ));
    }
    notes
}

/// Each payload, and after it the bodies cut from it at `cuts` (each smaller than it
/// and than the next), each with the name of the payload it was cut from.
fn with_cuts(payloads: Vec<Payload>, cuts: &[u64]) -> Vec<(Payload, Option<String>)> {
    let mut bodies = Vec::new();
    for payload in payloads {
        let mut sizes: Vec<usize> = vec![payload.bytes.len()];
        let mut cut_bodies = Vec::new();
        for &size in cuts {
            let cut = crate::payload::smaller::cut_at(&payload, size as usize);
            if let Some(cut) = cut.filter(|c| !sizes.contains(&c.bytes.len())) {
                sizes.push(cut.bytes.len());
                cut_bodies.push((cut, Some(payload.name.clone())));
            }
        }
        bodies.push((payload, None));
        bodies.extend(cut_bodies);
    }
    bodies
}

/// A body's entry in the run, its cells to come.
fn payload_result(payload: &Payload, cut_from: Option<&str>, config: &LabConfig) -> PayloadResult {
    PayloadResult {
        payload: payload.name.clone(),
        input_bytes: payload.bytes.len() as u64,
        sha256: Some(sha256_hex(&payload.bytes)),
        warmup: 1,
        iterations: Some(config.load.batches as u32),
        min_time_s: None,
        rounds: 1,
        processes: 1,
        precision: None,
        interrupted: false,
        content_type: payload.content_type.clone(),
        cut_from: cut_from.map(String::from),
        cells: Vec::new(),
    }
}
