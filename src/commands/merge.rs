//! `codecbench merge`: several runs side by side.

use super::output::print;
use crate::analysis::merge::merge;
use crate::config::compare::MergeConfig;
use crate::error::Failing;
use crate::export::exporter::{exporter, Subject};
use crate::results;

/// Merges the runs `config` names.
pub(super) fn run(config: MergeConfig) -> crate::error::Result {
    let runs = config
        .runs
        .iter()
        .map(|path| {
            let run = results::load(path)?;
            run.refuse_duplicates()?;
            Ok(run)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (codec, level) = config.reference;
    let merged = merge(&runs, codec, level);
    let bytes = exporter(config.format).export(&Subject::Merged(&merged))?;
    print(&bytes).failing()
}
