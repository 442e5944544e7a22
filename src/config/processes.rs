//! How many processes time each payload (`run --processes`), and each one's share.

use anyhow::{bail, Result};

use crate::bench::schedule::{Iterations, Plan};
use crate::cli::Metric;

/// Timed iterations per process by default, as pyperf's 3 values per worker.
const ITERATIONS_PER_PROCESS: u32 = 3;

/// The most processes a payload is spread over by default: enough that one slow process
/// is outvoted (no unmodified pair of 10 at 15 iterations over 5 was judged regressed,
/// against 1 in one process), few enough that their warm-ups cost little.
const MOST_PROCESSES_BY_DEFAULT: u32 = 5;

/// How many processes time each payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Processes {
    /// `--processes N`; 1 times in this process.
    Fixed(u32),
    /// `run`'s default: one process per 3 timed iterations of a fixed count, at most 5,
    /// each running its share in rounds; one with a time budget or `--precision`.
    ByIterations,
}

impl Processes {
    /// `run`'s processes from `--processes` (`asked`), checked against what it spreads
    /// (`--iterations`, if fixed, and whether `--precision` is set): at least one
    /// iteration per process, and no `--precision` (each process would stop on its own
    /// samples). One where nothing is timed.
    pub(crate) fn of_run(
        asked: Option<u32>,
        metrics: &[Metric],
        (fixed_iterations, precision): (Option<u32>, bool),
    ) -> Result<Self> {
        if !metrics.contains(&Metric::Time) {
            return Ok(Processes::Fixed(1)); // nothing timed to spread
        }
        let processes = match asked {
            None => return Ok(Processes::ByIterations),
            Some(1) => return Ok(Processes::Fixed(1)),
            Some(processes) => processes,
        };
        if precision {
            bail!("--processes cannot be combined with --precision: each process would stop on its own samples");
        }
        if let Some(iterations) = fixed_iterations {
            if iterations < processes {
                bail!("--processes {processes} needs at least {processes} --iterations, one per process (got {iterations})");
            }
        }
        Ok(Processes::Fixed(processes))
    }

    /// How many processes time a payload under `plan`.
    pub(crate) fn count(self, plan: &Plan) -> u32 {
        match (self, plan.iterations) {
            (Processes::Fixed(count), _) => count,
            (Processes::ByIterations, Iterations::Fixed(count)) if plan.precision.is_none() => {
                (count / ITERATIONS_PER_PROCESS).clamp(1, MOST_PROCESSES_BY_DEFAULT)
            }
            (Processes::ByIterations, _) => 1,
        }
    }

    /// Process `process`'s share (from 0) of `plan`, as [`Plan::share`] shares it among
    /// [`Processes::count`] processes. `None` for a process left with nothing.
    pub(crate) fn share(self, plan: &Plan, process: u32) -> Option<Plan> {
        plan.share(process, self.count(plan))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::schedule::{Iterations, Plan};

    #[test]
    fn count_examples() {
        let plan = |n| Plan {
            warmup: 3,
            iterations: Iterations::Fixed(n),
            rounds: 5,
            precision: None,
        };
        let counts = [3, 5, 6, 15, 1000].map(|n| Processes::ByIterations.count(&plan(n)));
        assert_eq!(counts, [1, 1, 2, 5, 5]);
        assert_eq!(Processes::Fixed(10).count(&plan(30)), 10);
    }
}
