//! `codecbench compare`: judge a candidate run against a baseline.

use super::output::print;
use crate::analysis::compare::compare;
use crate::config::compare::CompareConfig;
use crate::error::{Error, Failing};
use crate::export::compare::notes;
use crate::export::exporter::{exporter, Subject};
use crate::results;

/// Compares the runs `config` names; a comparison that fails the job is a failure.
pub(super) fn run(config: CompareConfig) -> crate::error::Result {
    let baseline = results::load(&config.baseline)?;
    let candidate = results::load(&config.candidate)?;
    let outcome = compare(&baseline, &candidate, &config.options)?;
    let bytes = exporter(config.format).export(&Subject::Comparison(&outcome))?;
    print(&bytes).failing()?;
    match notes::failure_lines(&outcome).as_slice() {
        [] => Ok(()),
        reasons => Err(Error::failed(format!(
            "{} against {}: {}",
            outcome.candidate,
            outcome.baseline,
            reasons.join(", ")
        ))),
    }
}
