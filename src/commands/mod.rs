//! The commands. All file and terminal output happens here; everything it calls returns
//! data.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::analysis::compare::{compare, parse_reference, CompareOptions, SpeedBasis};
use crate::analysis::merge::merge;
use crate::analysis::recommend::{advise, AdviceOptions};
use crate::bench::runner::{Plan, SystemClock};
use crate::bench::{interrupt, run_payload, Step};
use crate::cli::{
    Cli, Command, CompareArgs, CompareFormat, HttpArgs, MeasureArgs, MergeArgs, MergeFormat,
    ParamsFormat, PlotArgs, RecommendArgs, ReproduceArgs, ZstdParamsArgs,
};
use crate::config::{MeasureConfig, PayloadsConfig, RunConfig};
use crate::environment::{Environment, Pin};
use crate::error::ExitCode;
use crate::export::zstd_params::ParamsTable;
use crate::export::{self, significant, thousands, Format};
use crate::payload::{self, BuiltinPayload};
use crate::progress::Progress;
use crate::results;
use crate::results::codec::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run_benchmark(RunConfig::from_args(args)?),
        Command::Payloads(args) => write_payloads(PayloadsConfig::from_args(args)?),
        Command::Compare(args) => compare_runs(args),
        Command::Merge(args) => merge_runs(args),
        Command::Recommend(args) => recommend(args),
        Command::ZstdParams(args) => zstd_params(args),
        Command::Reproduce(args) => reproduce(args),
        Command::Plot(args) => plot(args),
        Command::Http(args) => http(args),
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
        allow_missing: args.allow_missing,
    };
    let baseline = results::load(&args.baseline)?;
    let candidate = results::load(&args.candidate)?;
    let comparison = compare(&baseline, &candidate, &options)?;
    let bytes = match args.format {
        CompareFormat::Table => export::comparison::render_table(&comparison),
        CompareFormat::Markdown => export::comparison::render_markdown(&comparison),
        CompareFormat::Json => export::comparison::render_json(&comparison),
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
        .map(|path| results::load(path))
        .collect::<Result<Vec<_>>>()?;
    let merged = merge(&runs, codec, level);
    let bytes = match args.format {
        MergeFormat::Table => export::merged::render_table(&merged),
        MergeFormat::Markdown => export::merged::render_markdown(&merged),
        // One CSV has one set of columns: codec runs and `http` runs each have theirs.
        MergeFormat::Csv => match (merged.rows.is_empty(), merged.http_rows.is_empty()) {
            (false, false) => bail!(
                "merge --format csv takes runs of one kind: these mix `run` and `http` results; merge them separately"
            ),
            (true, false) => export::merged::render_http_csv(&merged),
            _ => export::merged::render_csv(&merged),
        },
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

/// The files `run --csv` and `--json` keep up to date. Both are rewritten whole, atomically,
/// after every finished cell, so a run cut short leaves complete files of what it
/// finished, never a half-written row.
struct SavedFiles {
    csv: Option<PathBuf>,
    json: Option<PathBuf>,
}

impl SavedFiles {
    /// Writes `report` (with `current`, the payload being measured, if any) to each file.
    fn save(&self, report: &RunReport, current: Option<&PayloadResult>) -> Result<()> {
        self.write(
            || export::csv::render_with(report, current),
            || export::json::render_with(report, current),
        )
    }

    /// Writes what `csv` renders to the CSV file and what `json` renders to the JSON
    /// file, rendering only for the files asked for.
    fn write(&self, csv: impl FnOnce() -> Vec<u8>, json: impl FnOnce() -> Vec<u8>) -> Result<()> {
        if let Some(path) = &self.csv {
            write_file(path, &csv())?;
        }
        if let Some(path) = &self.json {
            write_file(path, &json())?;
        }
        Ok(())
    }

    /// Where the results went, for the message after a stop: `written to FILE and
    /// FILE`, or that nothing was saved.
    fn whereabouts(&self) -> String {
        let names: Vec<String> = [&self.csv, &self.json]
            .into_iter()
            .flatten()
            .map(|p| p.display().to_string())
            .collect();
        if names.is_empty() {
            "nothing saved (no --csv or --json)".to_string()
        } else {
            format!("written to {}", names.join(" and "))
        }
    }
}

/// What the caller does with results as they come: the payload so far after each
/// finished cell (the new cell is its last), then each finished payload with the report.
struct Sinks<'a> {
    cell: &'a mut dyn FnMut(&RunReport, &PayloadResult) -> Result<()>,
    payload: &'a mut dyn FnMut(&RunReport, bool) -> Result<()>,
}

/// Measures every payload of `config`, with progress and noise warnings on stderr.
/// Payloads are loaded, and `--pin` applied, before the first measurement. A stop request
/// (Ctrl-C, SIGTERM) ends the run after the iteration in flight; the report then holds
/// what was finished.
fn measure_all(config: &MeasureConfig, sinks: Sinks) -> Result<RunReport> {
    let payloads = payload::load(&config.payloads, config.seed, config.rng)?;
    let pin = config.pin.map(pin_to).transpose()?;
    interrupt::install()?;
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
        if interrupt::requested() {
            break;
        }
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
                export::iteration_text(&planned),
            ),
            (cell_count * plan.rounds as usize) as u64,
        );
        let mut on_step = |step: Step| progress.step(&step);
        let mut on_cell = |so_far: &PayloadResult| -> Result<()> {
            let cell = so_far.cells.last().expect("a cell was just added");
            progress.line(&format!("  {}", progress_line(so_far.input_bytes, cell)));
            (sinks.cell)(&report, so_far)
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
        if let Some(warning) = export::noise_warning(&result) {
            progress.warn(&warning);
        }
        report.payloads.push(result);
        let last = index + 1 == payloads.len() || interrupt::requested();
        (sinks.payload)(&report, last)?;
    }
    progress.finish();
    Ok(report)
}

fn run_benchmark(config: RunConfig) -> Result<ExitCode> {
    // Everything that can be rejected is checked before the first measurement: writing
    // the empty files now proves the paths writable.
    let files = SavedFiles {
        csv: config.csv_path.clone(),
        json: config.json_path.clone(),
    };
    let empty = RunReport {
        schema_version: SCHEMA_VERSION,
        environment: Environment::current(),
        seed: config.measure.seed,
        rng: config.measure.rng.to_string(),
        payloads: Vec::new(),
    };
    files.save(&empty, None)?;
    let stdout = io::stdout();
    let out = RefCell::new(stdout.lock());
    if config.format == Format::Csv {
        out.borrow_mut().write_all(&export::csv::header())?;
    }
    let mut on_cell = |report: &RunReport, so_far: &PayloadResult| -> Result<()> {
        files.save(report, Some(so_far))?;
        if config.format == Format::Csv {
            let cell = so_far.cells.last().expect("a cell was just added");
            let mut out = out.borrow_mut();
            out.write_all(&export::csv::row(so_far, cell))?;
            out.flush()?;
        }
        Ok(())
    };
    let mut on_payload = |report: &RunReport, last: bool| -> Result<()> {
        let result = report.payloads.last().expect("a payload was just added");
        files.save(report, None)?;
        let mut out = out.borrow_mut();
        match config.format {
            Format::Table => out.write_all(&export::table::render_payload(result))?,
            Format::Markdown => out.write_all(&export::markdown::render_payload(result))?,
            Format::Csv | Format::Json => {}
        }
        if !last && matches!(config.format, Format::Table | Format::Markdown) {
            out.write_all(b"\n")?;
        }
        out.flush()?;
        Ok(())
    };
    let report = measure_all(
        &config.measure,
        Sinks {
            cell: &mut on_cell,
            payload: &mut on_payload,
        },
    )?;
    if config.format == Format::Json {
        let mut out = out.borrow_mut();
        out.write_all(&export::json::render(&report))?;
        out.flush()?;
    }
    if interrupt::requested() {
        let cells: usize = report.payloads.iter().map(|p| p.cells.len()).sum();
        eprintln!(
            "codecbench: interrupted; {cells} measured cells {}",
            files.whereabouts()
        );
        return Ok(ExitCode::Interrupted);
    }
    Ok(exit_for_failures(&report))
}

/// Exit 1, naming each failed cell on stderr, if any round trip failed.
fn exit_for_failures(report: &RunReport) -> ExitCode {
    let failures = report.failures();
    for failure in &failures {
        eprintln!("codecbench: FAILED {failure}");
    }
    if failures.is_empty() {
        ExitCode::Success
    } else {
        ExitCode::Failure
    }
}

fn zstd_params(args: ZstdParamsArgs) -> Result<ExitCode> {
    let levels = crate::config::parse_levels(&args.levels)
        .with_context(|| format!("invalid --levels '{}'", args.levels))?;
    let range = ::zstd::zstd_safe::min_c_level()..=::zstd::zstd_safe::max_c_level();
    if let Some(bad) = levels.iter().find(|l| !range.contains(l)) {
        bail!(
            "zstd level {bad} is out of range: libzstd accepts {}..={}",
            range.start(),
            range.end()
        );
    }
    let sources = crate::config::payload_sources(&args.payloads)?;
    let payloads = payload::load(&sources, args.generator.seed, args.generator.rng)?;
    let mut tables: Vec<ParamsTable> = payloads
        .iter()
        .map(|p| ParamsTable {
            source: Some((p.name.clone(), p.bytes.len() as u64)),
            levels: levels
                .iter()
                .map(|&l| crate::analysis::zstd_params::selected(l, Some(p.bytes.len() as u64)))
                .collect(),
        })
        .collect();
    tables.push(ParamsTable {
        source: None,
        levels: levels
            .iter()
            .map(|&l| crate::analysis::zstd_params::selected(l, None))
            .collect(),
    });
    print(&match args.format {
        ParamsFormat::Table => export::zstd_params::render_text(&tables),
        ParamsFormat::Markdown => export::zstd_params::render_markdown(&tables),
    })?;
    Ok(ExitCode::Success)
}

/// A saved run from `from`, or a run of `measure` made now, with the exit status its
/// round trips call for.
fn saved_or_measured(
    from: Option<&Path>,
    measure: MeasureArgs,
) -> Result<(results::LoadedRun, ExitCode)> {
    match from {
        Some(path) => {
            let run = results::load(path)?;
            run.cells()?;
            Ok((run, ExitCode::Success))
        }
        None => {
            let config = MeasureConfig::from_args(measure)?;
            let report = measure_all(
                &config,
                Sinks {
                    cell: &mut |_, _| Ok(()),
                    payload: &mut |_, _| Ok(()),
                },
            )?;
            let status = exit_for_failures(&report);
            Ok((results::LoadedRun::from_report(&report, "this run"), status))
        }
    }
}

fn http(args: HttpArgs) -> Result<ExitCode> {
    use crate::http::{Encoding, HttpPayloadResult, HttpReport, Load, HTTP_KIND};
    let encodings = args
        .encodings
        .iter()
        .map(|e| Encoding::parse(e.trim()))
        .collect::<Result<Vec<_>>>()?;
    let duration = match args.duration {
        Some(s) if !(s.is_finite() && s > 0.0 && s <= 600.0) => {
            bail!("--duration {s} must be a number of seconds above 0 and at most 600")
        }
        Some(s) => Some(std::time::Duration::from_secs_f64(s)),
        None => None,
    };
    let load = Load {
        concurrency: args.concurrency as usize,
        requests: match (args.requests, duration) {
            (Some(n), _) => Some(n as usize),
            (None, None) => Some(200),
            (None, Some(_)) => None,
        },
        duration,
        bandwidth_mbit: match args.bandwidth {
            Some(b) if !(b.is_finite() && b > 0.0 && b <= 100_000.0) => {
                bail!("--bandwidth {b} must be a number of Mbit/s above 0 and at most 100000")
            }
            other => other,
        },
    };
    let names = if args.payloads.is_empty() {
        vec!["small".to_string()]
    } else {
        args.payloads.clone()
    };
    let sources = crate::config::payload_sources(&names)?;
    let payloads = payload::load(&sources, args.generator.seed, args.generator.rng)?;
    let mut report = HttpReport {
        schema_version: SCHEMA_VERSION,
        kind: HTTP_KIND.to_string(),
        environment: Environment::current(),
        seed: args.generator.seed,
        rng: args.generator.rng.to_string(),
        load: load.into(),
        payloads: Vec::new(),
    };
    // As for `run`: prove the paths writable before measuring, then keep the files whole.
    let files = SavedFiles {
        csv: args.output.csv.clone(),
        json: args.output.json.clone(),
    };
    let save = |report: &HttpReport, current: Option<&HttpPayloadResult>| {
        files.write(
            || export::http::render_csv(report, current),
            || export::http::render_json(report, current),
        )
    };
    save(&report, None)?;
    interrupt::install()?;
    let mut out = io::stdout().lock();
    if args.output.format == Format::Csv {
        out.write_all(&export::http::csv_header())?;
    }
    for (index, payload) in payloads.iter().enumerate() {
        eprintln!(
            "{}: {} bytes, {} encodings over HTTP/1.1 on 127.0.0.1, {}",
            payload.name,
            thousands(payload.bytes.len() as u64),
            encodings.len(),
            crate::http::load_label(load.concurrency, load.bandwidth_mbit),
        );
        let mut current = HttpPayloadResult {
            payload: payload.name.clone(),
            input_bytes: payload.bytes.len() as u64,
            sha256: crate::payload::sha256_hex(&payload.bytes),
            interrupted: false,
            encodings: Vec::new(),
        };
        let mut on_result = |r: &crate::http::EncodingResult| -> Result<()> {
            eprintln!(
                "  {:<10} {} requests, {} req/s, p50 {} ms",
                r.encoding,
                r.requests,
                significant(r.requests_per_s, 3),
                significant(r.p50_ms, 3)
            );
            current.encodings.push(r.clone());
            current.interrupted = interrupt::requested();
            save(&report, Some(&current))?;
            if args.output.format == Format::Csv {
                out.write_all(&export::http::csv_row(&current, &report.load, r))?;
                out.flush()?;
            }
            Ok(())
        };
        crate::http::measure(&payload.bytes, &encodings, load, &mut on_result)?;
        // As for `run`: a stop requested while the payload was measured marks it.
        current.interrupted = interrupt::requested();
        match args.output.format {
            Format::Table | Format::Markdown => {
                if index > 0 {
                    out.write_all(b"\n")?;
                }
                let bytes = if args.output.format == Format::Table {
                    export::http::render_table(&current, &report.load)
                } else {
                    export::http::render_markdown(&current, &report.load)
                };
                out.write_all(&bytes)?;
                out.flush()?;
            }
            Format::Csv | Format::Json => {}
        }
        report.payloads.push(current);
        save(&report, None)?;
        if interrupt::requested() {
            break;
        }
    }
    if args.output.format == Format::Json {
        out.write_all(&export::http::render_json(&report, None))?;
        out.flush()?;
    }
    if interrupt::requested() {
        eprintln!(
            "codecbench: interrupted; the encodings measured so far are {}",
            files.whereabouts()
        );
        return Ok(ExitCode::Interrupted);
    }
    Ok(ExitCode::Success)
}

fn plot(args: PlotArgs) -> Result<ExitCode> {
    let run = results::load(&args.run)?;
    run.cells()?;
    let options = AdviceOptions {
        latency_budget_s: 0.005,
        cache_budget_s: 1.0,
        bandwidths_mbit: Vec::new(),
    };
    let advice = advise(&run, &options);
    let svg = export::svg::render_svg(&run, &advice).map_err(anyhow::Error::msg)?;
    write_file(&args.out, &svg)?;
    println!(
        "{}: {} payloads, {} settings",
        args.out.display(),
        advice.len(),
        run.codec_cells().len()
    );
    Ok(ExitCode::Success)
}

fn reproduce(args: ReproduceArgs) -> Result<ExitCode> {
    // Refuse an unwritable --out before measuring for minutes.
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "cannot write {}: no directory {}",
                args.out.display(),
                dir.display()
            );
        }
    }
    let (run, status) = saved_or_measured(args.from.as_deref(), args.measure)?;
    let claims = crate::analysis::reproduce::check(&run);
    let source = match &args.from {
        Some(path) => format!("`{}`", path.display()),
        None => "a run made by the same command".to_string(),
    };
    write_file(
        &args.out,
        &export::reproduction::render_markdown(&claims, &source, run.machine.as_deref()),
    )?;
    print(&export::reproduction::render_table(&claims))?;
    Ok(status)
}

fn recommend(args: RecommendArgs) -> Result<ExitCode> {
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
    let options = AdviceOptions {
        latency_budget_s: args.latency_budget_ms / 1e3,
        cache_budget_s: args.cache_budget_ms / 1e3,
        bandwidths_mbit: args.bandwidth.clone(),
    };
    let (run, status) = saved_or_measured(args.from.as_deref(), args.measure)?;
    let advice = advise(&run, &options);
    let bytes = match args.format {
        CompareFormat::Table => export::recommendation::render_text(&advice, &options),
        CompareFormat::Markdown => export::recommendation::render_markdown(&advice, &options),
        CompareFormat::Json => export::recommendation::render_json(&advice),
    };
    print(&bytes)?;
    Ok(status)
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
    let head = format!("{:<6} {:>3}", cell.id.codec, cell.id.level);
    let library = export::library_text(&cell.id);
    if let Some(why) = &cell.failure {
        return format!("{head}: FAILED ({library}): {why}");
    }
    format!(
        "{head}: {} B ({:.2}x), compress {} MB/s, decompress {} MB/s  [{library}]",
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
///
/// The bytes go to a temporary file in the same directory, which is then renamed over
/// `path`, so a reader (or a crash) never sees half a file.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("cannot write {}: not a file name", path.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let written = File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write {}", path.display()))
}
