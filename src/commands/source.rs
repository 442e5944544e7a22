//! Where `recommend` and `reproduce` get their run: a saved one, or one measured now,
//! smaller bodies included where `recommend` needs them.

use super::measure::{measure_saving, prepare};
use super::outcome::{finished, outcome};
use super::output::SavedFiles;
use super::progress::Progress;
use crate::analysis::recommend::{AdviceOptions, Answer};
use crate::config::analysis::RunSource;
use crate::config::MeasureConfig;
use crate::export::exporter::Subject;
use crate::process::interrupt;
use crate::results::{self, LoadedRun};

/// The saved run `source` names, or a run it describes made now (and kept in its
/// `save` files as it goes), for `recommend` and `reproduce`; the second part is how the
/// measuring ended, to return once the analysis is printed.
///
/// With `answering` (`recommend`), a run made now gets a second look: the cells whose
/// compression time is at a budget with too few samples are measured again (see
/// [`super::settle`]), then
/// smaller bodies cut from the payloads place the minimum body sizes (see
/// [`super::bracket`]); the run holds them all.
pub(super) fn saved_or_measured(
    source: RunSource,
    answering: Option<Answering>,
) -> crate::error::Result<(LoadedRun, crate::error::Result)> {
    if let Some(path) = &source.from {
        let run = results::load(path)?;
        run.cells()?;
        return Ok((run, Ok(())));
    }
    let mut config = MeasureConfig::from_args(source.measure)?;
    config.add_one_shot_zstd(&source.one_shot_zstd);
    config.add_aspnetcore_wire(&source.aspnetcore_wire);
    let (payloads, report) = prepare(&mut config)?;
    let files = SavedFiles(source.save);
    let progress = Progress::new(config.quiet);
    let report = measure_saving(&config, &payloads, report, &progress, &files)?;
    let report = match (answering, interrupt::requested()) {
        (Some(answering), false) => {
            let settle = super::settle::Settle {
                sources: &payloads,
                options: answering.options,
                files: &files,
                progress: &progress,
            };
            let report = settle.measure(&mut config, report)?;
            let cut = super::bracket::Cut {
                sources: &payloads,
                answers: answering.answers,
                files: &files,
                progress: &progress,
            };
            cut.measure(&mut config, report)?
        }
        _ => report,
    };
    let mut out = super::output::Stdout::new();
    let whole = Subject::Run {
        report: &report,
        current: None,
    };
    finished(files.finish(&mut out, &whole))?;
    let outcome = outcome(&report, &files, config.quiet);
    Ok((LoadedRun::from_report(&report, "this run"), outcome))
}

/// What `recommend` answers from a run, for the run made now to hold what the answers
/// need.
pub(super) struct Answering<'a> {
    /// Given a run, the answers the report or the configurations give.
    pub answers: &'a dyn Fn(&LoadedRun) -> Vec<Answer>,
    /// The options they are given with.
    pub options: &'a AdviceOptions,
}
