//! How each payload is measured, as asked, and the [`Plan`] that makes for one body:
//! the article's iteration counts from the body's size unless a count or a time budget
//! is given, and how many processes the timings are spread over.

use std::time::Duration;

use super::schedule::{Iterations, Plan, Precision};

/// `--quick`'s time per direction of each cell.
pub(crate) const QUICK_MIN_TIME: Duration = Duration::from_millis(50);
/// `--quick`'s cap on iterations.
pub(crate) const QUICK_MAX_ITERATIONS: u32 = 200;
/// The cap on iterations `--min-time` sizes when `--max-iterations` is not given.
pub(crate) const DEFAULT_MAX_ITERATIONS: u32 = 100_000;
/// The timed time per direction of each cell on a body cut to place the minimum body
/// size, when `--iterations` and `--min-time` are not given.
pub(crate) const BRACKET_MIN_TIME: Duration = Duration::from_millis(200);

/// Untimed warm-up iterations per direction, in each process, unless `--warmup` says.
pub(crate) const DEFAULT_WARMUP: u32 = 3;
/// Rounds the timed iterations are spread over, unless `--rounds` says.
pub(crate) const DEFAULT_ROUNDS: u32 = 5;

/// Timed iterations per process by default, as pyperf's 3 values per worker.
pub(crate) const ITERATIONS_PER_PROCESS: u32 = 3;

/// The most processes a payload is spread over by default: enough that one slow process
/// is outvoted (no unmodified pair of 10 at 15 iterations over 5 was judged regressed,
/// against 1 in one process), few enough that their warm-ups cost little.
pub(crate) const MOST_PROCESSES_BY_DEFAULT: u32 = 5;

/// How many processes time each payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Processes {
    /// `--processes N`; 1 times in this process.
    Fixed(u32),
    /// `run`'s default: one process per 3 timed iterations of a fixed count, at most 5,
    /// each running its share in rounds; one with a time budget or `--precision`.
    ByIterations,
}

/// How each payload is measured, before its size is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Method {
    /// Untimed warm-up iterations (see [`Plan::warmup`]).
    pub warmup: u32,
    /// Rounds to spread the timed iterations over.
    pub rounds: u32,
    /// `--iterations`, `--min-time` or `--quick`; `None` for the article's counts, from
    /// each body's size ([`default_iterations`]).
    pub iterations: Option<Iterations>,
    /// Further rounds until this precision, if asked for.
    pub precision: Option<Precision>,
    /// How many processes the timings of each payload are spread over.
    pub processes: Processes,
}

impl Method {
    /// How each direction of each cell of a body of `bytes` is measured.
    pub(crate) fn plan(&self, bytes: usize) -> Plan {
        let iterations = self
            .iterations
            .unwrap_or(Iterations::Fixed(default_iterations(bytes)));
        let processes = match (self.processes, iterations) {
            (Processes::Fixed(count), _) => count.max(1),
            (Processes::ByIterations, Iterations::Fixed(count)) if self.precision.is_none() => {
                (count / ITERATIONS_PER_PROCESS).clamp(1, MOST_PROCESSES_BY_DEFAULT)
            }
            (Processes::ByIterations, _) => 1,
        };
        Plan {
            warmup: self.warmup,
            iterations,
            rounds: self.rounds,
            precision: self.precision,
            processes,
        }
    }

    /// For bodies cut only to place the minimum body size: where the iterations follow
    /// the body's size, each direction of each cell is timed for [`BRACKET_MIN_TIME`]
    /// (at most the iterations of a body that small). The sign of a gain is what such a
    /// body is measured for.
    pub(crate) fn for_bracket(&mut self) {
        if self.iterations.is_none() {
            self.iterations = Some(Iterations::Budget {
                min_time: BRACKET_MIN_TIME,
                max_iterations: default_iterations(0),
            });
        }
    }

    /// For cells measured again for more samples: `more` timed iterations each way, in
    /// this process, with no precision target; warm-up and rounds as asked.
    pub(crate) fn again(&mut self, more: u32) {
        self.iterations = Some(Iterations::Fixed(more.max(1)));
        self.precision = None;
        self.processes = Processes::Fixed(1);
    }

    /// Times for the record only, beside counted instructions: one iteration each way,
    /// no warm-up, one round, in this process.
    pub(crate) fn once(&mut self) {
        *self = Method {
            warmup: 0,
            rounds: 1,
            iterations: Some(Iterations::Fixed(1)),
            precision: None,
            processes: Processes::Fixed(1),
        };
    }
}

/// Timed iterations for a body of `bytes` when the user gives no count: the article's
/// counts for its three payloads (1000 for one record, 60 for 292 KB, 15 for 2.9 MB).
pub(crate) fn default_iterations(bytes: usize) -> u32 {
    match bytes {
        0..=10_000 => 1000,
        10_001..=1_000_000 => 60,
        _ => 15,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(iterations: Option<Iterations>, processes: Processes) -> Method {
        Method {
            warmup: 3,
            rounds: 5,
            iterations,
            precision: None,
            processes,
        }
    }

    #[test]
    fn default_iterations_reproduce_the_article_for_the_builtins() {
        assert_eq!(default_iterations(290), 1000);
        assert_eq!(default_iterations(298_727), 60);
        assert_eq!(default_iterations(3_018_756), 15);
    }

    #[test]
    fn processes_follow_the_iterations_by_default() {
        let fixed = |n| method(Some(Iterations::Fixed(n)), Processes::ByIterations);
        let counts = [3, 5, 6, 15, 1000].map(|n| fixed(n).plan(290).processes);
        assert_eq!(counts, [1, 1, 2, 5, 5]);
        let asked = method(Some(Iterations::Fixed(30)), Processes::Fixed(10));
        assert_eq!(asked.plan(290).processes, 10);
        let by_size = method(None, Processes::ByIterations);
        assert_eq!(by_size.plan(3_018_756).iterations, Iterations::Fixed(15));
        assert_eq!(by_size.plan(3_018_756).processes, 5);
        let precise = Method {
            precision: Some(Precision {
                target: 0.05,
                budget: Duration::from_secs(1),
            }),
            ..by_size
        };
        assert_eq!(precise.plan(3_018_756).processes, 1);
    }

    #[test]
    fn cut_bodies_get_a_time_budget_unless_a_count_was_asked_for() {
        let mut by_size = method(None, Processes::ByIterations);
        by_size.for_bracket();
        let budget = Iterations::Budget {
            min_time: BRACKET_MIN_TIME,
            max_iterations: 1000,
        };
        assert_eq!(by_size.plan(290).iterations, budget);
        let mut asked = method(Some(Iterations::Fixed(7)), Processes::ByIterations);
        asked.for_bracket();
        assert_eq!(asked.plan(290).iterations, Iterations::Fixed(7));
    }
}
