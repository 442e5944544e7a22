//! What each direction of each cell runs: iterations fixed or sized from a time budget,
//! spread over rounds, with adaptive stopping for a precision.

use std::time::Duration;

/// How many timed iterations each direction of each cell gets.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Iterations {
    /// Exactly this many, at least 1: the article's method.
    Fixed(u32),
    /// Enough to fill `min_time`, sized from the first (reference) run of each direction,
    /// as lzbench `-t` and hyperfine `--min-benchmarking-time` do; at most
    /// `max_iterations`. A direction whose first run alone lasts `min_time` keeps that run
    /// as its one sample.
    Budget {
        /// Timed time to fill per direction.
        min_time: Duration,
        /// Cap on the count.
        max_iterations: u32,
    },
}

/// Adaptive stopping, as BenchmarkDotNet's `MaxRelativeError`: after its planned rounds a
/// cell gets further rounds until the 95% confidence interval of each direction's median
/// is within `target` of the median, or its timed time passes `budget`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Precision {
    /// The largest relative half-width of the interval, e.g. 0.02 for ±2%.
    pub target: f64,
    /// The most timed time a cell may take, both directions together.
    pub budget: Duration,
}

/// Extra rounds a cell may get on top of its planned ones, whatever the budget, so that
/// iterations a clock cannot see still end.
pub(crate) const MAX_EXTRA_ROUNDS: usize = 200;

/// A first run at least this long is warm-up enough, and one of a fixed count's samples:
/// what a cold process adds to an iteration (about 0.4 ms: some 100 page faults on new
/// buffers) is then at most 1% of it, while each warm-up iteration would cost a whole
/// one. brotli 11 compresses the large payload in about 8 s.
pub(crate) const LONG_ITERATION: Duration = Duration::from_millis(40);

/// How to measure each direction of each cell.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Plan {
    /// Untimed warm-up iterations before the first round's timed ones. Later rounds
    /// re-warm with one iteration (none if this is 0). A direction whose first run took
    /// [`LONG_ITERATION`] or more gets none. With a time budget, warm-up also stops at a
    /// quarter of `min_time`.
    pub warmup: u32,
    /// Timed iterations.
    pub iterations: Iterations,
    /// Rounds to spread the timed iterations over; at least 1.
    pub rounds: u32,
    /// Further rounds until a precision is reached, if asked for.
    pub precision: Option<Precision>,
    /// Processes the timings are spread over, one after another; at least 1. Each runs
    /// its [`Plan::share`].
    pub processes: u32,
}

/// What one direction of one cell runs, decided once its first run is timed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Schedule {
    /// Untimed iterations before the first round.
    pub warmup: u32,
    /// Untimed iterations before each later round.
    pub rewarm: u32,
    /// Timed iterations in each round; fewer entries than rounds when there are fewer
    /// iterations than rounds. With `round_time`, the most a round may run.
    pub per_round: Vec<u32>,
    /// With a time budget: each round runs timed iterations until their times add up to
    /// this (at least one, at most the round's `per_round`).
    pub round_time: Option<Duration>,
    /// The first run is kept as the only sample (a time budget it already filled).
    pub reuse_first_run: bool,
}

impl Plan {
    /// Process `process`'s share (from 0) of the timings, a plan for one process: a
    /// fixed count split as evenly as it goes, the earlier processes taking the extra
    /// ones; a time budget and its cap divided. Every process warms up as planned: each
    /// starts cold (its first timed compression of the large payload took about 100 page
    /// faults after a single warm-up, none after three). `None` for a process left with
    /// nothing.
    pub(crate) fn share(self, process: u32) -> Option<Plan> {
        let processes = self.processes.max(1);
        let iterations = match self.iterations {
            Iterations::Fixed(count) => {
                let count = count / processes + u32::from(process < count % processes);
                if count == 0 {
                    return None;
                }
                Iterations::Fixed(count)
            }
            Iterations::Budget {
                min_time,
                max_iterations,
            } => Iterations::Budget {
                min_time: min_time / processes,
                max_iterations: max_iterations.div_ceil(processes),
            },
        };
        Some(Plan {
            iterations,
            processes: 1,
            ..self
        })
    }

    /// The rounds each process runs before any that `precision` adds (0 for a process
    /// with no share), in process order.
    pub(crate) fn rounds_of_each(self) -> Vec<u32> {
        (0..self.processes.max(1))
            .map(|process| {
                self.share(process)
                    .map_or(0, |share| share.planned_rounds())
            })
            .collect()
    }

    /// The rounds a fixed count of `count` iterations runs in: those asked for, but
    /// never more than one per iteration.
    pub(crate) fn rounds_for(&self, count: u32) -> u32 {
        self.rounds.clamp(1, count.max(1))
    }

    /// The rounds this plan runs before any that `precision` adds.
    pub(crate) fn planned_rounds(&self) -> u32 {
        match self.iterations {
            Iterations::Fixed(count) => self.rounds_for(count),
            Iterations::Budget { .. } => self.rounds,
        }
    }

    /// The schedule of a direction whose first, untimed-for-the-results run took `first`.
    pub(crate) fn schedule(&self, first: Duration) -> Schedule {
        // A long first run is warm-up enough (see [`LONG_ITERATION`]).
        let long = first >= LONG_ITERATION;
        match self.iterations {
            Iterations::Fixed(count) => {
                let count = count.max(1);
                if long {
                    // The first run is one of the samples: a cold start is under 1% of it.
                    let timed = count - 1;
                    return Schedule {
                        warmup: 0,
                        rewarm: 0,
                        per_round: split(timed, self.rounds_for(timed)),
                        round_time: None,
                        reuse_first_run: true,
                    };
                }
                Schedule {
                    warmup: self.warmup,
                    rewarm: rewarm(self.warmup),
                    per_round: split(count, self.rounds_for(count)),
                    round_time: None,
                    reuse_first_run: false,
                }
            }
            Iterations::Budget {
                min_time,
                max_iterations,
            } => self.budget_schedule(first, min_time, max_iterations),
        }
    }

    /// The schedule under a time budget of `min_time` and at most `max_iterations`,
    /// after a first run of `first`.
    fn budget_schedule(
        &self,
        first: Duration,
        min_time: Duration,
        max_iterations: u32,
    ) -> Schedule {
        if first >= min_time {
            return Schedule {
                warmup: 0,
                rewarm: 0,
                per_round: Vec::new(),
                round_time: None,
                reuse_first_run: true,
            };
        }
        // The first run is often slower than the rest (cold caches), so it only sets the
        // number of rounds and the warm-up; the rounds then run by time.
        let per_run = first.as_secs_f64().max(1e-9);
        let estimate = (min_time.as_secs_f64() / per_run).ceil();
        let warm_budget = (min_time.as_secs_f64() / 4.0 / per_run).floor();
        let cap = max_iterations.max(1);
        let rounds = self.rounds.clamp(1, (estimate as u32).clamp(1, cap));
        let warmup = match first >= LONG_ITERATION {
            true => 0,
            false => self.warmup.min(warm_budget as u32),
        };
        Schedule {
            warmup,
            rewarm: rewarm(warmup),
            per_round: split(cap, rounds),
            round_time: Some(min_time / rounds),
            reuse_first_run: false,
        }
    }
}

/// `count` split over `rounds` as evenly as it goes, the earlier rounds taking the extra
/// ones.
fn split(count: u32, rounds: u32) -> Vec<u32> {
    let (share, extra) = (count / rounds, count % rounds);
    (0..rounds).map(|r| share + u32::from(r < extra)).collect()
}

/// What a later round warms up with after a first warm-up of `warmup`: one iteration,
/// none without a warm-up.
fn rewarm(warmup: u32) -> u32 {
    warmup.min(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_examples() {
        let plan = Plan {
            warmup: 2,
            iterations: Iterations::Fixed(7),
            rounds: 5,
            precision: None,
            processes: 3,
        };
        let shares: Vec<_> = (0..3).map(|p| plan.share(p).unwrap()).collect();
        let counts: Vec<_> = shares.iter().map(|share| share.iterations).collect();
        assert_eq!(
            counts,
            [
                Iterations::Fixed(3),
                Iterations::Fixed(2),
                Iterations::Fixed(2)
            ]
        );
        assert!(shares
            .iter()
            .all(|share| share.warmup == 2 && share.processes == 1));
        let eight = Plan {
            processes: 8,
            ..plan
        };
        assert_eq!(eight.share(7), None);
        assert_eq!(eight.rounds_of_each(), [1, 1, 1, 1, 1, 1, 1, 0]);
    }

    #[test]
    fn schedule_examples() {
        use std::time::Duration;

        let plan = Plan {
            warmup: 3,
            iterations: Iterations::Fixed(12),
            rounds: 5,
            precision: None,
            processes: 1,
        };
        let quick = plan.schedule(Duration::from_millis(1));
        assert_eq!(
            (quick.per_round, quick.warmup, quick.rewarm),
            (vec![3, 3, 2, 2, 2], 3, 1)
        );
        let long = plan.schedule(Duration::from_secs(8));
        assert_eq!(
            (long.warmup, long.rewarm, long.reuse_first_run),
            (0, 0, true)
        );
        assert_eq!(
            long.per_round,
            [3, 2, 2, 2, 2],
            "the first run is the 12th sample"
        );
        let budget = Iterations::Budget {
            min_time: Duration::from_millis(100),
            max_iterations: 1000,
        };
        let plan = Plan {
            iterations: budget,
            ..plan
        };
        let schedule = plan.schedule(Duration::from_millis(7));
        assert_eq!(schedule.round_time, Some(Duration::from_millis(20)));
        assert_eq!(schedule.per_round, [200; 5]);
    }
}
