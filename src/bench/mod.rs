//! Benchmarking: the runner, its statistics and the results it produces.

pub mod interrupt;
pub mod memory;
pub mod runner;

use crate::codec::Codec;
use crate::results::codec::{CellResult, PayloadResult};
use runner::{CellRun, Clock, Iterations, Plan};

/// One codec and the levels to measure with it.
pub struct CodecSetting {
    /// The adapter.
    pub codec: Box<dyn Codec>,
    /// Levels, in the order to run them.
    pub levels: Vec<i32>,
}

/// Where a payload's measurement is, for progress display: about to measure `cell` of
/// `cells` in `round` of `rounds` (both from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Round, from 0.
    pub round: usize,
    /// Rounds in all.
    pub rounds: usize,
    /// Cell, from 0.
    pub cell: usize,
    /// Cells per round.
    pub cells: usize,
    /// e.g. `small libzstd 1.5.7 3`.
    pub label: String,
}

/// A payload name short enough for a progress line: a file's name without its directory.
fn payload_label(name: &str) -> &str {
    std::path::Path::new(name)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(name)
}

/// Timed iterations for a body of `bytes` when the user gives no count: the article's
/// counts for its three payloads (1000 for one record, 60 for 292 KB, 15 for 2.9 MB).
pub fn default_iterations(bytes: usize) -> u32 {
    match bytes {
        0..=10_000 => 1000,
        10_001..=1_000_000 => 60,
        _ => 15,
    }
}

/// Measures every codec × level on one payload, in `plan.rounds` rounds that each visit
/// every cell (see [`runner`]). As each cell finishes it joins the result, in the order
/// the cells were given, and `on_cell` sees the result so far, so the caller can print
/// the cell and save everything finished. An error from `on_cell` stops the payload and
/// is returned.
///
/// A stop request ([`interrupt`]) ends the payload after the iteration in flight: cells
/// with samples in both directions join the result with what they have, the rest are
/// dropped, and the result is marked `interrupted`.
pub fn run_payload(
    name: &str,
    input: &[u8],
    settings: &[CodecSetting],
    plan: Plan,
    clock: &dyn Clock,
    on_step: &mut dyn FnMut(Step),
    on_cell: &mut dyn FnMut(&PayloadResult) -> anyhow::Result<()>,
) -> anyhow::Result<PayloadResult> {
    let mut result = PayloadResult::planned(name, input, plan);
    result.sha256 = Some(crate::payload::sha256_hex(input));
    let cells: Vec<(&dyn Codec, i32)> = settings
        .iter()
        .flat_map(|s| s.levels.iter().map(move |&level| (s.codec.as_ref(), level)))
        .collect();
    let mut runs: Vec<Option<CellRun>> = cells.iter().map(|_| None).collect();
    let mut finished: Vec<usize> = Vec::new();
    let mut add = |result: &mut PayloadResult, index: usize, cell: CellResult| {
        let position = finished.partition_point(|&i| i < index);
        finished.insert(position, index);
        result.cells.insert(position, cell);
    };
    let rounds = plan.rounds.max(1) as usize;
    'rounds: for round in 0..rounds {
        for (index, &(codec, level)) in cells.iter().enumerate() {
            if interrupt::requested() {
                break 'rounds;
            }
            if round > 0 && runs[index].is_none() {
                continue; // finished in an earlier round
            }
            on_step(Step {
                round,
                rounds,
                cell: index,
                cells: cells.len(),
                label: format!("{} {}, level {level}", payload_label(name), codec.label()),
            });
            let run = runs[index]
                .get_or_insert_with(|| CellRun::start(codec, level, input, &plan, clock));
            run.measure_round(round, clock);
            if interrupt::requested() {
                // The round may have stopped early: the cell is judged below.
                break 'rounds;
            }
            if run.done_after(round) || round + 1 == rounds {
                let cell = runs[index].take().expect("measured above").finish();
                add(&mut result, index, cell);
                on_cell(&result)?;
            }
        }
    }
    if interrupt::requested() {
        result.interrupted = true;
        for (index, slot) in runs.iter_mut().enumerate() {
            if let Some(run) = slot.take().filter(|run| run.has_samples()) {
                add(&mut result, index, run.finish());
                on_cell(&result)?;
            }
        }
    }
    Ok(result)
}

impl PayloadResult {
    /// A result with no cells yet, for `input` measured under `plan`; the body's hash is
    /// left for the measurement to fill, so that describing a plan costs nothing.
    pub fn planned(name: &str, input: &[u8], plan: Plan) -> Self {
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
            rounds: plan.rounds,
            interrupted: false,
            cells: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_iterations_reproduce_the_article_for_the_builtins() {
        assert_eq!(default_iterations(290), 1000);
        assert_eq!(default_iterations(298_727), 60);
        assert_eq!(default_iterations(3_018_756), 15);
    }
}
