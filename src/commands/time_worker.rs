//! The hidden `time-worker` command: one worker process, which reads jobs on stdin and
//! answers each on stdout in the worker protocol (see [`crate::bench::protocol`]). It takes
//! no option: everything it measures is in the job.

use std::io::Write as _;

use crate::bench::protocol::{Answer, Job, Taken, Work};
use crate::bench::runner::SystemClock;
use crate::bench::{run_payload, Step};
use crate::error::Failing;
use crate::results::run::PayloadResult;

/// Measures each job on stdin in turn until stdin closes, printing each step, then the
/// result (also when a stop cut it short). A job it cannot take, or a calibration hook it
/// cannot read, is answered `refused` with why, and is bad input.
pub(super) fn run() -> crate::error::Result {
    if let Err(why) = crate::bench::calibrate::check_environment() {
        return refuse(why);
    }
    let mut input = std::io::stdin().lock();
    let mut taken_any = false;
    loop {
        let taken = match Job::next(&mut input) {
            Ok(Some(taken)) => taken,
            Ok(None) if taken_any => return Ok(()),
            Ok(None) => return refuse(anyhow::anyhow!("no job on stdin")),
            Err(why) => return refuse(why),
        };
        taken_any = true;
        measure(taken)?;
        if crate::process::interrupt::requested() {
            return Ok(());
        }
    }
}

/// Measures one job, answering its steps and its result.
fn measure(taken: Taken) -> crate::error::Result {
    let Taken {
        job,
        body,
        settings,
    } = taken;
    let Work::Time(plan) = job.work else {
        return refuse(anyhow::anyhow!(
            "time-worker times; this job counts instructions"
        ));
    };
    if job.identify {
        let build = crate::results::environment::Environment::current();
        answer(&Answer::Build(Box::new(build))).failing()?;
    }
    let mut on_step = |step: Step| {
        // A coordinator that stopped reading ends this worker at the result.
        let _ = answer(&Answer::Step(step));
    };
    let mut on_cell = |_: &PayloadResult, _: usize| Ok(());
    let result = run_payload(
        &job.body.name,
        &body,
        &settings,
        plan,
        &SystemClock::new(),
        &mut on_step,
        &mut on_cell,
    )
    .failing()?;
    answer(&Answer::Result(Box::new(result))).failing()
}

/// `why` answered as a refusal, and as bad input.
pub(super) fn refuse(why: anyhow::Error) -> crate::error::Result {
    answer(&Answer::Refused(format!("{why:#}"))).failing()?;
    Err(why.into())
}

/// `message` as one line on stdout, flushed.
fn answer(message: &Answer) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, message)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
