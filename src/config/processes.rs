//! How many processes time each payload (`run --processes`), and each one's share.

use anyhow::{bail, Result};

use crate::bench::runner::{Iterations, Plan};
use crate::cli::Metric;

/// The most processes a payload is spread over.
const MOST_PROCESSES: u32 = 100;

/// How many processes time each payload, and how they share its plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processes {
    /// `--processes N`: each process runs its share of the iterations in rounds of its
    /// own; 1 times in this process.
    Fixed(u32),
    /// `run`'s default for a fixed count: each round in a process of its own (at most
    /// 100), so a process slowed for its whole life is outvoted, for the warm-ups one
    /// process would spend anyway (later rounds and later processes re-warm alike with
    /// one iteration). One process with a time budget or `--precision`.
    PerRound,
}

impl Processes {
    /// `run`'s processes from `--processes` (`asked`), checked against what it spreads
    /// (`--iterations`, if fixed, and whether `--precision` is set): at least one
    /// iteration per process, and no `--precision` (each process would stop on its own
    /// samples). One where nothing is timed.
    pub fn of_run(
        asked: Option<u32>,
        metrics: &[Metric],
        (fixed_iterations, precision): (Option<u32>, bool),
    ) -> Result<Self> {
        if !metrics.contains(&Metric::Time) {
            return Ok(Processes::Fixed(1)); // nothing timed to spread
        }
        let processes = match asked {
            None => return Ok(Processes::PerRound),
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
    ///
    /// ```
    /// use codecbench::bench::runner::{Iterations, Plan};
    /// use codecbench::config::Processes;
    ///
    /// let plan = |n| Plan { warmup: 3, iterations: Iterations::Fixed(n), rounds: 5, precision: None };
    /// let counts = [1, 3, 15, 1000].map(|n| Processes::PerRound.count(&plan(n)));
    /// assert_eq!(counts, [1, 3, 5, 5]);
    /// assert_eq!(Processes::Fixed(10).count(&plan(30)), 10);
    /// ```
    pub fn count(self, plan: &Plan) -> u32 {
        match (self, plan.iterations) {
            (Processes::Fixed(count), _) => count,
            (Processes::PerRound, Iterations::Fixed(count)) if plan.precision.is_none() => {
                plan.rounds_for(count).min(MOST_PROCESSES)
            }
            (Processes::PerRound, _) => 1,
        }
    }

    /// Process `process`'s share (from 0) of `plan`, as [`Plan::share`] shares it; by
    /// default also the rounds, so that each process runs one. `None` for a process
    /// left with nothing.
    ///
    /// ```
    /// use codecbench::bench::runner::{Iterations, Plan};
    /// use codecbench::config::Processes;
    ///
    /// let plan = Plan { warmup: 3, iterations: Iterations::Fixed(15), rounds: 5, precision: None };
    /// let share = Processes::PerRound.share(&plan, 1).unwrap();
    /// assert_eq!((share.iterations, share.rounds, share.warmup), (Iterations::Fixed(3), 1, 1));
    /// let share = Processes::Fixed(5).share(&plan, 1).unwrap();
    /// assert_eq!((share.iterations, share.rounds, share.warmup), (Iterations::Fixed(3), 5, 1));
    /// ```
    pub fn share(self, plan: &Plan, process: u32) -> Option<Plan> {
        let processes = self.count(plan);
        let share = plan.share(process, processes)?;
        Some(match self {
            Processes::Fixed(_) => share,
            Processes::PerRound => Plan {
                rounds: plan.planned_rounds().div_ceil(processes),
                ..share
            },
        })
    }
}
