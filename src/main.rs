//! The codecbench binary: parse, run, and report errors in one place.

use clap::Parser;

use codecbench::cli::Cli;
use codecbench::error::ExitCode;

/// Counts heap bytes, for the `encoder_bytes` of the codecs written in Rust.
#[global_allocator]
static ALLOCATOR: codecbench::bench::memory::CountingAllocator =
    codecbench::bench::memory::CountingAllocator;

fn main() -> std::process::ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print them whole and succeed.
            let _ = err.print();
            return ExitCode::Success.into();
        }
        Err(err) => {
            // clap's message ends with usage hints over several lines; keep the first.
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("codecbench: error: {first}");
            return ExitCode::BadInput.into();
        }
    };
    match codecbench::commands::run(cli) {
        Ok(code) => code.into(),
        Err(err) if is_broken_pipe(&err) => ExitCode::Success.into(),
        Err(err) => {
            // {:#} joins the context chain into one line.
            eprintln!("codecbench: error: {err:#}");
            ExitCode::BadInput.into()
        }
    }
}

/// A closed stdout (e.g. piped into `head`) is not an error, as in ripgrep.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
