//! Progress on stderr: an indicatif bar with the current cell and an ETA when stderr is a
//! terminal, one plain line per finished cell otherwise, nothing with `--quiet`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::bench::Step;

/// Where progress goes.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    /// A bar if stderr is a terminal and `quiet` is off; plain lines if it is not.
    pub fn new(quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} cells·rounds, ETA {eta}  {msg}")
                    .expect("a valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress { bar, quiet }
    }

    /// Shows a payload's heading and restarts the bar for its `steps`.
    pub fn start_payload(&self, heading: &str, steps: u64) {
        self.line(heading);
        if let Some(bar) = &self.bar {
            bar.set_length(steps);
            bar.reset();
        }
    }

    /// Moves the bar to `step`.
    pub fn step(&self, step: &Step) {
        if let Some(bar) = &self.bar {
            bar.set_position((step.round * step.cells + step.cell) as u64);
            bar.set_message(format!(
                "round {}/{}: {}",
                step.round + 1,
                step.rounds,
                step.label
            ));
        }
    }

    /// A progress line, unless quiet.
    pub fn line(&self, text: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// A warning, shown even when quiet; `text` ends in a newline.
    pub fn warn(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
