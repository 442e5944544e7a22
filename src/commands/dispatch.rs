//! The binary's entry: the stop handler, the parse, each command to its file, and the exit code.

use crate::cli::{Cli, Command};
use crate::config::analysis::{
    PlotConfig, RecommendConfig, ReportConfig, ReproduceConfig, ZstdParamsConfig,
};
use crate::config::compare::{CompareConfig, MergeConfig, PoolConfig};
use crate::config::http::{HttpConfig, ServeConfig};
use crate::config::{AbConfig, PayloadsConfig, RunConfig};
use crate::error::Result;

/// The whole program: installs the stop handler, parses the command line, runs it, and
/// turns the one typed error into the exit code (2 bad input, 1 failure, 130 or 143
/// interrupted).
pub fn main() -> std::process::ExitCode {
    // First thing, so that no signal finds the default handler (exit 143 on SIGTERM).
    // A second Ctrl-C ends the process at once, as users expect of a slow stop.
    if let Err(err) = crate::process::interrupt::install(|code| std::process::exit(code)) {
        eprintln!("codecbench: error: {err:#}");
        return std::process::ExitCode::from(1);
    }
    // Counted before any command pins its measuring thread to one CPU.
    crate::results::environment::machine_cores();
    let cli = match <Cli as clap::Parser>::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap's whole message: the problem, suggestions, possible values and usage.
            // Help and version go to stdout and exit 0; usage errors exit 2.
            let _ = err.print();
            return std::process::ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) if err.is_broken_pipe() => std::process::ExitCode::SUCCESS,
        Err(err) => {
            // An error may quote a file name or a saved run: shown, not obeyed.
            super::output::say_error(format_args!("codecbench: {err}"));
            let terminated = matches!(err, crate::error::Error::Interrupted(_))
                && crate::process::interrupt::by_sigterm();
            std::process::ExitCode::from(if terminated { 143 } else { err.exit_code() })
        }
    }
}

/// Whether `command` only reads saved runs and writes reports, or writes payloads it can
/// make again: nothing measured would be lost by ending it at once (a file half-written
/// is removed on the way out).
fn reads_only(command: &Command) -> bool {
    match command {
        Command::Compare(_) | Command::Merge(_) | Command::Pool(_) => true,
        Command::Payloads(_) => true,
        Command::Plot(_) | Command::Report(_) | Command::ZstdParams(_) => true,
        Command::Recommend(args) => args.source.from.is_some(),
        Command::Reproduce(args) => args.source.from.is_some(),
        _ => false,
    }
}

/// Runs the parsed command line.
fn run(cli: Cli) -> Result {
    if reads_only(&cli.command) {
        crate::process::interrupt::end_at_first_signal();
    }
    match cli.command {
        Command::Run(args) => super::run::run(RunConfig::from_args(args)?),
        Command::Ab(args) => super::ab::run(AbConfig::from_args(args)?),
        Command::Payloads(args) => super::payloads::run(PayloadsConfig::from_args(args)?),
        Command::Compare(args) => super::compare::run(CompareConfig::from_args(args)?),
        Command::Merge(args) => super::merge::run(MergeConfig::from_args(args)?),
        Command::Pool(args) => super::pool::run(PoolConfig::from_args(args)?),
        Command::Recommend(args) => super::analysis::recommend(RecommendConfig::from_args(args)?),
        Command::ZstdParams(args) => {
            super::analysis::zstd_params(ZstdParamsConfig::from_args(args)?)
        }
        Command::Reproduce(args) => super::analysis::reproduce(ReproduceConfig::from_args(args)?),
        Command::Plot(args) => super::analysis::plot(PlotConfig::from_args(args)?),
        Command::Report(args) => super::report::run(ReportConfig::from_args(args)?),
        Command::Http(args) => super::http::run(HttpConfig::from_args(args)?),
        Command::Serve(args) => super::serve::run(ServeConfig::from_args(args)?),
        Command::Probe(args) => {
            super::probe::run(crate::config::probe::ProbeConfig::from_args(args)?)
        }
        Command::Lab(args) => super::lab::run(crate::config::lab::LabConfig::from_args(args)?),
        Command::CountInstructions => super::count_instructions::run(),
        Command::TimeWorker => super::time_worker::run(),
    }
}
