//! Instructions per call, counted under valgrind's callgrind: exact where wall time is
//! noise. A shared CI runner moves wall time by 2 to 20% between runs; an instruction
//! count of the same binary on the same input repeats to a few parts per million.
//!
//! Each cell runs in a child process of this binary (the hidden `count-instructions`
//! command, given the run's own options) under
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=F`, so only the code
//! inside one of the two marker functions below is counted: the compressions after one
//! uncounted call, in one process, and the decompressions likewise, in another. Payload
//! generation, process start-up and the codec's set-up outside the call are not counted;
//! the fresh encoder or decoder each call builds is, as a server pays for it every
//! response.
//!
//! References: the callgrind manual (`--toggle-collect`, the `totals:` line of its
//! output files); iai-callgrind and CodSpeed count instructions for the same reason.

use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context as _, Result};

use super::protocol::{BodyFile, Job, Work};
use super::settings::CodecSetting;
use super::workers::ChildBody;
use crate::codec::Codec;
use crate::results::run::{InstructionCounter, PayloadResult};
use crate::vocab::CellId;

/// The function whose inclusive instructions are a compression's.
const COMPRESS_MARKER: &str = "codecbench_count_compress";
/// The function whose inclusive instructions are a decompression's.
const DECOMPRESS_MARKER: &str = "codecbench_count_decompress";

/// One cell's counts, per call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Instructions of one compression.
    pub compress: u64,
    /// Instructions of one decompression.
    pub decompress: u64,
}

/// `valgrind --version`, e.g. `valgrind-3.19.0`; an error naming the package without it.
pub(crate) fn valgrind_version() -> Result<String> {
    let output = Command::new("valgrind").arg("--version").output();
    match output {
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        }
        _ => bail!(
            "--measure instructions counts under valgrind, which is not installed (Debian and Ubuntu: apt-get install valgrind)"
        ),
    }
}

// The two markers: not inlined and not mangled, so that callgrind finds them by name.

/// Compresses `input` `calls` times: callgrind counts what runs inside.
#[no_mangle]
#[inline(never)]
pub(crate) fn codecbench_count_compress(codec: &dyn Codec, level: i32, input: &[u8], calls: u32) {
    for _ in 0..calls {
        let _ = black_box(codec.compress(level, black_box(input)));
    }
}

/// Decompresses `compressed` `calls` times: callgrind counts what runs inside.
#[no_mangle]
#[inline(never)]
pub(crate) fn codecbench_count_decompress(
    codec: &dyn Codec,
    compressed: &[u8],
    size: usize,
    calls: u32,
) {
    for _ in 0..calls {
        let _ = black_box(codec.decompress_known(black_box(compressed), size));
    }
}

/// The child's part: one uncounted round trip (checked), then the counted calls of
/// each direction.
pub(crate) fn run_counted(codec: &dyn Codec, level: i32, input: &[u8], calls: u32) -> Result<()> {
    let compressed = codec.compress(level, input)?;
    let decompressed = codec.decompress_known(&compressed, input.len())?;
    if decompressed != input {
        bail!("round trip mismatch");
    }
    codecbench_count_compress(codec, level, input, calls);
    codecbench_count_decompress(codec, &compressed, input.len(), calls);
    Ok(())
}

/// Runs this program `exe` as `count-instructions` on `job` under callgrind twice, its
/// output in `dir`: once counting inside the compression marker, once inside the
/// decompression marker; each direction's instructions per call.
///
/// One process with both markers and a dump between them would halve the time, but
/// callgrind 3.19 then attributes nothing to the marker after the dump, so each
/// direction gets a process of its own.
pub(crate) fn count(exe: &Path, job: &Job, dir: &Path, calls: u32) -> Result<Counts> {
    let per_call = |total: u64| total / u64::from(calls.max(1));
    Ok(Counts {
        compress: per_call(count_inside(exe, job, dir, COMPRESS_MARKER)?),
        decompress: per_call(count_inside(exe, job, dir, DECOMPRESS_MARKER)?),
    })
}

/// What a run records about its counter: callgrind under `valgrind` (its version),
/// `calls` counted calls each way, on this build.
pub(crate) fn counter(valgrind: &str, calls: u32) -> InstructionCounter {
    InstructionCounter {
        tool: "callgrind".into(),
        version: valgrind.to_string(),
        arch: std::env::consts::ARCH.into(),
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
        .into(),
        calls,
    }
}

/// The counts of every cell of `settings` on `body`, `calls` calls each way, by cell,
/// two cells at a time. Each cell is counted in a child of this program run as
/// `count-instructions`, sent the cell as a job (see [`super::protocol`]). `on_cell`
/// hears of each cell as it is counted, or why it could not be; such a cell is left out.
pub(crate) fn count_payload(
    calls: u32,
    body: &[u8],
    settings: &[CodecSetting],
    on_cell: &mut dyn FnMut(CellId, &Result<Counts>),
) -> Result<HashMap<CellId, Counts>> {
    let named = super::settings::cells(settings);
    let cells: Vec<CellId> = named
        .iter()
        .map(|(codec, level)| codec.id(*level))
        .collect();
    let ChildBody { dir, input, exe } = ChildBody::new(body)?;
    let file = BodyFile::of("counted", input, body);
    let jobs: Vec<Job> = named
        .iter()
        .map(|&(codec, level)| Job::of_level(file.clone(), codec, level, Work::Count { calls }))
        .collect();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(cells.len());
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(CellId, Result<Counts>)>();
    let mut counted = HashMap::new();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let done = done_tx.clone();
            let (next, cells, jobs, exe, dir) = (&next, &cells, &jobs, &exe, dir.path());
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(&id) = cells.get(index) else { break };
                if crate::process::interrupt::requested() {
                    break;
                }
                let result = count_cell(exe, &jobs[index], index, dir);
                if done.send((id, result)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        // The caller hears on this thread: the workers report here as each is counted.
        for (id, result) in done_rx {
            on_cell(id, &result);
            if let Ok(counts) = result {
                counted.insert(id, counts);
            }
        }
    });
    Ok(counted)
}

/// One cell's `job` in its own child under callgrind, its files in a directory of its own.
fn count_cell(exe: &Path, job: &Job, index: usize, parent: &Path) -> Result<Counts> {
    let dir = parent.join(format!("cell-{index}"));
    std::fs::create_dir(&dir)?;
    let Work::Count { calls } = job.work else {
        bail!("a counting job that times");
    };
    count(exe, job, &dir, calls)
}

/// Puts the counts into the cells of `result`.
pub(crate) fn fill(result: &mut PayloadResult, counts: &HashMap<CellId, Counts>) {
    for cell in &mut result.cells {
        if let Some(counts) = counts.get(&cell.id) {
            cell.compress_instructions = Some(counts.compress);
            cell.decompress_instructions = Some(counts.decompress);
        }
    }
}

/// The instructions `exe` executes on `job` inside `marker`, under callgrind.
fn count_inside(exe: &Path, job: &Job, dir: &Path, marker: &str) -> Result<u64> {
    let out = dir.join(format!("{marker}.out"));
    let mut running = Command::new("valgrind")
        // Every block from mmap, page-aligned: otherwise where the heap puts the
        // codec's buffers depends on what the process allocated before (its job, the
        // other settings), and memcpy's path, hence the count, on their alignment:
        // zlib-rs inflate counted 2% apart in two runs with different --export options.
        .env("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=0")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--compress-strings=no",
        ])
        .arg(format!("--toggle-collect={marker}"))
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(exe)
        .arg("count-instructions")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start valgrind")?;
    super::workers::send(&mut running, job)?;
    let output = running.wait_with_output().context("lost valgrind")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.starts_with("=="))
            .unwrap_or("");
        bail!("the counting process failed ({}): {last}", output.status);
    }
    totals(&out)
}

/// The `totals:` (or `summary:`) figure of a callgrind output file: its instructions.
fn totals(path: &Path) -> Result<u64> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("callgrind wrote no {}", path.display()))?;
    parse_totals(&text).with_context(|| format!("no totals in {}", path.display()))
}

fn parse_totals(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|line| {
        let rest = line
            .strip_prefix("totals:")
            .or_else(|| line.strip_prefix("summary:"))?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_are_read_from_the_last_totals_line() {
        let text = "version: 1\nevents: Ir\nfn=(1) x\n0 12\nsummary: 52705911\ntotals: 52705911\n";
        assert_eq!(parse_totals(text), Some(52_705_911));
        assert_eq!(parse_totals("events: Ir\n"), None);
    }
}
