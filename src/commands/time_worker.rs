//! The hidden `time-worker` command: one child of `run --processes`, timing its share of
//! a payload (see [`crate::bench::workers`]).

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::bench::runner::SystemClock;
use crate::bench::settings::make_ready;
use crate::bench::workers::step_line;
use crate::bench::{run_payload, Step};
use crate::config::TimeWorkerConfig;
use crate::error::Failing;
use crate::results::run::PayloadResult;

/// The hidden child: measures its share of the body with the run's settings, printing
/// each step on stdout, and writes the result as JSON, also when a stop cut it short.
pub(super) fn run(mut config: TimeWorkerConfig) -> crate::error::Result {
    let body = std::fs::read(&config.input)
        .with_context(|| format!("cannot read {}", config.input.display()))
        .failing()?;
    let measure = &mut config.measure;
    make_ready(&mut measure.settings, measure.dictionaries.as_ref()).failing()?;
    let plan = measure.method.plan(body.len());
    let Some(share) = plan.share(config.process) else {
        return Err(anyhow::anyhow!("process {} has no iterations", config.process).into());
    };
    let mut on_step = |step: Step| println!("{}", step_line(&step));
    let mut on_cell = |_: &PayloadResult, _: usize| Ok(());
    let clock = SystemClock::new();
    let result = run_payload(
        &config.name,
        &body,
        &measure.settings,
        share,
        &clock,
        &mut on_step,
        &mut on_cell,
    )
    .failing()?;
    write_result(&config.output, &result).failing()
}

/// `result` as JSON at `path`.
fn write_result(path: &Path, result: &PayloadResult) -> Result<()> {
    let json = serde_json::to_vec(result)?;
    std::fs::write(path, json).with_context(|| format!("cannot write {}", path.display()))
}
