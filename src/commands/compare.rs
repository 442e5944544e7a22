//! `codecbench compare`: judge a candidate run against a baseline.

use super::output::{print, write_file};
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
    baseline.refuse_duplicates()?;
    candidate.refuse_duplicates()?;
    let outcome = compare(&baseline, &candidate, &config.options)?;
    let subject = Subject::Comparison(&outcome);
    if let Some(html) = &config.html {
        let page = crate::export::html::comparison_page(&baseline, &candidate, &outcome);
        write_file(html, &page).failing()?;
    }
    let bytes = exporter(config.format).export(&subject)?;
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
