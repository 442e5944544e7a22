//! Checks of `compare`, `merge` and `pool`.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::outputs::{Exports, Input};
use crate::analysis::compare::{parse_reference, CompareOptions, SpeedBasis};
use crate::cli::{CompareArgs, MergeArgs, PoolArgs};
use crate::export::exporter::Format;
use crate::vocab::CodecKind;

/// Settings of `codecbench compare`.
pub(crate) struct CompareConfig {
    /// The reference run.
    pub baseline: PathBuf,
    /// The run judged.
    pub candidate: PathBuf,
    /// How to judge.
    pub options: CompareOptions,
    /// What stdout shows.
    pub format: Format,
    /// Where the HTML page goes, if anywhere.
    pub html: Option<PathBuf>,
}

impl CompareConfig {
    /// Checks the threshold and parses the reference.
    pub(crate) fn from_args(args: CompareArgs) -> Result<Self> {
        if !(args.threshold.is_finite() && (0.0..=1000.0).contains(&args.threshold)) {
            bail!(
                "--threshold {} must be a percentage from 0 to 1000",
                args.threshold
            );
        }
        if !(args.instructions_threshold.is_finite()
            && (0.0..=1000.0).contains(&args.instructions_threshold))
        {
            bail!(
                "--instructions-threshold {} must be a percentage from 0 to 1000",
                args.instructions_threshold
            );
        }
        let basis = if args.absolute {
            SpeedBasis::Absolute
        } else {
            let (codec, level) = parse_reference(&args.normalize_to)?;
            SpeedBasis::Normalized { codec, level }
        };
        if let Some(html) = &args.html {
            let inputs = [Input::File(&args.baseline), Input::File(&args.candidate)];
            super::outputs::check(&[("--export-html", html)], &inputs)?;
        }
        Ok(CompareConfig {
            html: args.html,
            baseline: args.baseline,
            candidate: args.candidate,
            options: CompareOptions {
                threshold: args.threshold / 100.0,
                basis,
                allow_size_drift: args.allow_size_drift,
                allow_missing: args.allow_missing,
                strict: args.strict,
                instructions_threshold: args.instructions_threshold / 100.0,
            },
            format: args.format,
        })
    }
}

/// Settings of `codecbench merge`.
pub(crate) struct MergeConfig {
    /// The runs, in column order.
    pub runs: Vec<PathBuf>,
    /// The reference codec and level for normalised speeds.
    pub reference: (CodecKind, i32),
    /// What stdout shows.
    pub format: Format,
}

impl MergeConfig {
    /// Parses the reference.
    pub(crate) fn from_args(args: MergeArgs) -> Result<Self> {
        Ok(MergeConfig {
            reference: parse_reference(&args.normalize_to)?,
            runs: args.runs,
            format: args.format,
        })
    }
}

/// Settings of `codecbench pool`.
pub(crate) struct PoolConfig {
    /// The runs to pool, in the order they ran.
    pub runs: Vec<PathBuf>,
    /// The files the pooled run is saved to.
    pub exports: Exports,
    /// What stdout shows.
    pub format: Format,
    /// Nothing on stderr but errors.
    pub quiet: bool,
}

impl PoolConfig {
    /// Refuses an output that is one of the runs, before anything is read.
    pub(crate) fn from_args(args: PoolArgs) -> Result<Self> {
        let exports = super::outputs::exports_of(&args.output);
        let inputs: Vec<Input> = args.runs.iter().map(|run| Input::File(run)).collect();
        exports.check(&inputs)?;
        Ok(PoolConfig {
            runs: args.runs,
            exports,
            format: args.output.format,
            quiet: args.quiet,
        })
    }
}
