//! `run --measure instructions`: each cell counted in a child of this binary under
//! callgrind (see [`crate::bench::instructions`]), two at a time, before the cells are
//! timed; and the hidden `count-instructions` command those children run.

use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context as _, Result};

use super::progress::Progress;
use crate::bench::instructions::{run_counted, Counts};
use crate::bench::CodecSetting;
use crate::config::{CountConfig, InstructionPlan};
use crate::results::codec::{InstructionCounter, PayloadResult};
use crate::vocab::CellId;

/// What the run records about its counter.
pub(super) fn counter(plan: &InstructionPlan) -> InstructionCounter {
    InstructionCounter {
        tool: "callgrind".into(),
        version: plan.valgrind.clone(),
        arch: std::env::consts::ARCH.into(),
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
        .into(),
        calls: plan.calls,
    }
}

/// The counts of every cell of `settings` on `body`, by cell; a cell whose count failed
/// maps to why, and is warned about on stderr.
pub(super) fn count_payload(
    plan: &InstructionPlan,
    run_args: &[std::ffi::OsString],
    body: &[u8],
    settings: &[CodecSetting],
    progress: &Progress,
) -> Result<HashMap<CellId, Counts>> {
    let cells: Vec<CellId> = crate::bench::cells(settings)
        .into_iter()
        .map(|(codec, level)| codec.id(level))
        .collect();
    let super::processes::ChildBody { dir, input, exe } = super::processes::ChildBody::new(body)?;
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(cells.len());
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(CellId, Result<Counts>)>();
    let mut counted = HashMap::new();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let done = done_tx.clone();
            let (next, cells, input, exe, dir) = (&next, &cells, &input, &exe, dir.path());
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(&id) = cells.get(index) else { break };
                if crate::process::interrupt::requested() {
                    break;
                }
                let result = count_cell(plan, run_args, exe, input, index, dir);
                if done.send((id, result)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        // Progress is this thread's: the workers report here as each cell is counted.
        for (id, result) in done_rx {
            match result {
                Ok(counts) => {
                    progress.line(&format!(
                        "  {id}: {} / {} instructions",
                        crate::format::thousands(counts.compress),
                        crate::format::thousands(counts.decompress)
                    ));
                    counted.insert(id, counts);
                }
                Err(error) => {
                    progress.warn(&format!("instructions of {id} not counted: {error:#}"))
                }
            }
        }
    });
    Ok(counted)
}

/// One cell in its own child under callgrind, its files in a directory of its own.
fn count_cell(
    plan: &InstructionPlan,
    run_args: &[std::ffi::OsString],
    exe: &std::path::Path,
    input: &std::path::Path,
    index: usize,
    parent: &std::path::Path,
) -> Result<Counts> {
    let dir = parent.join(format!("cell-{index}"));
    std::fs::create_dir(&dir)?;
    let mut child = Command::new(exe);
    child
        .arg("count-instructions")
        .args(run_args)
        .arg("--count-cell")
        .arg(index.to_string())
        .arg("--count-input")
        .arg(input)
        .arg("--count-calls")
        .arg(plan.calls.to_string());
    crate::bench::instructions::count(&child, &dir, plan.calls)
}

/// Puts the counts into the cells of `result`.
pub(super) fn fill(result: &mut PayloadResult, counts: &HashMap<CellId, Counts>) {
    for cell in &mut result.cells {
        if let Some(counts) = counts.get(&cell.id) {
            cell.compress_instructions = Some(counts.compress);
            cell.decompress_instructions = Some(counts.decompress);
        }
    }
}

/// The hidden child: builds the run's cell `config.cell` and runs its counted calls.
pub(super) fn run_child(config: CountConfig) -> crate::error::Result {
    use crate::error::Failing;
    let input = std::fs::read(&config.input)
        .with_context(|| format!("cannot read {}", config.input.display()))
        .failing()?;
    let cells = crate::bench::cells(&config.measure.settings);
    let Some(&(codec, level)) = cells.get(config.cell) else {
        return Err(anyhow::anyhow!("no cell {} in these settings", config.cell).into());
    };
    run_counted(codec, level, &input, config.calls).failing()
}
