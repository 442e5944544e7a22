//! `run --processes N`: each payload timed in N children of this binary, one after
//! another (never side by side, which would time them against each other), their
//! samples pooled (see [`PayloadResult::pooled`]). The children run the hidden
//! `time-worker` command with the run's own options.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context as _, Result};

use super::schedule::Plan;
use super::Step;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::run::PayloadResult;

/// `payload` measured under `plan` in its `plan.processes` children, pooled. Each
/// child is this program run as `time-worker` with `run_args`, the run's own options,
/// and its steps go to `on_step`. A stop request ends the child in flight after its
/// iteration; what the children finished is kept, and the result says it was
/// interrupted.
pub(crate) fn measure_in_processes(
    run_args: &[OsString],
    payload: &Payload,
    plan: Plan,
    on_step: &dyn Fn(Step),
) -> Result<PayloadResult> {
    let ChildBody { dir, input, exe } = ChildBody::new(&payload.bytes)?;
    let rounds = plan.rounds_of_each();
    let (processes, all_rounds) = (rounds.len() as u32, rounds.iter().sum::<u32>());
    let mut parts = Vec::new();
    for process in 0..processes {
        if interrupt::requested() {
            break;
        }
        if rounds[process as usize] == 0 {
            continue; // fewer iterations than processes: this one has none
        }
        let rounds_before: u32 = rounds[..process as usize].iter().sum();
        let output = dir.path().join(format!("process-{process}.json"));
        let child = worker_command(&exe, run_args, &input, &payload.name, process, &output);
        let status = run_worker(child, |step| {
            on_step(Step {
                round: rounds_before as usize + step.round,
                rounds: all_rounds as usize,
                ..step
            })
        })?;
        // An interrupted child still writes what it finished.
        let written = std::fs::read(&output).ok();
        match written {
            Some(bytes) => {
                let part: PayloadResult = serde_json::from_slice(&bytes).with_context(|| {
                    format!(
                        "process {} of {}: unreadable result",
                        process + 1,
                        processes
                    )
                })?;
                parts.push(part);
            }
            None if interrupt::requested() => break,
            None => bail!(
                "process {} of {} ended ({status}) without a result",
                process + 1,
                processes
            ),
        }
    }
    // Each child was given the payload's name; with none finished, an empty result.
    Ok(
        PayloadResult::pooled(parts).unwrap_or_else(|| PayloadResult {
            interrupted: true,
            ..PayloadResult::planned(&payload.name, &payload.bytes, plan)
        }),
    )
}

/// This program as the `time-worker` child `process`, given the run's own options
/// (`run_args`), the body at `input` and the payload's `name`; it writes to `output`.
fn worker_command(
    exe: &Path,
    run_args: &[OsString],
    input: &Path,
    name: &str,
    process: u32,
    output: &Path,
) -> Command {
    let mut child = Command::new(exe);
    child
        .arg("time-worker")
        .args(run_args)
        .arg("--worker-input")
        .arg(input)
        .arg("--worker-name")
        .arg(name)
        .arg("--worker-process")
        .arg(process.to_string())
        .arg("--worker-output")
        .arg(output);
    child
}

/// A body in a temporary directory of its own, for children of this program to read,
/// and the program; children may write beside it.
pub(crate) struct ChildBody {
    /// The directory, removed when this is dropped.
    pub dir: tempfile::TempDir,
    /// The body's file in it.
    pub input: std::path::PathBuf,
    /// This program.
    pub exe: std::path::PathBuf,
}

impl ChildBody {
    /// `body` written for children.
    pub(crate) fn new(body: &[u8]) -> Result<Self> {
        let dir = tempfile::tempdir().context("cannot make a directory for child processes")?;
        let input = dir.path().join("body");
        std::fs::write(&input, body).context("cannot write the body for child processes")?;
        let exe = std::env::current_exe().context("cannot find this program to run again")?;
        Ok(ChildBody { dir, input, exe })
    }
}

/// Runs `child` with its steps read from its stdout, one per line, passed to `on_step`;
/// its exit status once it ends. On Unix the child has a process group of its own, so
/// that a Ctrl-C reaches it once, passed on from here, and it can still write what it
/// finished (a second signal would end it at once).
fn run_worker(
    mut child: Command,
    mut on_step: impl FnMut(Step),
) -> Result<std::process::ExitStatus> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut child, 0);
    let mut running = child
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot start a timing process")?;
    let stdout = running.stdout.take().expect("stdout was piped");
    let ended = AtomicBool::new(false);
    let pid = running.id();
    std::thread::scope(|scope| {
        scope.spawn(|| pass_on_a_stop(pid, &ended));
        // Set however this closure ends, a panic included, so the scope can join.
        let _ended = Ended(&ended);
        for line in BufReader::new(stdout).lines() {
            if let Some(step) = line.ok().as_deref().and_then(parse_step) {
                on_step(step);
            }
        }
        running.wait().context("lost a timing process")
    })
}

/// Marks the child ended when dropped.
struct Ended<'a>(&'a AtomicBool);

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Until `ended`, waits for a stop request, and passes it on to the child `pid` once.
fn pass_on_a_stop(pid: u32, ended: &AtomicBool) {
    while !ended.load(Ordering::SeqCst) {
        if interrupt::requested() {
            // SAFETY: a signal to the child this process started and has not reaped.
            #[cfg(unix)]
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGTERM);
            }
            #[cfg(not(unix))]
            let _ = pid; // a console's Ctrl-C reaches every process attached to it
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A step as the worker prints it: round, rounds, cell and cells, then the label, by tabs.
pub(crate) fn step_line(step: &Step) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}",
        step.round, step.rounds, step.cell, step.cells, step.label
    )
}

/// The step [`step_line`] printed; `None` for any other line.
fn parse_step(line: &str) -> Option<Step> {
    let mut fields = line.splitn(5, '\t');
    let mut number = || fields.next()?.parse::<usize>().ok();
    let (round, rounds, cell, cells) = (number()?, number()?, number()?, number()?);
    Some(Step {
        round,
        rounds,
        cell,
        cells,
        label: fields.next()?.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_survives_its_line() {
        let step = Step {
            round: 2,
            rounds: 5,
            cell: 7,
            cells: 66,
            label: "body zstd 3 (libzstd 1.5.7)\twith a tab".into(),
        };
        assert_eq!(parse_step(&step_line(&step)), Some(step));
        assert_eq!(parse_step("codecbench: warning"), None);
        assert_eq!(parse_step("1\t2\tx\t4\tlabel"), None);
    }
}
