//! `codecbench ab`: this build and a baseline measured cell by cell in turn, then the
//! verdicts printed and saved.

use std::time::{Duration, Instant};

use super::measure::prepare;
use super::output::{print, write_file};
use super::progress::Progress;
use crate::bench::ab::pairs::{measure_pairs, AbObserver, Builds, Ended};
use crate::bench::ab::worker::BuildWorker;
use crate::bench::protocol::BodyFile;
use crate::bench::workers::ChildBody;
use crate::config::AbConfig;
use crate::error::{Error, Failing};
use crate::export::exporter::Format;
use crate::export::text::document::Style;
use crate::export::text::draw::render;
use crate::results::ab::AbReport;
use crate::results::environment::Environment;

/// Progress on stderr: one line per round of pairs.
struct Rounds<'a>(&'a Progress);

impl AbObserver for Rounds<'_> {
    fn round(&self, round: usize, cells: usize, elapsed: Duration) {
        self.0.line(&format!(
            "pair {}: {} open, {:.0} s",
            round + 1,
            crate::format::count(cells as u64, "cell"),
            elapsed.as_secs_f64()
        ));
    }
}

/// Runs `config`.
pub(super) fn run(mut config: AbConfig) -> crate::error::Result {
    // Both builds' workers inherit this thread's CPU, so that they run on the same one:
    // on a VM, two logical CPUs can differ by half in speed for minutes (docs/ab.md).
    if config.measure.pin.is_none() {
        let cpus = core_affinity::get_core_ids().unwrap_or_default();
        config.measure.pin = cpus.last().map(|cpu| cpu.id);
    }
    let (payloads, report) = prepare(&mut config.measure)?;
    let bodies: Vec<ChildBody> = payloads
        .iter()
        .map(|p| ChildBody::new(&p.bytes))
        .collect::<anyhow::Result<_>>()
        .failing()?;
    let files: Vec<(&crate::payload::Payload, BodyFile)> = payloads
        .iter()
        .zip(&bodies)
        .map(|(p, body)| (p, BodyFile::of(&p.name, body.input.clone(), &p.bytes)))
        .collect();
    let exe = bodies.first().map(|b| b.exe.clone());
    let Some(exe) = exe else {
        return Err(anyhow::anyhow!("no payload to measure").into());
    };
    let mut builds = Builds {
        candidate: BuildWorker::new(exe, true),
        baseline: BuildWorker::new(config.baseline.clone(), false),
    };
    let progress = Progress::new(config.measure.quiet);
    let started = Instant::now();
    let settings = &config.measure.settings;
    let (cells, ended) = measure_pairs(
        settings,
        &files,
        &config.plan,
        &mut builds,
        &Rounds(&progress),
    )
    .failing()?;
    let ab = AbReport {
        // The hook reaches the candidate's workers only; `calibration` says so.
        environment: Environment {
            calibration: None,
            ..report.environment
        },
        baseline: config.baseline.display().to_string(),
        baseline_protocol: builds.baseline.protocol(),
        baseline_build: builds.baseline.build().cloned(),
        threshold: config.plan.threshold,
        sight_target: config.plan.sight,
        calibration: crate::bench::calibrate::described(),
        seconds: started.elapsed().as_secs_f64(),
        interrupted: ended == Ended::Stopped,
        out_of_time: matches!(ended, Ended::OutOfTime(_)),
        cells,
    };
    save(&ab, &config)?;
    let document = crate::export::ab::document(&ab);
    let shown = match config.format {
        Format::Json => crate::export::ab::json(&ab),
        Format::Markdown => render(&document, Style::Markdown),
        Format::Table | Format::Csv => render(&document, Style::Terminal),
    };
    print(&shown).failing()?;
    outcome(&ab, ended, &config)
}

/// The exit: interrupted, cells the time left unmeasured, or cells that failed.
fn outcome(ab: &AbReport, ended: Ended, config: &AbConfig) -> crate::error::Result {
    if ab.interrupted {
        return Err(Error::Interrupted(
            "the verdicts above rest on the pairs finished".into(),
        ));
    }
    if let Ended::OutOfTime(unmeasured @ 1..) = ended {
        return Err(Error::failed(format!(
            "{} not measured within --max-time {} s",
            crate::format::count(unmeasured as u64, "cell"),
            config.plan.max_time.as_secs_f64()
        )));
    }
    match ab.failures().len() {
        0 => Ok(()),
        n => Err(Error::failed(format!(
            "{n} of {} failed: slower, with a size drift or a failed round trip",
            crate::format::count(ab.cells.len() as u64, "cell")
        ))),
    }
}

/// The JSON, Markdown and HTML files asked for.
fn save(ab: &AbReport, config: &AbConfig) -> crate::error::Result {
    if let Some(path) = &config.exports.json {
        write_file(path, &crate::export::ab::json(ab)).failing()?;
    }
    if let Some(path) = &config.exports.markdown {
        let document = crate::export::ab::document(ab);
        write_file(path, &render(&document, Style::Markdown)).failing()?;
    }
    if let Some(path) = &config.exports.html {
        write_file(path, &crate::export::html::ab_page(ab)).failing()?;
    }
    Ok(())
}
