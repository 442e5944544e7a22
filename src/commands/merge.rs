//! `codecbench merge`: several runs side by side.

use anyhow::anyhow;

use super::output::print;
use crate::analysis::merge::merge;
use crate::cli::MergeFormat;
use crate::config::compare::MergeConfig;
use crate::error::Failing;
use crate::export::{merged, render, Style};
use crate::results;

/// Merges the runs `config` names.
pub fn run(config: MergeConfig) -> crate::error::Result {
    let runs = config
        .runs
        .iter()
        .map(|path| results::load(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (codec, level) = config.reference;
    let merged = merge(&runs, codec, level);
    let bytes = match config.format {
        MergeFormat::Table => render(&merged::document(&merged), Style::Terminal),
        MergeFormat::Markdown => render(&merged::document(&merged), Style::Markdown),
        // One CSV has one set of columns: codec runs and `http` runs each have theirs.
        MergeFormat::Csv => match (merged.rows.is_empty(), merged.http_rows.is_empty()) {
            (false, false) => {
                return Err(anyhow!(
                    "merge --format csv takes runs of one kind: these mix `run` and `http` results; merge them separately"
                )
                .into())
            }
            (true, false) => merged::render_http_csv(&merged),
            _ => merged::render_csv(&merged),
        },
    };
    print(&bytes).failing()
}
