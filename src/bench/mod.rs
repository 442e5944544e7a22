//! Benchmarking: the runner, its statistics and the results it produces.

pub mod result;
pub mod runner;
pub mod stats;

use crate::codec::Codec;
use result::{CellResult, PayloadResult};
use runner::{CellRun, Clock, Plan};

/// One codec and the levels to measure with it.
pub struct CodecSetting {
    /// The adapter.
    pub codec: Box<dyn Codec>,
    /// Levels, in the order to run them.
    pub levels: Vec<i32>,
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
/// every cell (see [`runner`]), calling `on_cell` with each cell as soon as its last round
/// is measured, so the caller can show progress and save partial results. An error
/// from `on_cell` stops the payload and is returned.
pub fn run_payload(
    name: &str,
    input: &[u8],
    settings: &[CodecSetting],
    plan: Plan,
    clock: &dyn Clock,
    on_cell: &mut dyn FnMut(&PayloadResult, &CellResult) -> anyhow::Result<()>,
) -> anyhow::Result<PayloadResult> {
    let mut result = PayloadResult {
        payload: name.to_string(),
        input_bytes: input.len() as u64,
        sha256: Some(crate::payload::sha256_hex(input)),
        warmup: plan.warmup,
        iterations: plan.iterations,
        rounds: plan.iterations_per_round().len() as u32,
        cells: Vec::new(),
    };
    let cells: Vec<(&dyn Codec, i32)> = settings
        .iter()
        .flat_map(|s| s.levels.iter().map(move |&level| (s.codec.as_ref(), level)))
        .collect();
    let rounds = plan.iterations_per_round();
    let mut runs: Vec<Option<CellRun>> = cells.iter().map(|_| None).collect();
    for (round, &iterations) in rounds.iter().enumerate() {
        let last_round = round + 1 == rounds.len();
        for (slot, &(codec, level)) in runs.iter_mut().zip(&cells) {
            let run = slot.get_or_insert_with(|| CellRun::start(codec, level, input));
            run.measure_round(plan.warmup_before_round(round), iterations, clock);
            if last_round {
                let cell = slot.take().expect("started above").finish();
                on_cell(&result, &cell)?;
                result.cells.push(cell);
            }
        }
    }
    Ok(result)
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
