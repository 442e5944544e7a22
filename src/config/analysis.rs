//! Checks of `recommend`, `zstd-params`, `reproduce` and `plot`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::levels::checked_levels;
use super::outputs::{self, Exports, Input};
use super::payloads::payload_sources;
use crate::analysis::recommend::{AdviceOptions, Link};
use crate::cli::{MeasureArgs, RecommendArgs, ReproduceArgs, RunSourceArgs, ZstdParamsArgs};
use crate::export::exporter::Format;
use crate::payload::{PayloadSource, RngKind};
use crate::vocab::{CodecKind, Server};

/// Settings of `codecbench recommend`.
pub(crate) struct RecommendConfig {
    /// The run to advise on.
    pub source: RunSource,
    /// Budgets and link speeds.
    pub options: AdviceOptions,
    /// What stdout shows.
    pub format: Format,
    /// Servers to print configuration for instead of the report.
    pub emit: Vec<crate::vocab::Server>,
    /// The nginx has zstd-nginx-module: write its directives live.
    pub nginx_zstd_module: bool,
    /// Where the HTML page goes, if anywhere.
    pub html: Option<PathBuf>,
}

/// The run `recommend` and `reproduce` analyse: a saved one, or one to measure.
pub(crate) struct RunSource {
    /// A saved run to read instead of measuring.
    pub from: Option<PathBuf>,
    /// What to measure when there is no saved run; checked when it is used.
    pub measure: MeasureArgs,
    /// Where the measured run is saved, if anywhere.
    pub save: Exports,
    /// zstd levels to also measure through the one-shot API, among those measured.
    pub one_shot_zstd: Vec<i32>,
    /// Settings to also measure as ASP.NET Core's middleware feeds them (minimal APIs),
    /// among those measured.
    pub aspnetcore_wire: Vec<(CodecKind, i32)>,
}

impl RunSource {
    /// Checks `--export-json` against the payloads and the command's other outputs,
    /// `written`.
    fn from_args(args: RunSourceArgs, written: &[&Path]) -> Result<Self> {
        let save = Exports {
            json: args.export_json,
            ..Exports::default()
        };
        if let Some(path) = &save.json {
            let payloads = payload_sources(
                &args.measure.payloads.payloads,
                &args.measure.payloads.records,
            )?;
            let mut inputs = vec![Input::Payloads(&payloads)];
            inputs.extend(written.iter().map(|p| Input::File(p)));
            outputs::check(&[("--export-json", path)], &inputs)?;
        }
        Ok(RunSource {
            from: args.from,
            measure: args.measure,
            save,
            one_shot_zstd: Vec::new(),
            aspnetcore_wire: Vec::new(),
        })
    }
}

/// Refuses an `--export-html` page that would overwrite the saved run or a payload the
/// command reads.
fn html_page(html: &Option<PathBuf>, source: &RunSourceArgs) -> Result<()> {
    let Some(out) = html else { return Ok(()) };
    let payloads = payload_sources(
        &source.measure.payloads.payloads,
        &source.measure.payloads.records,
    )?;
    let mut inputs = vec![Input::Payloads(&payloads)];
    inputs.extend(source.from.as_deref().map(Input::File));
    outputs::check(&[("--export-html", out)], &inputs)
}

impl RecommendConfig {
    /// Checks the budgets and link speeds. An answer for one server that codecbench
    /// models is measured as that server sends (`--server`), unless told otherwise.
    pub(crate) fn from_args(mut args: RecommendArgs) -> Result<Self> {
        let profiled: Vec<Server> = args
            .emit
            .iter()
            .copied()
            .filter(|s| s.has_profile())
            .collect();
        let measure = &mut args.source.measure;
        let unset = measure.server.is_none() && measure.api.is_none() && args.source.from.is_none();
        if let ([server], true) = (profiled.as_slice(), unset) {
            measure.server = Some(*server);
        }
        for (name, value) in [
            ("--latency-budget-ms", args.latency_budget_ms),
            ("--cache-budget-ms", args.cache_budget_ms),
        ] {
            if !(value.is_finite() && value > 0.0) {
                bail!("{name} {value} must be a number of milliseconds above 0");
            }
        }
        if let Some(bad) = args
            .bandwidth
            .iter()
            .find(|b| !(b.is_finite() && **b > 0.0))
        {
            bail!("--bandwidth {bad} must be a number of Mbit/s above 0");
        }
        if !(args.link.is_finite() && args.link > 0.0) {
            bail!("--link {} must be a number of Mbit/s above 0", args.link);
        }
        if !(args.rtt.is_finite() && args.rtt >= 0.0) {
            bail!(
                "--rtt {} must be a number of milliseconds, 0 or more",
                args.rtt
            );
        }
        html_page(&args.html, &args.source)?;
        let written: Vec<&Path> = args.html.iter().map(PathBuf::as_path).collect();
        Ok(RecommendConfig {
            html: args.html.clone(),
            source: RunSource::from_args(args.source, &written)?,
            options: AdviceOptions {
                latency_budget_s: args.latency_budget_ms / 1e3,
                cache_budget_s: args.cache_budget_ms / 1e3,
                link: Link {
                    mbit: args.link,
                    rtt_s: args.rtt / 1e3,
                },
                bandwidths_mbit: args.bandwidth,
                pick_rust_brotli: args.pick_rust_brotli,
                no_fallback: args.no_fallback,
                weights: match &args.weights {
                    Some(path) => super::weights::read(path)?,
                    None => Vec::new(),
                },
            },
            format: args.format,
            emit: args.emit,
            nginx_zstd_module: args.nginx_zstd_module,
        })
    }
}

/// Settings of `codecbench zstd-params`.
pub(crate) struct ZstdParamsConfig {
    /// zstd levels, checked against libzstd's range.
    pub levels: Vec<i32>,
    /// Payloads whose sizes the parameters are shown for.
    pub payloads: Vec<PayloadSource>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
    /// What stdout shows.
    pub format: Format,
}

impl ZstdParamsConfig {
    /// Checks the levels and payload names.
    pub(crate) fn from_args(args: ZstdParamsArgs) -> Result<Self> {
        let range = ::zstd::zstd_safe::min_c_level()..=::zstd::zstd_safe::max_c_level();
        Ok(ZstdParamsConfig {
            levels: checked_levels(&args.levels, "--levels", "zstd", range, "libzstd")?,
            payloads: payload_sources(&args.payloads, &[])?,
            seed: args.generator.seed,
            rng: args.generator.rng,
            format: args.format,
        })
    }
}

/// Settings of `codecbench plot`.
pub(crate) struct PlotConfig {
    /// The saved run.
    pub run: PathBuf,
    /// Where the SVG goes.
    pub out: PathBuf,
}

impl PlotConfig {
    /// Refuses an output that would overwrite the run it draws.
    pub(crate) fn from_args(args: crate::cli::PlotArgs) -> Result<Self> {
        outputs::check(&[("-o", &args.out)], &[Input::File(&args.run)])?;
        Ok(PlotConfig {
            run: args.run,
            out: args.out,
        })
    }
}

/// Settings of `codecbench report`.
pub(crate) struct ReportConfig {
    /// The runs, one section each.
    pub runs: Vec<PathBuf>,
    /// The run the first is judged against, if any.
    pub baseline: Option<PathBuf>,
    /// How it is judged: `compare`'s defaults.
    pub options: crate::analysis::compare::CompareOptions,
    /// Where the page goes.
    pub out: PathBuf,
}

impl ReportConfig {
    /// Refuses an output that would overwrite a run it reads.
    pub(crate) fn from_args(args: crate::cli::ReportArgs) -> Result<Self> {
        let inputs: Vec<Input> = args
            .runs
            .iter()
            .chain(&args.baseline)
            .map(|p| Input::File(p))
            .collect();
        outputs::check(&[("--out", &args.out)], &inputs)?;
        Ok(ReportConfig {
            runs: args.runs,
            baseline: args.baseline,
            options: crate::analysis::compare::CompareOptions::default(),
            out: args.out,
        })
    }
}

/// Settings of `codecbench reproduce`.
pub(crate) struct ReproduceConfig {
    /// The run to check.
    pub source: RunSource,
    /// Where the Markdown report goes, if anywhere.
    pub out: Option<PathBuf>,
    /// Where the HTML page goes, if anywhere.
    pub html: Option<PathBuf>,
}

impl ReproduceConfig {
    /// Refuses an output that does not fit (no such directory, or a path that would
    /// overwrite the saved run or a payload), before measuring for minutes.
    pub(crate) fn from_args(args: ReproduceArgs) -> Result<Self> {
        if let Some(out) = &args.out {
            let payloads = payload_sources(
                &args.source.measure.payloads.payloads,
                &args.source.measure.payloads.records,
            )?;
            let mut inputs = vec![Input::Payloads(&payloads)];
            inputs.extend(args.source.from.as_deref().map(Input::File));
            outputs::check(&[("--out", out)], &inputs)?;
        }
        html_page(&args.html, &args.source)?;
        if let (Some(out), Some(html)) = (&args.out, &args.html) {
            outputs::distinct(&[("--out", out), ("--export-html", html)])?;
        }
        let written: Vec<&Path> = args
            .out
            .iter()
            .chain(&args.html)
            .map(PathBuf::as_path)
            .collect();
        // The ratio claims the article took from native libzstd read one-shot cells:
        // measured by default, unless --api says what to measure.
        let one_shot_zstd = match args.source.measure.api {
            None => crate::analysis::reproduce::ONE_SHOT_ZSTD_LEVELS.to_vec(),
            Some(_) => Vec::new(),
        };
        // The conclusions on ASP.NET Core's wire read cells fed as its middleware feeds
        // them, measured beside the article's unless --api or --server says otherwise.
        let measure = &args.source.measure;
        let aspnetcore_wire = if measure.api.is_none() && measure.server.is_none() {
            crate::analysis::reproduce::aspnetcore::WIRE_SETTINGS.to_vec()
        } else {
            Vec::new()
        };
        let mut source = RunSource::from_args(args.source, &written)?;
        source.one_shot_zstd = one_shot_zstd;
        source.aspnetcore_wire = aspnetcore_wire;
        Ok(ReproduceConfig {
            source,
            out: args.out,
            html: args.html,
        })
    }
}
