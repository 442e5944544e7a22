//! `codecbench probe`: each URL of a live server, every Accept-Encoding, printed and kept.

use super::output::{print, SavedFiles, Stdout};
use crate::config::probe::ProbeConfig;
use crate::error::{Error, Failing};
use crate::export::exporter::{exporter, Subject};
use crate::live::url::Probing;
use crate::process::interrupt;
use crate::results::environment::Environment;
use crate::results::probe::{ProbeReport, PROBE_KIND};
use crate::results::run::SCHEMA_VERSION;

/// Probes every URL of `config`; a failed row is a failure (exit 1).
pub(super) fn run(config: ProbeConfig) -> crate::error::Result {
    let mut report = ProbeReport {
        schema_version: SCHEMA_VERSION,
        kind: PROBE_KIND.to_string(),
        environment: Environment::current(),
        requests: config.load.requests,
        duration_s: config.load.duration.as_secs_f64(),
        concurrency: config.load.concurrency,
        server: config.server.map(|s| s.name().to_string()),
        urls: Vec::new(),
        interrupted: false,
    };
    for target in &config.targets {
        if interrupt::requested() {
            break;
        }
        if !config.quiet {
            super::output::say(format_args!(
                "{}: {} requests per Accept-Encoding",
                target.url, config.load.requests
            ));
        }
        let probing = Probing {
            headers: &config.headers,
            load: config.load,
            server: config.server,
            dictionary: config.dictionary.as_deref(),
        };
        let url = crate::live::url::probe_url(target, probing);
        report.urls.push(url);
    }
    report.interrupted = interrupt::requested();
    let subject = Subject::Probe(&report);
    let files = SavedFiles(config.exports.clone());
    files.write(&subject).failing()?;
    files.finish(&mut Stdout::new(), &subject).failing()?;
    print(&exporter(config.format).export(&subject)?).failing()?;
    if interrupt::requested() && !interrupt::by_closed_stdout() {
        return Err(Error::Interrupted(format!(
            "the URLs probed so far are {}",
            files.whereabouts()
        )));
    }
    super::outcome::named_failures(&report.failures(), |n| {
        format!(
            "{} failed",
            crate::format::counted(n as u64, "probe", "probes")
        )
    })
}
