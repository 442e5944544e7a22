//! A measuring session: every payload measured in turn, in this process or in worker
//! processes ([`super::workers`]), its instructions counted first where asked
//! ([`super::instructions`]). The caller hears of each step through an [`Observer`], as
//! criterion's `Report` and ripgrep's `Sink` tell theirs, and never drives the pieces.
//!
//! A stop request (Ctrl-C, SIGTERM) ends the session after the iteration in flight; the
//! report then holds what was finished.

use std::collections::HashMap;

use anyhow::Result;

use super::instructions::{self, Counts};
use super::method::Method;
use super::runner::SystemClock;
use super::schedule::Plan;
use super::settings::CodecSetting;
use super::workers::measure_in_processes;
use super::{run_payload, Step};
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::run::{PayloadResult, RunReport};
use crate::vocab::CellId;

/// What to measure each payload with.
#[derive(Clone, Copy)]
pub(crate) struct Session<'a> {
    /// The settings, made ready.
    pub settings: &'a [CodecSetting],
    /// How each payload is measured.
    pub method: Method,
    /// With `--measure instructions`: counted calls each way.
    pub counted_calls: Option<u32>,
}

/// What a session tells its caller. Every method has a default that ignores the news;
/// an error from [`Observer::cell`] or [`Observer::finished`] stops the session.
pub(crate) trait Observer {
    /// `payload`'s instructions are about to be counted, `cells` of them.
    fn counting(&self, _payload: &Payload, _cells: usize) {}
    /// One cell was counted, or could not be (it is then left out).
    fn counted(&self, _id: CellId, _counted: &Result<Counts>) {}
    /// `payload` is about to be measured under `plan`: `cells` cells, `steps`
    /// cells·rounds over every process.
    fn started(&self, _payload: &Payload, _plan: Plan, _cells: usize, _steps: u64) {}
    /// About to measure `step`.
    fn step(&self, _step: &Step) {}
    /// A cell finished: the payload so far, with the new cell at `new`.
    fn cell(&self, _report: &RunReport, _so_far: &PayloadResult, _new: usize) -> Result<()> {
        Ok(())
    }
    /// A payload finished and joined `report`; `last` when no other follows.
    fn finished(&self, _report: &RunReport, _last: bool) -> Result<()> {
        Ok(())
    }
}

impl Session<'_> {
    /// Every cell of the session, in order.
    pub(crate) fn cells(&self) -> usize {
        self.settings.iter().map(|s| s.levels.len()).sum()
    }

    /// The cells·rounds measuring a body of `bytes` takes, every process's.
    pub(crate) fn steps(&self, bytes: usize) -> u64 {
        steps_of(self.method.plan(bytes), self.cells())
    }

    /// `payloads` measured into `report`, one after another.
    pub(crate) fn measure(
        &self,
        payloads: &[Payload],
        mut report: RunReport,
        observer: &dyn Observer,
    ) -> Result<RunReport> {
        for (index, payload) in payloads.iter().enumerate() {
            if interrupt::requested() {
                break;
            }
            let plan = self.method.plan(payload.bytes.len());
            let counts = self.count(payload, observer)?;
            observer.started(payload, plan, self.cells(), steps_of(plan, self.cells()));
            let mut on_cell = |so_far: &PayloadResult, new: usize| -> Result<()> {
                match &counts {
                    Some(counts) => {
                        let mut counted = so_far.clone();
                        instructions::fill(&mut counted, counts);
                        observer.cell(&report, &counted, new)
                    }
                    None => observer.cell(&report, so_far, new),
                }
            };
            let mut result = self.measure_payload(payload, plan, observer, &mut on_cell)?;
            result.content_type = payload.content_type.clone();
            if let Some(counts) = &counts {
                instructions::fill(&mut result, counts);
            }
            report.payloads.push(result);
            let last = index + 1 == payloads.len() || interrupt::requested();
            observer.finished(&report, last)?;
        }
        Ok(report)
    }

    /// With counted calls, every cell's counts on `payload`, by cell.
    fn count(
        &self,
        payload: &Payload,
        observer: &dyn Observer,
    ) -> Result<Option<HashMap<CellId, Counts>>> {
        let Some(calls) = self.counted_calls else {
            return Ok(None);
        };
        observer.counting(payload, self.cells());
        let mut on_cell = |id: CellId, counted: &Result<Counts>| observer.counted(id, counted);
        let counts =
            instructions::count_payload(calls, &payload.bytes, self.settings, &mut on_cell)?;
        Ok(Some(counts))
    }

    /// `payload` timed under `plan`, here or in workers, each finished cell passed to
    /// `on_cell` (with workers, all of them once the last has ended).
    fn measure_payload(
        &self,
        payload: &Payload,
        plan: Plan,
        observer: &dyn Observer,
        on_cell: &mut dyn FnMut(&PayloadResult, usize) -> Result<()>,
    ) -> Result<PayloadResult> {
        let on_step = |step: Step| observer.step(&step);
        if plan.processes == 1 {
            let clock = SystemClock::new();
            let (name, body) = (&payload.name, &payload.bytes);
            let mut on_step = on_step;
            return run_payload(
                name,
                body,
                self.settings,
                plan,
                &clock,
                &mut on_step,
                on_cell,
            );
        }
        let pooled = measure_in_processes(self.settings, payload, plan, &on_step)?;
        let mut so_far = PayloadResult {
            cells: Vec::new(),
            ..pooled.clone()
        };
        for cell in pooled.cells.iter().cloned() {
            so_far.cells.push(cell);
            on_cell(&so_far, so_far.cells.len() - 1)?;
        }
        Ok(pooled)
    }
}

/// The cells·rounds of `cells` cells under `plan`, every process's.
fn steps_of(plan: Plan, cells: usize) -> u64 {
    let rounds: u32 = plan.rounds_of_each().iter().sum();
    cells as u64 * u64::from(rounds)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::bench::method::Processes;
    use crate::bench::schedule::Iterations;
    use crate::vocab::CodecKind;

    /// Writes down what it hears, in order.
    #[derive(Default)]
    struct Recorder(RefCell<Vec<String>>);

    impl Observer for Recorder {
        fn started(&self, payload: &Payload, plan: Plan, cells: usize, steps: u64) {
            let rounds = plan.rounds;
            let news = format!(
                "started {} {cells} cells {rounds} rounds {steps} steps",
                payload.name
            );
            self.0.borrow_mut().push(news);
        }
        fn step(&self, step: &Step) {
            let news = format!("step {}/{} {}", step.round, step.cell, step.label);
            self.0.borrow_mut().push(news);
        }
        fn cell(&self, report: &RunReport, so_far: &PayloadResult, new: usize) -> Result<()> {
            let id = so_far.cells[new].id;
            let news = format!("cell {id} after {} payloads", report.payloads.len());
            self.0.borrow_mut().push(news);
            Ok(())
        }
        fn finished(&self, report: &RunReport, last: bool) -> Result<()> {
            let news = format!("finished {} payloads, last {last}", report.payloads.len());
            self.0.borrow_mut().push(news);
            Ok(())
        }
    }

    #[test]
    fn the_observer_hears_each_payload_step_and_cell_in_order() {
        let settings = [CodecSetting {
            codec: crate::codec::server_codec(CodecKind::Zstd),
            levels: vec![1, 3],
        }];
        let session = Session {
            settings: &settings,
            method: Method {
                warmup: 0,
                rounds: 1,
                iterations: Some(Iterations::Fixed(1)),
                precision: None,
                processes: Processes::Fixed(1),
            },
            counted_calls: None,
        };
        let body = |name: &str| Payload {
            name: name.into(),
            bytes: br#"[{"id":1},{"id":2}]"#.to_vec(),
            content_type: None,
        };
        let report = RunReport {
            schema_version: crate::results::run::SCHEMA_VERSION,
            environment: crate::results::environment::Environment::current(),
            seed: 42,
            rng: "dotnet".into(),
            payloads: Vec::new(),
            instructions: None,
        };
        let recorder = Recorder::default();
        let measured = session
            .measure(&[body("a"), body("b")], report, &recorder)
            .unwrap();
        assert_eq!(measured.payloads.len(), 2);
        let version = crate::codec::server_codec(CodecKind::Zstd).version();
        let heard = recorder.0.into_inner();
        let expected = [
            "started a 2 cells 1 rounds 2 steps".to_string(),
            format!("step 0/0 a zstd 1 (libzstd {version})"),
            "cell zstd 1 (libzstd) after 0 payloads".into(),
            format!("step 0/1 a zstd 3 (libzstd {version})"),
            "cell zstd 3 (libzstd) after 0 payloads".into(),
            "finished 1 payloads, last false".into(),
        ];
        assert_eq!(heard[..6], expected);
        assert_eq!(heard.last().unwrap(), "finished 2 payloads, last true");
    }
}
