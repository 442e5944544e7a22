//! `recommend`'s second look: the cells whose compression time holds a budget while it
//! rests on too few samples are measured again, and their new samples join the old (see
//! [`crate::analysis::recommend::close`]).

use super::measure::{measure_all, Sinks};
use super::output::SavedFiles;
use super::progress::Progress;
use crate::analysis::recommend::close::{unsettled, Unsettled};
use crate::analysis::recommend::AdviceOptions;
use crate::config::MeasureConfig;
use crate::error::Failing;
use crate::export::exporter::Subject;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::run::RunReport;
use crate::results::LoadedRun;

/// What to measure again, and where it goes.
pub(super) struct Settle<'a> {
    /// The payloads measured, by name.
    pub sources: &'a [Payload],
    /// The budgets.
    pub options: &'a AdviceOptions,
    /// Rewritten after every body.
    pub files: &'a SavedFiles,
    /// Where the bodies' progress shows.
    pub progress: &'a Progress,
}

impl Settle<'_> {
    /// `report` with every unsettled cell of its traffic measured up to
    /// [`crate::analysis::recommend::close::SETTLED_SAMPLES`] samples.
    pub(super) fn measure(
        &self,
        config: &mut MeasureConfig,
        mut report: RunReport,
    ) -> crate::error::Result<RunReport> {
        let run = LoadedRun::from_report(&report, "this run");
        let wanted = unsettled(&run, self.options);
        for again in &wanted {
            if interrupt::requested() {
                break;
            }
            report = self.measure_body(config, again, report)?;
        }
        Ok(report)
    }

    /// `report` with `again`'s cells measured again on their body.
    fn measure_body(
        &self,
        config: &mut MeasureConfig,
        again: &Unsettled,
        mut report: RunReport,
    ) -> crate::error::Result<RunReport> {
        let (Some(payload), Some(index)) = (
            self.sources.iter().find(|p| p.name == again.payload),
            report
                .payloads
                .iter()
                .position(|p| p.payload == again.payload),
        ) else {
            return Ok(report); // a body of another run: nothing to measure it on
        };
        self.announce(again);
        let empty = RunReport {
            payloads: Vec::new(),
            ..report.clone()
        };
        let measured = config
            .measuring_again(&again.cells, again.more_samples, |narrowed| {
                measure_all(
                    narrowed,
                    std::slice::from_ref(payload),
                    empty,
                    self.progress,
                    Sinks {
                        cell: &mut |_, _, _| Ok(()),
                        payload: &mut |_, _| Ok(()),
                    },
                )
            })
            .failing()?;
        if let Some(more) = measured.payloads.first() {
            report.payloads[index].add_samples(more);
        }
        self.files
            .write(&Subject::Run {
                report: &report,
                current: None,
            })
            .failing()?;
        Ok(report)
    }

    /// The line that says what is measured again, and why.
    fn announce(&self, again: &Unsettled) {
        let names: Vec<String> = again
            .cells
            .iter()
            .map(crate::export::recommend::names::deployable)
            .collect();
        self.progress.line(&format!(
            "codecbench: measuring {} again on {} ({} more samples each way): their compression time is at a budget",
            crate::format::list(&names),
            again.payload,
            again.more_samples,
        ));
    }
}
