//! One payload's rounds: every cell visited in each, cells joining the result in the
//! order given, and a stop request ending the payload after the iteration in flight.

use std::collections::BTreeMap;

use super::runner::{CellRun, Clock};
use super::schedule::{Iterations, Plan};
use super::settings::{cells, CodecSetting};
use crate::codec::Codec;
use crate::process::interrupt;
use crate::results::run::{CellResult, PayloadResult};

/// Where a payload's measurement is, for progress display: about to measure `cell` of
/// `cells` in `round` of `rounds` (both from 0).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Step {
    /// Round, from 0.
    pub round: usize,
    /// Rounds in all.
    pub rounds: usize,
    /// Cell, from 0.
    pub cell: usize,
    /// Cells per round.
    pub cells: usize,
    /// e.g. `small zstd 3 (libzstd 1.5.7)`.
    pub label: String,
}

/// A payload name short enough for a progress line: a file's name without its directory.
fn payload_label(name: &str) -> &str {
    std::path::Path::new(name)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(name)
}

/// Measures every codec × level on one payload, in `plan.rounds` rounds that each visit
/// every cell (see [`super::runner`]), and with a precision further rounds for the cells that
/// need them. The rounds stop as soon as every cell is done. Cells join the result in the
/// order they were given, whatever order they finish in (a cell that finishes before an
/// earlier one waits for it), and `on_cell` sees the result so far with the new cell's
/// index in it, so the caller can print the cell and save everything finished. An error
/// from `on_cell` stops the payload and is returned.
///
/// A stop request ([`interrupt`]) ends the payload after the iteration in flight: cells
/// with samples in both directions join the result with what they have, the rest are
/// dropped, and the result is marked `interrupted`.
pub(crate) fn run_payload(
    name: &str,
    input: &[u8],
    settings: &[CodecSetting],
    plan: Plan,
    clock: &dyn Clock,
    on_step: &mut dyn FnMut(Step),
    on_cell: &mut dyn FnMut(&PayloadResult, usize) -> anyhow::Result<()>,
) -> anyhow::Result<PayloadResult> {
    let mut result = PayloadResult::planned(name, input, plan);
    result.sha256 = Some(crate::payload::sha256_hex(input));
    let cells = cells(settings);
    let mut payload = PayloadRounds {
        name,
        input,
        plan,
        cells: &cells,
        runs: cells.iter().map(|_| None).collect(),
        done: vec![false; cells.len()],
        waiting: BTreeMap::new(),
        next: 0,
    };
    // Each cell says when it is done (its planned rounds, or its precision), so the
    // rounds end as soon as every cell is.
    for round in 0.. {
        payload.round(round, clock, &mut result, on_step, on_cell)?;
        if interrupt::requested() || payload.done.iter().all(|&d| d) {
            break;
        }
    }
    if interrupt::requested() {
        result.interrupted = true;
        for index in payload.next..cells.len() {
            let waiting = payload.waiting.remove(&index);
            let partial = payload.runs[index].take().filter(|run| run.has_samples());
            if let Some(cell) = waiting.or_else(|| partial.map(CellRun::finish)) {
                result.cells.push(cell);
                on_cell(&result, result.cells.len() - 1)?;
            }
        }
    }
    Ok(result)
}

/// One payload's cells as they are measured.
struct PayloadRounds<'a> {
    name: &'a str,
    input: &'a [u8],
    plan: Plan,
    cells: &'a [(&'a dyn Codec, i32)],
    runs: Vec<Option<CellRun<'a>>>,
    done: Vec<bool>,
    /// Cells that finished before an earlier one, by index, waiting for it.
    waiting: BTreeMap<usize, CellResult>,
    /// The index of the next cell to join the result.
    next: usize,
}

impl<'a> PayloadRounds<'a> {
    /// Hands the finished cell `index` on, with every waiting cell it lets through, in
    /// the order the cells were given.
    fn finished(
        &mut self,
        result: &mut PayloadResult,
        index: usize,
        cell: CellResult,
        on_cell: &mut dyn FnMut(&PayloadResult, usize) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        self.waiting.insert(index, cell);
        while let Some(cell) = self.waiting.remove(&self.next) {
            result.cells.push(cell);
            self.next += 1;
            on_cell(result, result.cells.len() - 1)?;
        }
        Ok(())
    }

    /// Measures round `round` of every cell not yet done.
    fn round(
        &mut self,
        round: usize,
        clock: &dyn Clock,
        result: &mut PayloadResult,
        on_step: &mut dyn FnMut(Step),
        on_cell: &mut dyn FnMut(&PayloadResult, usize) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let (input, plan) = (self.input, self.plan);
        for (index, &(codec, level)) in self.cells.iter().enumerate() {
            if interrupt::requested() {
                return Ok(());
            }
            if self.done[index] {
                continue;
            }
            on_step(Step {
                round,
                rounds: plan.rounds.max(1) as usize,
                cell: index,
                cells: self.cells.len(),
                label: format!(
                    "{} {} {level} ({})",
                    payload_label(self.name),
                    codec.kind().name(),
                    codec.label()
                ),
            });
            let run = self.runs[index]
                .get_or_insert_with(|| CellRun::start(codec, level, input, &plan, clock));
            run.measure_round(round, clock);
            if interrupt::requested() {
                return Ok(()); // the round may have stopped early: the caller judges it
            }
            if run.done_after(round) {
                let cell = self.runs[index].take().expect("measured above").finish();
                self.done[index] = true;
                self.finished(result, index, cell, on_cell)?;
            }
        }
        Ok(())
    }
}

impl PayloadResult {
    /// A result with no cells yet, for `input` measured under `plan`; the body's hash is
    /// left for the measurement to fill, so that describing a plan costs nothing.
    pub(crate) fn planned(name: &str, input: &[u8], plan: Plan) -> Self {
        PayloadResult {
            payload: name.to_string(),
            input_bytes: input.len() as u64,
            sha256: None,
            warmup: plan.warmup,
            iterations: match plan.iterations {
                Iterations::Fixed(count) => Some(count),
                Iterations::Budget { .. } => None,
            },
            min_time_s: match plan.iterations {
                Iterations::Budget { min_time, .. } => Some(min_time.as_secs_f64()),
                Iterations::Fixed(_) => None,
            },
            // Each process's, as a pooled result records them.
            rounds: plan.rounds_of_each()[0],
            processes: plan.processes,
            precision: plan.precision.map(|p| p.target),
            interrupted: false,
            content_type: None,
            cut_from: None,
            cells: Vec::new(),
        }
    }
}
