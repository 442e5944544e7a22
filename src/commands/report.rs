//! `codecbench report`: saved runs as one HTML page.

use super::output::write_file;
use crate::analysis::compare::compare;
use crate::analysis::history::history;
use crate::analysis::recommend::{advise, answers, AdviceOptions};
use crate::analysis::reproduce::check;
use crate::config::analysis::ReportConfig;
use crate::error::Failing as _;
use crate::export::html::{render, ReportPage, RunSection};
use crate::results::{self, Results};

/// Reads the runs (and the baseline), judges the first against it, and writes the page.
pub(super) fn run(config: ReportConfig) -> crate::error::Result {
    let runs = config
        .runs
        .iter()
        .map(|path| results::load(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let baseline = config.baseline.as_deref().map(results::load).transpose()?;
    let comparison = baseline
        .as_ref()
        .map(|base| compare(base, &runs[0], &config.options))
        .transpose()?;
    let options = AdviceOptions::default();
    let sections = runs
        .iter()
        .map(|run| {
            // What to deploy and the article's claims are about `run` results only.
            let (answers, advice, claims) = match run.results {
                Results::Codec { .. } => {
                    (answers(run, &options), advise(run, &options), check(run))
                }
                Results::Http { .. } | Results::Probe { .. } => Default::default(),
            };
            RunSection {
                run,
                answers,
                advice,
                options: &options,
                claims,
            }
        })
        .collect();
    let history = history(&runs.iter().collect::<Vec<_>>(), config.options.threshold);
    let page = ReportPage {
        sections,
        history,
        comparison: baseline.as_ref().zip(comparison.as_ref()),
    };
    let bytes = render(&page);
    write_file(&config.out, &bytes).failing()?;
    println!(
        "{}: {} KiB",
        config.out.display(),
        bytes.len().div_ceil(1024)
    );
    Ok(())
}
