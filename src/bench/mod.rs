//! Benchmarking: the runner, its statistics and the results it produces.

pub mod result;
pub mod runner;
pub mod stats;

use crate::codec::Codec;
use result::{CellResult, PayloadResult};
use runner::{Clock, Plan};

/// One codec and the levels to measure with it.
pub struct CodecSetting {
    /// The adapter.
    pub codec: Box<dyn Codec>,
    /// Levels, in the order to run them.
    pub levels: Vec<i32>,
}

/// Measures every codec × level on one payload, calling `on_cell` after each cell so the
/// caller can show progress and keep partial results.
pub fn run_payload(
    name: &str,
    input: &[u8],
    settings: &[CodecSetting],
    plan: Plan,
    clock: &dyn Clock,
    on_cell: &mut dyn FnMut(&CellResult),
) -> PayloadResult {
    let mut cells = Vec::new();
    for setting in settings {
        for &level in &setting.levels {
            let cell = runner::measure_cell(setting.codec.as_ref(), level, input, plan, clock);
            on_cell(&cell);
            cells.push(cell);
        }
    }
    PayloadResult {
        payload: name.to_string(),
        input_bytes: input.len() as u64,
        warmup: plan.warmup,
        iterations: plan.iterations,
        cells,
    }
}
