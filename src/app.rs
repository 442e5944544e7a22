//! The commands. All file and terminal output happens here; everything it calls returns
//! data.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::bench::result::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};
use crate::bench::runner::{Plan, SystemClock};
use crate::bench::{run_payload, Step};
use crate::cli::{Cli, Command, CompareArgs, CompareFormat, MergeArgs, MergeFormat};
use crate::compare::{compare, parse_reference, CompareOptions, SpeedBasis};
use crate::config::{PayloadsConfig, RunConfig};
use crate::environment::{Environment, Pin};
use crate::exit_codes::ExitCode;
use crate::merge::merge;
use crate::payload::{self, BuiltinPayload};
use crate::progress::Progress;
use crate::report::{self, significant, thousands, Format};
use crate::runs;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run_benchmark(RunConfig::from_args(args)?),
        Command::Payloads(args) => write_payloads(PayloadsConfig::from_args(args)),
        Command::Compare(args) => compare_runs(args),
        Command::Merge(args) => merge_runs(args),
    }
}

fn compare_runs(args: CompareArgs) -> Result<ExitCode> {
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        bail!(
            "--threshold {} must be a percentage of 0 or more",
            args.threshold
        );
    }
    let basis = if args.absolute {
        SpeedBasis::Absolute
    } else {
        let (codec, level) = parse_reference(&args.normalize_to)?;
        SpeedBasis::Normalized { codec, level }
    };
    let options = CompareOptions {
        threshold: args.threshold / 100.0,
        basis,
        allow_size_drift: args.allow_size_drift,
    };
    let baseline = runs::load(&args.baseline)?;
    let candidate = runs::load(&args.candidate)?;
    let comparison = compare(&baseline, &candidate, &options)?;
    let bytes = match args.format {
        CompareFormat::Table => report::comparison::render_table(&comparison),
        CompareFormat::Markdown => report::comparison::render_markdown(&comparison),
        CompareFormat::Json => report::comparison::render_json(&comparison),
    };
    print(&bytes)?;
    Ok(if comparison.failed() {
        ExitCode::Failure
    } else {
        ExitCode::Success
    })
}

fn merge_runs(args: MergeArgs) -> Result<ExitCode> {
    let (codec, level) = parse_reference(&args.normalize_to)?;
    let runs = args
        .runs
        .iter()
        .map(|path| runs::load(path))
        .collect::<Result<Vec<_>>>()?;
    let merged = merge(&runs, &codec, level);
    let bytes = match args.format {
        MergeFormat::Table => report::merged::render_table(&merged),
        MergeFormat::Markdown => report::merged::render_markdown(&merged),
        MergeFormat::Csv => report::merged::render_csv(&merged),
    };
    print(&bytes)?;
    Ok(ExitCode::Success)
}

/// Writes a whole report to stdout.
fn print(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// A CSV file that grows by one row per measured cell, so a run that is cut short keeps
/// what it measured.
struct CsvFile {
    path: PathBuf,
    writer: BufWriter<File>,
}

impl CsvFile {
    fn create(path: &Path) -> Result<Self> {
        let file = File::create(path)
            .with_context(|| format!("cannot write CSV file {}", path.display()))?;
        let mut csv = CsvFile {
            path: path.to_path_buf(),
            writer: BufWriter::new(file),
        };
        csv.append(&report::csv::header())?;
        Ok(csv)
    }

    fn append(&mut self, bytes: &[u8]) -> Result<()> {
        self.writer
            .write_all(bytes)
            .and_then(|()| self.writer.flush())
            .with_context(|| format!("cannot write CSV file {}", self.path.display()))
    }
}

fn run_benchmark(config: RunConfig) -> Result<ExitCode> {
    // Everything that can be rejected is checked before the first measurement.
    let payloads = payload::load(&config.payloads, config.seed, config.rng)?;
    let mut csv_file = config
        .csv_path
        .as_deref()
        .map(CsvFile::create)
        .transpose()?;

    let stdout = io::stdout();
    let mut out = stdout.lock();
    if config.format == Format::Csv {
        out.write_all(&report::csv::header())?;
    }

    let pin = config.pin.map(pin_to).transpose()?;
    let progress = Progress::new(config.quiet);
    let clock = SystemClock::new();
    let mut report = RunReport {
        schema_version: SCHEMA_VERSION,
        environment: Environment {
            pin,
            ..Environment::current()
        },
        seed: config.seed,
        rng: config.rng.to_string(),
        payloads: Vec::new(),
    };
    let cell_count: usize = config.settings.iter().map(|s| s.levels.len()).sum();
    for (index, payload) in payloads.iter().enumerate() {
        let plan = Plan {
            warmup: config.warmup,
            rounds: config.rounds,
            iterations: config.iterations.for_payload(payload.bytes.len()),
        };
        let planned = PayloadResult::planned(&payload.name, &payload.bytes, plan);
        progress.start_payload(
            &format!(
                "{}: {} bytes, {cell_count} settings, {} each way",
                payload.name,
                thousands(payload.bytes.len() as u64),
                report::iteration_text(&planned),
            ),
            (cell_count * plan.rounds as usize) as u64,
        );
        let mut on_step = |step: Step| progress.step(&step);
        let mut on_cell = |result: &PayloadResult, cell: &CellResult| -> Result<()> {
            progress.line(&format!("  {}", progress_line(result.input_bytes, cell)));
            let row = report::csv::row(result, cell);
            if let Some(csv) = csv_file.as_mut() {
                csv.append(&row)?;
            }
            if config.format == Format::Csv {
                out.write_all(&row)?;
                out.flush()?;
            }
            Ok(())
        };
        let result = run_payload(
            &payload.name,
            &payload.bytes,
            &config.settings,
            plan,
            &clock,
            &mut on_step,
            &mut on_cell,
        )?;
        if let Some(warning) = report::noise_warning(&result) {
            progress.warn(&warning);
        }
        match config.format {
            Format::Table => out.write_all(&report::table::render_payload(&result))?,
            Format::Markdown => out.write_all(&report::markdown::render_payload(&result))?,
            Format::Csv | Format::Json => {}
        }
        let more_to_come = index + 1 < payloads.len();
        if more_to_come && matches!(config.format, Format::Table | Format::Markdown) {
            out.write_all(b"\n")?;
        }
        out.flush()?;
        report.payloads.push(result);
        if let Some(path) = &config.json_path {
            write_file(path, &report::json::render(&report))?;
        }
    }
    progress.finish();
    if config.format == Format::Json {
        out.write_all(&report::json::render(&report))?;
        out.flush()?;
    }

    let failures = report.failures();
    if failures.is_empty() {
        return Ok(ExitCode::Success);
    }
    for failure in &failures {
        eprintln!("codecbench: FAILED {failure}");
    }
    Ok(ExitCode::Failure)
}

/// Pins this thread, which does all the measuring, to logical CPU `cpu`. A CPU the
/// process may not use is bad input; an OS that refuses pinning gets a warning.
fn pin_to(cpu: usize) -> Result<Pin> {
    let available = core_affinity::get_core_ids().unwrap_or_default();
    let Some(&core) = available.iter().find(|core| core.id == cpu) else {
        let ids: Vec<String> = available.iter().map(|c| c.id.to_string()).collect();
        bail!(
            "--pin {cpu}: no such CPU available to this process (available: {})",
            if ids.is_empty() {
                "unknown".to_string()
            } else {
                ids.join(", ")
            }
        );
    };
    let pinned = core_affinity::set_for_current(core);
    if !pinned {
        eprintln!("codecbench: warning: --pin {cpu}: the OS refused; measuring unpinned");
    }
    Ok(Pin { cpu, pinned })
}

/// The stderr line printed after each cell.
fn progress_line(input_bytes: u64, cell: &CellResult) -> String {
    let head = format!("{:<6} {:>3}", cell.codec, cell.level);
    if let Some(why) = &cell.failure {
        return format!("{head}: FAILED: {why}");
    }
    format!(
        "{head}: {} B ({:.2}x), compress {} MB/s, decompress {} MB/s",
        thousands(cell.compressed_bytes),
        cell.ratio(input_bytes).unwrap_or(0.0),
        significant(cell.compress_mb_s(input_bytes).unwrap_or(0.0), 3),
        significant(cell.decompress_mb_s(input_bytes).unwrap_or(0.0), 3),
    )
}

fn write_payloads(config: PayloadsConfig) -> Result<ExitCode> {
    std::fs::create_dir_all(&config.out)
        .with_context(|| format!("cannot create directory {}", config.out.display()))?;
    let files: Vec<(String, u64)> = match config.records {
        Some(records) => vec![(format!("records-{records}.json"), records)],
        None => BuiltinPayload::ALL
            .iter()
            .map(|p| (format!("{}.json", p.name()), p.records()))
            .collect(),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (file_name, records) in files {
        let path = config.out.join(file_name);
        let bytes = payload::generate(records, config.seed, config.rng);
        write_file(&path, &bytes)?;
        writeln!(
            out,
            "{}: {records} records, {} bytes",
            path.display(),
            thousands(bytes.len() as u64)
        )?;
    }
    Ok(ExitCode::Success)
}

/// Writes a whole file, naming it in the error.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
