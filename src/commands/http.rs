//! `codecbench http`: each encoding through a real server and client on loopback.

use anyhow::Result;

use super::measure::load_payloads;
use super::output::{Outputs, SavedFiles};
use crate::config::http::HttpConfig;
use crate::error::{Error, Failing};
use crate::export;
use crate::export::exporter::Subject;
use crate::format::{significant, thousands};
use crate::http::dictionary::{Dictionary, Prepared};
use crate::payload::{self, Payload};
use crate::process::interrupt;
use crate::results::environment::Environment;
use crate::results::http::{load_label, EncodingResult, HttpPayloadResult, HttpReport, HTTP_KIND};
use crate::results::run::SCHEMA_VERSION;

/// Measures every payload of `config` through HTTP.
pub(super) fn run(config: HttpConfig) -> crate::error::Result {
    let payloads = load_payloads(&config.payloads, config.seed, config.rng, config.quiet)?;
    let prepared = config
        .dictionary
        .map(|source| Prepared::new(source, config.seed, config.rng))
        .transpose()?;
    let versions = payloads
        .iter()
        .map(|p| version(prepared.as_ref(), p))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut report = HttpReport {
        schema_version: SCHEMA_VERSION,
        kind: HTTP_KIND.to_string(),
        environment: Environment::current(),
        seed: config.seed,
        rng: config.rng.to_string(),
        load: config.load.into(),
        payloads: Vec::new(),
    };
    // As for `run`: the config proved the paths writable; the files are kept whole.
    let files = SavedFiles(config.exports.clone());
    let kind = Subject::Http {
        report: &report,
        current: None,
    };
    let mut outputs = Outputs::start(files, config.format, &kind).failing()?;
    for (payload, version) in payloads.iter().zip(versions) {
        let current =
            measure_payload(&config, &mut outputs, &report, payload, version).failing()?;
        report.payloads.push(current);
        let whole = Subject::Http {
            report: &report,
            current: None,
        };
        let finished = report.payloads.last().expect("a payload just finished");
        let table = || export::http::document(finished, &report.load);
        outputs.payload(&whole, table).failing()?;
        if interrupt::requested() {
            break;
        }
    }
    super::outcome::finished(outputs.finish(&Subject::Http {
        report: &report,
        current: None,
    }))?;
    let failed_requests = name_failures(&report);
    if interrupt::requested() && !interrupt::by_closed_stdout() {
        return Err(Error::Interrupted(format!(
            "the encodings measured so far are {}",
            outputs.files().whereabouts()
        )));
    }
    match failed_requests {
        0 => Ok(()),
        n => Err(Error::failed(format!(
            "{} failed",
            crate::format::count(n as u64, "request")
        ))),
    }
}

/// Names each encoding whose requests failed on stderr; returns the failed requests.
fn name_failures(report: &HttpReport) -> usize {
    let failures: Vec<&EncodingResult> = report
        .payloads
        .iter()
        .flat_map(|p| &p.encodings)
        .filter(|r| r.errors > 0)
        .collect();
    for failed in &failures {
        super::output::say(format_args!(
            "codecbench: FAILED {} of {} requests with {}: {}",
            failed.errors,
            failed.errors + failed.requests,
            failed.encoding,
            failed.first_error.as_deref().unwrap_or("unknown")
        ));
    }
    failures.iter().map(|r| r.errors).sum()
}

/// The body every encoding sends for `payload`, and the dictionary the client holds,
/// if the encodings use one.
pub(super) fn version(
    prepared: Option<&Prepared>,
    payload: &Payload,
) -> anyhow::Result<(Vec<u8>, Option<Dictionary>)> {
    match prepared {
        Some(prepared) => {
            let (body, dictionary) = prepared.version(&payload.name, &payload.bytes)?;
            Ok((body, Some(dictionary)))
        }
        None => Ok((payload.bytes.clone(), None)),
    }
}

/// Measures one payload's encodings, saving and streaming each as it finishes.
fn measure_payload(
    config: &HttpConfig,
    outputs: &mut Outputs,
    report: &HttpReport,
    payload: &Payload,
    (sent, dictionary): (Vec<u8>, Option<Dictionary>),
) -> Result<HttpPayloadResult> {
    let load = config.load;
    let progress = |line: String| {
        if !config.quiet {
            super::output::say(&line);
        }
    };
    progress(format!(
        "{}: {} bytes, {} encodings over HTTP/1.1 on 127.0.0.1, {}",
        payload.name,
        thousands(payload.bytes.len() as u64),
        config.encodings.len(),
        load_label(load.concurrency, load.bandwidth_mbit),
    ));
    let mut current = HttpPayloadResult {
        payload: payload.name.clone(),
        input_bytes: sent.len() as u64,
        sha256: Some(payload::sha256_hex(&sent)),
        interrupted: false,
        encodings: Vec::new(),
    };
    let mut on_result = |r: &EncodingResult| -> Result<()> {
        let failed = match r.errors {
            0 => String::new(),
            n => format!(", {n} FAILED"),
        };
        progress(format!(
            "  {:<10} {} requests, {} req/s, p50 {} ms{failed}",
            r.encoding,
            r.requests,
            significant(r.requests_per_s, 3),
            significant(r.p50_ms, 3)
        ));
        current.encodings.push(r.clone());
        current.interrupted = interrupt::requested();
        let so_far = Subject::Http {
            report,
            current: Some(&current),
        };
        outputs.result(&so_far, current.encodings.len() - 1)
    };
    crate::http::measure::measure(&sent, dictionary, &config.encodings, load, &mut on_result)?;
    // As for `run`: a stop requested while the payload was measured marks it.
    current.interrupted = interrupt::requested();
    Ok(current)
}
