//! `recommend`'s smaller bodies: cut from the body at the upper end of each wide bracket,
//! measured one at a time with only the settings the answers use, in the order bisection
//! picks, until every minimum body size is bracketed as narrowly as is worth (see
//! [`crate::analysis::recommend::bracket`]).

use super::measure::measure_saving;
use super::output::SavedFiles;
use super::progress::Progress;
use crate::analysis::recommend::bracket::{most_left, next_cut, open_intervals, settings};
use crate::analysis::recommend::Answer;
use crate::config::MeasureConfig;
use crate::error::Failing;
use crate::export::exporter::Subject;
use crate::payload::smaller::cut_wanted;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::run::RunReport;
use crate::results::LoadedRun;
use crate::vocab::CellId;

/// Where the smaller bodies come from, what they are for, and where they go.
pub(super) struct Cut<'a> {
    /// The payloads measured: the bodies are cut from them.
    pub sources: &'a [Payload],
    /// The answers whose minimum body sizes the bodies place, given the run so far.
    pub answers: &'a dyn Fn(&LoadedRun) -> Vec<Answer>,
    /// Rewritten after every cell.
    pub files: &'a SavedFiles,
    /// Counts the bodies as one span, so that its ETA is for all of them.
    pub progress: &'a Progress,
}

impl Cut<'_> {
    /// `report` with the smaller bodies measured after its payloads, as many as bisection
    /// needs (none when the sizes measured already bracket every minimum narrowly). The
    /// first body narrows `config` to the settings the answers use.
    pub(super) fn measure(
        &self,
        config: &mut MeasureConfig,
        mut report: RunReport,
    ) -> crate::error::Result<RunReport> {
        // Each body measured, with the payload it is (or was cut from).
        let mut sized: Vec<(u64, &Payload)> = self
            .sources
            .iter()
            .map(|p| (p.bytes.len() as u64, p))
            .collect();
        let (traffic, mut given_up, mut done) = (report.payloads.len(), Vec::new(), 0u64);
        let mut narrowed = false;
        while !interrupt::requested() {
            let answers = (self.answers)(&LoadedRun::from_report(&report, "this run"));
            let intervals = open_intervals(&answers);
            let cuts = report.payloads.len() - traffic;
            let Some((interval, size)) = next_cut(&intervals, &given_up) else {
                break;
            };
            let most = most_left(&intervals, &given_up, cuts);
            let from = sized
                .iter()
                .find(|(s, _)| *s == interval.1)
                .map(|(_, p)| *p);
            // Above the bracket's lower end, at a size not measured yet.
            let wanted =
                |n: usize| n as u64 > interval.0 && sized.iter().all(|(s, _)| *s != n as u64);
            let body =
                from.and_then(|from| Some((from, cut_wanted(from, size as usize, &wanted)?)));
            let (Some((from, body)), true) = (body, most > 0) else {
                given_up.push(interval);
                continue;
            };
            if !narrowed {
                let settings = settings(&answers);
                config.for_bracket(&settings);
                self.announce(config, &settings, most);
                narrowed = true;
            }
            let body_steps = config.session().steps(body.bytes.len());
            self.progress.span(done, done + most as u64 * body_steps);
            report = measure_saving(
                config,
                std::slice::from_ref(&body),
                report,
                self.progress,
                self.files,
            )?;
            if let Some(cut) = report.payloads.last_mut() {
                cut.cut_from = Some(from.name.clone());
            }
            sized.push((body.bytes.len() as u64, from));
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
    fn announce(&self, config: &MeasureConfig, settings: &[CellId], most: usize) {
        if config.quiet {
            return;
        }
        let names: Vec<String> = settings
            .iter()
            .map(crate::export::recommend::names::deployable)
            .collect();
        super::output::say(format_args!(
            "codecbench: placing the minimum body sizes: measuring {} on up to {} cut from the bodies at each bracket's upper end, by bisection",
            crate::format::list(&names),
            crate::format::counted(most as u64, "smaller body", "smaller bodies"),
        ));
    }
}
