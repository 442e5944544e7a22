//! `codecbench pool`: runs of one command line pooled into one, as `run --processes`
//! pools its processes.

use super::outcome::outcome;
use super::output::{print, SavedFiles, Stdout};
use crate::config::compare::PoolConfig;
use crate::error::Failing;
use crate::export::exporter::{exporter, Subject};
use crate::results::{self, run::RunReport};

/// Pools the runs `config` names, prints the pooled run and saves it.
pub(super) fn run(config: PoolConfig) -> crate::error::Result {
    let runs = config
        .runs
        .iter()
        .map(|path| Ok((path.display().to_string(), results::load_report(path)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let pooled = RunReport::pooled(runs)?;
    let subject = Subject::Run {
        report: &pooled,
        current: None,
    };
    print(&exporter(config.format).export(&subject)?).failing()?;
    let files = SavedFiles(config.exports);
    files.write(&subject).failing()?;
    files.finish(&mut Stdout::new(), &subject).failing()?;
    outcome(&pooled, &files, config.quiet)
}
