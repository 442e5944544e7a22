//! Progress on stderr. In a terminal, an indicatif bar with the current cell and an ETA,
//! cleared before each payload's table. Elsewhere (CI logs, `2>log`), plain lines: one
//! as each round starts and at least every [`PLAIN_EVERY`], with the ETA; with
//! `--verbose`, a line per finished cell too. Nothing with `--quiet`.

use std::cell::{Cell, RefCell};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::bench::Step;

/// The longest a log goes without a progress line while a payload is measured.
pub(crate) const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Where progress goes.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    plain: Option<RefCell<Plain>>,
    quiet: bool,
    /// With a span: the steps of its earlier payloads, and all the steps it may take.
    span: Cell<Option<(u64, u64)>>,
}

/// The plain-line reporter's state for the payload being measured.
struct Plain {
    started: Instant,
    last_line: Instant,
    steps: u64,
    round: Option<usize>,
}

impl Plain {
    /// A payload of `steps` cells·rounds, starting now.
    fn starting(steps: u64) -> Self {
        let now = Instant::now();
        Plain {
            started: now,
            last_line: now,
            steps,
            round: None,
        }
    }
}

impl Progress {
    /// A bar if stderr is a terminal, plain lines if not; neither when `quiet`.
    pub(crate) fn new(quiet: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} cells·rounds, ETA {eta}  {msg}")
                    .expect("a valid template"),
            );
            bar
        });
        let plain = (!quiet && !terminal).then(|| RefCell::new(Plain::starting(0)));
        Progress {
            bar,
            plain,
            quiet,
            span: Cell::new(None),
        }
    }

    /// Makes the next payload count as part of a span of payloads: `before` steps of it
    /// are done, and it takes `total` in all, so that the ETA is the span's. A span starts
    /// (and its clock with it) when `before` is 0.
    pub(crate) fn span(&self, before: u64, total: u64) {
        if before == 0 {
            if let Some(plain) = &self.plain {
                *plain.borrow_mut() = Plain::starting(total);
            }
        }
        self.span.set(Some((before, total)));
    }

    /// Shows a payload's heading and restarts the count for its `steps`.
    pub(crate) fn start_payload(&self, heading: &str, steps: u64) {
        self.line(heading);
        let span = self.span.get();
        if let Some(bar) = &self.bar {
            if span.is_none_or(|(before, _)| before == 0) {
                bar.reset();
            }
            bar.set_length(span.map_or(steps, |(_, total)| total));
            bar.set_position(span.map_or(0, |(before, _)| before));
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        if let Some(plain) = &self.plain {
            let mut plain = plain.borrow_mut();
            match span {
                Some((_, total)) => {
                    plain.steps = total;
                    plain.round = None;
                }
                None => *plain = Plain::starting(steps),
            }
        }
    }

    /// Moves to `step`, about to be measured.
    pub(crate) fn step(&self, step: &Step) {
        let before = self.span.get().map_or(0, |(before, _)| before);
        let done = before + (step.round * step.cells + step.cell) as u64;
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(format!(
                "round {}/{}: {}",
                step.round + 1,
                step.rounds,
                crate::format::one_line(&step.label)
            ));
        }
        if let Some(plain) = &self.plain {
            let now = Instant::now();
            let mut plain = plain.borrow_mut();
            let new_round = plain.round != Some(step.round);
            if new_round || now.duration_since(plain.last_line) >= PLAIN_EVERY {
                plain.round = Some(step.round);
                plain.last_line = now;
                let elapsed = now.duration_since(plain.started);
                let line = plain_line(step, done, plain.steps, elapsed);
                super::output::say(format_args!("  {line}"));
            }
        }
    }

    /// A progress line, unless quiet.
    pub(crate) fn line(&self, text: &str) {
        if self.quiet {
            return;
        }
        let text = crate::format::one_line(text);
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// A warning, shown even when quiet; `text` ends in a newline, and its lines are
    /// ours (a name in one is shown in one line where it is written).
    pub(crate) fn warn(&self, text: &str) {
        let text = crate::format::visible(text);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }

    /// Clears the bar, so that nothing of it stays above the payload's table.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A plain progress line: `round 2/5, 15/75 cells·rounds, 1m04s elapsed, ETA 4m16s:
/// small zstd 3 (libzstd 1.5.7)`.
fn plain_line(step: &Step, done: u64, steps: u64, elapsed: Duration) -> String {
    let eta = match eta(elapsed, done, steps) {
        Some(eta) => format!(", ETA {}", crate::format::clock_text(eta)),
        None => String::new(),
    };
    format!(
        "round {}/{}, {done}/{steps} cells·rounds, {} elapsed{eta}: {}",
        step.round + 1,
        step.rounds,
        crate::format::clock_text(elapsed),
        step.label
    )
}

/// Time left if the remaining steps go at the pace of the finished ones; unknown
/// before the first step finishes. Extra rounds for a precision target can run past
/// the planned steps: the estimate is then zero.
fn eta(elapsed: Duration, done: u64, steps: u64) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let left = steps.saturating_sub(done);
    Some(elapsed.mul_f64(left as f64 / done as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_extrapolates_the_pace_so_far() {
        assert_eq!(eta(Duration::from_secs(10), 0, 100), None);
        assert_eq!(
            eta(Duration::from_secs(10), 25, 100),
            Some(Duration::from_secs(30))
        );
        assert_eq!(eta(Duration::from_secs(10), 120, 100), Some(Duration::ZERO));
    }

    #[test]
    fn a_plain_line_says_where_the_run_is_and_what_is_left() {
        let step = Step {
            round: 1,
            rounds: 5,
            cell: 0,
            cells: 15,
            label: "small zstd 3 (libzstd 1.5.7)".to_string(),
        };
        assert_eq!(
            plain_line(&step, 15, 75, Duration::from_secs(64)),
            "round 2/5, 15/75 cells·rounds, 1m04s elapsed, ETA 4m16s: small zstd 3 (libzstd 1.5.7)"
        );
    }
}
