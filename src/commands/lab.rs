//! `codecbench lab`: each server started, measured through and stopped; the tables
//! printed and the run saved.

use super::measure::load_payloads;
use super::output::{print, say, SavedFiles, Stdout};
use crate::config::lab::LabConfig;
use crate::error::{Error, Failing};
use crate::export::exporter::{exporter, Subject};
use crate::lab::{measure_through, missing, record, version, Setting};
use crate::payload::{sha256_hex, Payload};
use crate::process::interrupt;
use crate::results::environment::Environment;
use crate::results::lab::{LabReport, LabServer};
use crate::results::run::{PayloadResult, RunReport, SCHEMA_VERSION};

/// Measures through every server of `config`; a failed cell is a failure (exit 1).
pub(super) fn run(config: LabConfig) -> crate::error::Result {
    let payloads = load_payloads(&config.payloads, config.seed, config.rng, config.quiet)?;
    let bodies: Vec<Vec<u8>> = payloads.iter().map(|p| p.bytes.clone()).collect();
    let mut lab = LabReport {
        run: RunReport {
            schema_version: SCHEMA_VERSION,
            environment: Environment::current(),
            seed: config.seed,
            rng: config.rng.to_string(),
            payloads: payloads
                .iter()
                .map(|p| payload_result(p, &config))
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
        let version = version(server);
        let mut entry = LabServer {
            server,
            version: version.clone(),
            skipped: missing(server),
        };
        if entry.skipped.is_none() {
            let progress = |body: usize, setting: Setting| {
                if !config.quiet {
                    say(format_args!(
                        "{version}: {} {} {}",
                        payloads[body].name, setting.codec, setting.level
                    ));
                }
            };
            match measure_through(server, &bodies, &config.settings, config.load, &progress) {
                Ok(cells) => {
                    for cell in &cells {
                        let (result, row) =
                            record(server, &version, &payloads[cell.body], cell, config.load);
                        lab.run.payloads[cell.body].cells.push(result);
                        lab.rows.push(row);
                    }
                }
                Err(why) => {
                    let why = format!("{version} did not start: {why}");
                    failed.push(why.clone());
                    entry.skipped = Some(why);
                }
            }
        }
        if let (Some(why), false) = (&entry.skipped, config.quiet) {
            say(format_args!("{server}: skipped: {why}"));
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
    let failed: Vec<String> = lab.rows.iter().filter_map(|r| r.failure.clone()).collect();
    super::outcome::named_failures(&failed, |n| {
        crate::format::counted(n as u64, "cell failed", "cells failed")
    })
}

/// A body's entry in the run, its cells to come.
fn payload_result(payload: &Payload, config: &LabConfig) -> PayloadResult {
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
        cut_from: None,
        cells: Vec::new(),
    }
}
