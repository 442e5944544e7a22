//! One build's worker for `ab`: a `time-worker` started once and sent one job per batch
//! (protocol 2), or, for a build that speaks only version 1, started again for each
//! batch. Its answers are read on a thread of their own, so that a worker is stopped at
//! a deadline its lines do not extend, and a stop request ends the wait at once. Each
//! worker leads a process group of its own, killed whole on every end, so that nothing
//! it started outlives it.

use std::io::{BufReader, Write as _};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};

use crate::bench::calibrate::SLOWDOWN_VARIABLE;
use crate::bench::protocol::{read_line, Answer, Job, PROTOCOL};
use crate::process::interrupt;
use crate::results::environment::Environment;
use crate::results::run::PayloadResult;

/// The longest one batch may take, whatever the worker says meanwhile.
pub(crate) const LONGEST_BATCH: Duration = Duration::from_secs(120);

/// How long the lines of a worker that has exited are still awaited.
const AFTER_EXIT: Duration = Duration::from_millis(200);

/// The first version of the protocol, one job per process.
const ONE_JOB_PER_PROCESS: u32 = 1;

/// One build's worker.
pub(crate) struct BuildWorker {
    /// The program, e.g. this one or `--baseline`'s.
    program: PathBuf,
    /// Whether the calibration hook reaches it (the candidate's only).
    calibrated: bool,
    /// The version it speaks: [`PROTOCOL`] until it refuses it for version 1.
    protocol: u32,
    /// The running worker, for version 2.
    running: Option<Running>,
    /// Whether it has answered a job yet.
    answered: bool,
    /// Which build it said it is, when asked with its first job; `None` for a build
    /// from before builds said.
    build: Option<Environment>,
}

/// A started worker: its stdin, its answers as lines, and the build it said it is.
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String>>,
    build: Option<Environment>,
}

impl BuildWorker {
    /// The worker of `program`; the calibration hook reaches it if `calibrated`.
    pub(crate) fn new(program: PathBuf, calibrated: bool) -> BuildWorker {
        BuildWorker {
            program,
            calibrated,
            protocol: PROTOCOL,
            running: None,
            answered: false,
            build: None,
        }
    }

    /// Ends the running worker: the next job starts a new one.
    pub(crate) fn restart(&mut self) {
        self.running = None;
    }

    /// The program it runs.
    pub(crate) fn program(&self) -> &std::path::Path {
        &self.program
    }

    /// The protocol version it speaks, as far as is known.
    pub(crate) fn protocol(&self) -> u32 {
        self.protocol
    }

    /// Which build it said it is: its version, commit, compiler and libraries.
    pub(crate) fn build(&self) -> Option<&Environment> {
        self.build.as_ref()
    }

    /// `job` measured by this build; `None` when a stop request or `until` ended the
    /// wait.
    pub(crate) fn measure(&mut self, job: &Job, until: Instant) -> Result<Option<PayloadResult>> {
        self.start(job)?;
        self.finish(job, until)
    }

    /// Sends `job` to this build's worker, started if need be, without waiting for it.
    pub(crate) fn start(&mut self, job: &Job) -> Result<()> {
        let mut job = job.clone();
        job.protocol = self.protocol;
        // The first job asks which build this is; an older build ignores the question.
        job.identify = !self.answered;
        let one_job = self.protocol == ONE_JOB_PER_PROCESS;
        let running = match &mut self.running {
            Some(running) if !one_job => running,
            _ => self
                .running
                .insert(Running::start(&self.program, self.calibrated)?),
        };
        running.send(&job, one_job)
    }

    /// The result of the job [`BuildWorker::start`] sent; a build that refuses version 2
    /// for version 1 is asked again, once. `None` when a stop request or `until` ended
    /// the wait; the worker is then ended.
    pub(crate) fn finish(&mut self, job: &Job, until: Instant) -> Result<Option<PayloadResult>> {
        let running = self.running.as_mut().context("no job was sent")?;
        match running.result(until) {
            Err(why)
                if !self.answered
                    && self.protocol != ONE_JOB_PER_PROCESS
                    && speaks_only_the_first(&why) =>
            {
                self.protocol = ONE_JOB_PER_PROCESS;
                self.running = None;
                self.measure(job, until)
            }
            Ok(None) => {
                self.running = None;
                Ok(None)
            }
            answer => {
                self.answered = true;
                if let Some(build) = running.build.take() {
                    self.build = Some(build);
                }
                answer
            }
        }
    }
}

/// Whether `why` is a worker's refusal of a job because it speaks version 1 alone.
fn speaks_only_the_first(why: &anyhow::Error) -> bool {
    format!("{why:#}").ends_with(&format!("this build speaks {ONE_JOB_PER_PROCESS}"))
}

impl Running {
    /// `program time-worker`, its answers read on a thread.
    fn start(program: &PathBuf, calibrated: bool) -> Result<Running> {
        let mut command = Command::new(program);
        command
            .arg("time-worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if !calibrated {
            command.env_remove(SLOWDOWN_VARIABLE);
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start {} time-worker", program.display()))?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            // At the worker's end the sender drops, which the receiver sees; a line that
            // cannot be read is sent on, and ends the reading.
            while let Some(line) = read_line(&mut reader).transpose() {
                let unreadable = line.is_err();
                if send.send(line).is_err() || unreadable {
                    return;
                }
            }
        });
        Ok(Running {
            stdin: child.stdin.take(),
            child,
            lines,
            build: None,
        })
    }

    /// `job` as one line; stdin is then closed if `last`.
    fn send(&mut self, job: &Job, last: bool) -> Result<()> {
        let mut line = serde_json::to_vec(job)?;
        line.push(b'\n');
        let stdin = self
            .stdin
            .as_mut()
            .context("the worker's stdin is closed")?;
        stdin
            .write_all(&line)
            .and_then(|()| stdin.flush())
            .context("the worker did not take its job")?;
        if last {
            self.stdin = None;
        }
        Ok(())
    }

    /// The result the worker answers, its steps skipped; `None` on a stop request or
    /// once `until` has passed. A batch past [`LONGEST_BATCH`] is an error, as is a
    /// worker that exits (even with a child of its own still holding its stdout).
    fn result(&mut self, until: Instant) -> Result<Option<PayloadResult>> {
        let batch_ends = Instant::now() + LONGEST_BATCH;
        let mut exited: Option<Instant> = None;
        loop {
            if interrupt::requested() || Instant::now() >= until {
                return Ok(None);
            }
            if Instant::now() >= batch_ends {
                bail!(
                    "the worker took over {} s for one batch",
                    LONGEST_BATCH.as_secs()
                );
            }
            let line = match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(line)) => line,
                Ok(Err(why)) => bail!("the worker's answer could not be read: {why:#}"),
                Err(RecvTimeoutError::Disconnected) => bail!("the worker ended without a result"),
                Err(RecvTimeoutError::Timeout) => {
                    if exited.is_none() && matches!(self.child.try_wait(), Ok(Some(_))) {
                        exited = Some(Instant::now());
                    }
                    if exited.is_some_and(|at| at.elapsed() >= AFTER_EXIT) {
                        bail!("the worker ended without a result");
                    }
                    continue;
                }
            };
            match serde_json::from_str::<Answer>(&line) {
                Ok(Answer::Step(_)) => {}
                Ok(Answer::Result(part)) => return Ok(Some(*part)),
                Ok(Answer::Refused(why)) => bail!("the worker refused its job: {why}"),
                Ok(Answer::Build(build)) => self.build = Some(build.bounded()),
                Err(_) => bail!("the worker answered a line that is no answer"),
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stdin = None;
        // The whole group: the worker and anything it started. Its id is the worker's,
        // which is not reaped (so not reused) until the wait below.
        if let Some(group) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
