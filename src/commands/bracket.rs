//! `recommend`'s smaller bodies: cut from the smallest payload, measured one at a time with
//! only the settings the answers use, in the order bisection picks, until every minimum
//! body size is bracketed (see [`crate::analysis::recommend::bracket`]).

use super::measure::{measure_saving, steps};
use super::output::SavedFiles;
use super::progress::Progress;
use crate::analysis::recommend::bracket::{most_left, next_size, open_intervals, settings};
use crate::analysis::recommend::Answer;
use crate::config::MeasureConfig;
use crate::error::Failing;
use crate::export::exporter::Subject;
use crate::payload::{smaller::smaller_bodies, Payload};
use crate::process::interrupt;
use crate::results::run::RunReport;
use crate::results::LoadedRun;
use crate::vocab::CellId;

/// Where the smaller bodies come from, what they are for, and where they go.
pub(super) struct Cut<'a> {
    /// The smallest payload measured: the bodies are cut from it.
    pub source: &'a Payload,
    /// The answers whose minimum body sizes the bodies place, given the run so far.
    pub answers: &'a dyn Fn(&LoadedRun) -> Vec<Answer>,
    /// Rewritten after every cell.
    pub files: &'a SavedFiles,
    /// Counts the bodies as one span, so that its ETA is for all of them.
    pub progress: &'a Progress,
}

impl Cut<'_> {
    /// `report` with the smaller bodies measured after its payloads, as many as bisection
    /// needs (none when the sizes measured already bracket every minimum). The first
    /// body narrows `config` to the settings the answers use.
    pub(super) fn measure(
        &self,
        config: &mut MeasureConfig,
        mut report: RunReport,
    ) -> crate::error::Result<RunReport> {
        let mut left = smaller_bodies(self.source);
        let (traffic, cuts) = (report.payloads.len(), left.len());
        let (mut done, mut narrowed) = (0u64, false);
        while !interrupt::requested() {
            let answers = (self.answers)(&LoadedRun::from_report(&report, "this run"));
            let intervals = open_intervals(&answers);
            let sizes: Vec<u64> = left.iter().map(|b| b.bytes.len() as u64).collect();
            let Some(next) = next_size(&intervals, &sizes) else {
                break;
            };
            let most = most_left(&intervals, &sizes);
            if !narrowed {
                let settings = settings(&answers);
                config.for_bracket(&settings);
                self.announce(config, &settings, most, cuts);
                narrowed = true;
            }
            let body = left.remove(sizes.iter().position(|&s| s == next).unwrap_or(0));
            let body_steps = steps(config, body.bytes.len());
            self.progress.span(done, done + most as u64 * body_steps);
            report = measure_saving(
                config,
                std::slice::from_ref(&body),
                report,
                self.progress,
                self.files,
            )?;
            for cut in &mut report.payloads[traffic..] {
                cut.cut_from = Some(self.source.name.clone());
            }
            done += body_steps;
        }
        if report.payloads.len() > traffic {
            let whole = Subject::Run {
                report: &report,
                current: None,
            };
            self.files.write(&whole).failing()?;
        }
        Ok(report)
    }

    /// The line that says what is measured and why.
    fn announce(&self, config: &MeasureConfig, settings: &[CellId], most: usize, cuts: usize) {
        if config.quiet {
            return;
        }
        let names: Vec<String> = settings
            .iter()
            .map(crate::export::recommend::answer::deployable)
            .collect();
        super::output::say(format_args!(
            "codecbench: placing the minimum body sizes: measuring {} on at most {} of {} cut from {}, by bisection",
            crate::format::list(&names),
            most,
            crate::format::counted(cuts as u64, "smaller body", "smaller bodies"),
            self.source.name,
        ));
    }
}
