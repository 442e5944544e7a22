//! The codecbench binary: install the stop handler, parse, dispatch, and turn the one
//! typed error into the exit code (2 bad input, 1 failure, 130 interrupted).

use clap::Parser;

use codecbench::Cli;

/// Counts heap bytes, for the `encoder_bytes` of the codecs written in Rust.
#[global_allocator]
static ALLOCATOR: codecbench::CountingAllocator = codecbench::CountingAllocator;

fn main() -> std::process::ExitCode {
    // First thing, so that no signal finds the default handler (exit 143 on SIGTERM).
    // A second Ctrl-C ends the process at once, as users expect of a slow stop.
    if let Err(err) = codecbench::install_stop_handler(|| std::process::exit(130)) {
        eprintln!("codecbench: error: {err:#}");
        return std::process::ExitCode::from(1);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap's whole message: the problem, suggestions, possible values and usage.
            // Help and version go to stdout and exit 0; usage errors exit 2.
            let _ = err.print();
            return std::process::ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match codecbench::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) if err.is_broken_pipe() => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("codecbench: {err}");
            let terminated = matches!(err, codecbench::Error::Interrupted(_))
                && codecbench::stopped_by_sigterm();
            std::process::ExitCode::from(if terminated { 143 } else { err.exit_code() })
        }
    }
}
