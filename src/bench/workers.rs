//! `run --processes N`: each payload timed in N worker processes of this binary, one
//! after another (never side by side, which would time them against each other), their
//! samples pooled (see [`PayloadResult::pooled`]). Each worker is sent its share as a job
//! in the worker protocol ([`super::protocol`]) and never sees the user's options.

use std::io::{BufReader, Write as _};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context as _, Result};

use super::protocol::{read_line, Answer, BodyFile, Job, Work};
use super::schedule::Plan;
use super::settings::CodecSetting;
use super::Step;
use crate::payload::Payload;
use crate::process::interrupt;
use crate::results::run::PayloadResult;

/// `payload` measured with `settings` under `plan` in its `plan.processes` workers,
/// pooled; their steps go to `on_step`. A stop request ends the worker in flight after
/// its iteration; what the workers finished is kept, and the result says it was
/// interrupted.
pub(crate) fn measure_in_processes(
    settings: &[CodecSetting],
    payload: &Payload,
    plan: Plan,
    on_step: &dyn Fn(Step),
) -> Result<PayloadResult> {
    let ChildBody {
        dir: _dir,
        input,
        exe,
    } = ChildBody::new(&payload.bytes)?;
    let file = BodyFile::of(&payload.name, input, &payload.bytes);
    let rounds = plan.rounds_of_each();
    let (processes, all_rounds) = (rounds.len() as u32, rounds.iter().sum::<u32>());
    let mut parts = Vec::new();
    for process in 0..processes {
        if interrupt::requested() {
            break;
        }
        let Some(share) = plan.share(process) else {
            continue; // fewer iterations than processes: this one has none
        };
        let rounds_before: u32 = rounds[..process as usize].iter().sum();
        let job = Job::new(file.clone(), settings, Work::Time(share));
        let which = format!("process {} of {}", process + 1, processes);
        let answered = run_worker(Command::new(&exe), &job, |step| {
            on_step(Step {
                round: rounds_before as usize + step.round,
                rounds: all_rounds as usize,
                ..step
            })
        })
        .with_context(|| which.clone())?;
        match answered {
            Some(part) => parts.push(part),
            None if interrupt::requested() => break,
            None => bail!("{which} ended without a result"),
        }
    }
    // Each worker was given the payload's name; with none finished, an empty result.
    Ok(
        PayloadResult::pooled(parts).unwrap_or_else(|| PayloadResult {
            interrupted: true,
            ..PayloadResult::planned(&payload.name, &payload.bytes, plan)
        }),
    )
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

/// Runs `worker` (this program) as `time-worker`, sends it `job`, and passes the steps
/// it answers to `on_step`; its result, if it sent one. On Unix the worker has a process
/// group of its own, so that a Ctrl-C reaches it once, passed on from here, and it can
/// still answer what it finished (a second signal would end it at once).
fn run_worker(
    mut worker: Command,
    job: &Job,
    mut on_step: impl FnMut(Step),
) -> Result<Option<PayloadResult>> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut worker, 0);
    let mut running = worker
        .arg("time-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot start a timing process")?;
    send(&mut running, job)?;
    let stdout = running.stdout.take().expect("stdout was piped");
    let ended = AtomicBool::new(false);
    let pid = running.id();
    std::thread::scope(|scope| {
        scope.spawn(|| pass_on_a_stop(pid, &ended));
        // Set however this closure ends, a panic included, so the scope can join.
        let _ended = Ended(&ended);
        let mut reader = BufReader::new(stdout);
        let mut result = None;
        while let Some(line) = read_line(&mut reader)? {
            match serde_json::from_str::<Answer>(&line) {
                Ok(Answer::Step(step)) => on_step(step),
                Ok(Answer::Result(part)) => result = Some(*part),
                Ok(Answer::Refused(why)) => bail!("the worker refused its job: {why}"),
                // Its own build, which `run` does not ask: a worker that says it anyway
                // is this build, in one process of the run.
                Ok(Answer::Build(_)) => {}
                Err(_) => bail!("the worker answered a line that is no answer"),
            }
        }
        running.wait().context("lost a timing process")?;
        Ok(result)
    })
}

/// `job` on `running`'s stdin, as one line, which is then closed.
pub(crate) fn send(running: &mut Child, job: &Job) -> Result<()> {
    let mut stdin = running.stdin.take().expect("stdin was piped");
    let mut line = serde_json::to_vec(job)?;
    line.push(b'\n');
    stdin
        .write_all(&line)
        .context("cannot send a timing process its job")
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
