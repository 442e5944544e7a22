//! The settings of `ab`, checked: the baseline program, the threshold, the pairs and the
//! batch each build measures.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::measure::MeasureConfig;
use super::outputs::{Exports, Input};
use crate::bench::ab::pairs::AbPlan;
use crate::bench::schedule::{Iterations, Plan};
use crate::cli::AbArgs;
use crate::export::exporter::Format;

/// A batch's timed time per direction when neither --iterations nor --min-time says.
pub(crate) const BATCH_TIME: Duration = Duration::from_millis(25);
/// The most iterations a batch's time budget may size.
pub(crate) const BATCH_MAX_ITERATIONS: u32 = 1000;
/// Percentage points `--sight` lies above `--threshold` unless given: 3% for 2%.
const SIGHT_ABOVE_THRESHOLD: f64 = 1.0;
/// Pairs before a cell may be decided: each from workers of their own.
pub(crate) const MIN_PAIRS: usize = 9;

/// Settings of `codecbench ab`.
pub(crate) struct AbConfig {
    /// What to measure; the method only sizes each batch.
    pub measure: MeasureConfig,
    /// The baseline program.
    pub baseline: PathBuf,
    /// How the pairs go.
    pub plan: AbPlan,
    /// The files written at the end: JSON, Markdown and HTML only.
    pub exports: Exports,
    /// What stdout shows: a table, Markdown or JSON.
    pub format: Format,
}

/// Refuses a baseline that is not a file anyone may run, before anything is measured.
fn runnable(baseline: &std::path::Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let shown = baseline.display();
    match std::fs::metadata(baseline) {
        Err(_) => bail!("--baseline {shown}: no such program"),
        Ok(file) if !file.is_file() => bail!("--baseline {shown}: not a file"),
        Ok(file) if file.permissions().mode() & 0o111 == 0 => {
            bail!("--baseline {shown}: not a runnable program (no execute permission)")
        }
        Ok(_) => Ok(()),
    }
}

/// `--sight` as a fraction: by default the threshold plus one point; it must exceed the
/// threshold, as no interval is narrower than nothing.
fn sight_target(sight: Option<f64>, threshold: f64) -> Result<f64> {
    let sight = sight.unwrap_or(threshold + SIGHT_ABOVE_THRESHOLD);
    if !(sight.is_finite() && sight > threshold && sight <= 1000.0) {
        bail!(
            "--sight {sight} must be a percentage above --threshold ({threshold}) and at most 1000"
        );
    }
    Ok(sight / 100.0)
}

impl AbConfig {
    /// Validates `args`: a baseline that is a file, a threshold from 0 to 100%, a time
    /// that is positive, no --precision (pairs decide), no --measure instructions.
    pub(crate) fn from_args(mut args: AbArgs) -> Result<Self> {
        if args.measure.payloads.payloads.is_empty() && args.measure.payloads.records.is_empty() {
            args.measure.payloads.payloads.push("small".to_string());
        }
        if args.format == Format::Csv {
            bail!("--format csv does not apply to ab: table, markdown or json");
        }
        if args.measure.precision.is_some() {
            bail!(
                "--precision does not apply to ab: the pairs decide when a cell is measured enough"
            );
        }
        runnable(&args.baseline)?;
        if !(args.threshold.is_finite() && args.threshold > 0.0 && args.threshold < 100.0) {
            bail!(
                "--threshold {} must be a percentage above 0 and under 100",
                args.threshold
            );
        }
        if !(args.max_time.is_finite() && args.max_time > 0.0 && args.max_time <= 1e6) {
            bail!(
                "--max-time {} must be a number of seconds above 0",
                args.max_time
            );
        }
        let sight = sight_target(args.sight, args.threshold)?;
        crate::bench::calibrate::check_environment()?;
        let measure = MeasureConfig::from_args(args.measure)?;
        let exports = Exports {
            json: args.json,
            markdown: args.markdown,
            html: args.html,
            ..Default::default()
        };
        exports.check(&[
            Input::Payloads(&measure.payloads),
            Input::File(&args.baseline),
        ])?;
        let sized = measure.method.iterations.is_none();
        let batch = Plan {
            warmup: measure.method.warmup,
            iterations: measure.method.iterations.unwrap_or(Iterations::Budget {
                min_time: BATCH_TIME,
                max_iterations: BATCH_MAX_ITERATIONS,
            }),
            rounds: 1,
            precision: None,
            processes: 1,
        };
        let plan = AbPlan {
            batch,
            sized,
            threshold: args.threshold / 100.0,
            sight,
            min_pairs: MIN_PAIRS,
            max_pairs: args.max_pairs as usize,
            max_time: Duration::from_secs_f64(args.max_time),
        };
        Ok(AbConfig {
            measure,
            baseline: args.baseline,
            plan,
            exports,
            format: args.format,
        })
    }
}
