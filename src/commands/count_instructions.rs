//! The hidden `count-instructions` command: one worker of `run --measure instructions`,
//! running one cell's calls for callgrind to count (see [`crate::bench::instructions`]).
//! Like `time-worker`, it takes no option and reads its job on stdin (see
//! [`crate::bench::protocol`]).

use crate::bench::instructions::run_counted;
use crate::bench::protocol::{Job, Work};
use crate::error::Failing;

/// Runs the counted calls of the one cell the job on stdin names.
pub(super) fn run() -> crate::error::Result {
    let ready = Job::take(std::io::stdin().lock()).and_then(|taken| {
        let Work::Count { calls } = taken.job.work else {
            anyhow::bail!("count-instructions counts; this job times");
        };
        match taken.settings.as_slice() {
            [one] if one.levels.len() == 1 => Ok((taken.body, taken.settings, calls)),
            _ => anyhow::bail!("a counting job names one setting at one level"),
        }
    });
    let (body, settings, calls) = match ready {
        Ok(ready) => ready,
        Err(why) => return super::time_worker::refuse(why),
    };
    let setting = &settings[0];
    run_counted(setting.codec.as_ref(), setting.levels[0], &body, calls).failing()
}
