//! The defaults the help text and docs/run.md state, checked against the constants in
//! `bench/` that the code runs on: a default changed in one place fails here until the
//! others say it too.

use clap::CommandFactory;

use super::Cli;
use crate::bench::method::{
    default_iterations, DEFAULT_MAX_ITERATIONS, DEFAULT_ROUNDS, DEFAULT_WARMUP,
    ITERATIONS_PER_PROCESS, MOST_PROCESSES_BY_DEFAULT, QUICK_MAX_ITERATIONS, QUICK_MIN_TIME,
};
use crate::bench::schedule::LONG_ITERATION;
use crate::format::thousands;

/// `text` with every run of whitespace (line breaks, indents) as one space.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `codecbench run --help`, flattened.
fn run_help() -> String {
    let mut cli = Cli::command();
    let run = cli.find_subcommand_mut("run").expect("a run command");
    flat(&run.render_long_help().to_string())
}

/// docs/run.md, flattened.
fn run_doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/run.md");
    flat(&std::fs::read_to_string(path).expect("docs/run.md"))
}

/// The article's counts by body size: up to 10 kB, up to 1 MB, above.
fn by_size() -> [u32; 3] {
    [10_000, 1_000_000, 1_000_001].map(default_iterations)
}

#[test]
fn the_help_states_the_defaults_the_code_runs_on() {
    let help = run_help();
    let [small, medium, large] = by_size();
    let quick = QUICK_MIN_TIME.as_secs_f64();
    let expected = [
        format!("Default: {small} for bodies up to 10 kB, {medium} up to 1 MB, {large} above"),
        format!("--min-time {quick} --max-iterations {QUICK_MAX_ITERATIONS}"),
        format!("took {} ms or more", LONG_ITERATION.as_millis()),
        format!("[default: {DEFAULT_WARMUP}]"),
        format!("[default: {DEFAULT_ROUNDS}]"),
        format!("one per {ITERATIONS_PER_PROCESS} timed iterations of a fixed count, at most {MOST_PROCESSES_BY_DEFAULT}"),
    ];
    for phrase in expected {
        assert!(help.contains(&phrase), "run --help lacks {phrase:?}");
    }
}

#[test]
fn docs_run_states_the_defaults_the_code_runs_on() {
    let doc = run_doc();
    let [small, medium, large] = by_size();
    let quick = QUICK_MIN_TIME.as_secs_f64();
    let expected = [
        format!("{small} up to 10 kB, {medium} up to 1 MB, {large} above"),
        format!("| `--quick` | off | `--min-time {quick} --max-iterations {QUICK_MAX_ITERATIONS}`. |"),
        format!("| `--max-iterations N` | {} |", thousands(u64::from(DEFAULT_MAX_ITERATIONS))),
        format!("| `--warmup N` | {DEFAULT_WARMUP} |"),
        format!("| `--rounds N` | {DEFAULT_ROUNDS} |"),
        format!("took {} ms or more gets none", LONG_ITERATION.as_millis()),
        format!("one per {ITERATIONS_PER_PROCESS} iterations of a fixed count, at most {MOST_PROCESSES_BY_DEFAULT}"),
    ];
    for phrase in expected {
        assert!(doc.contains(&phrase), "docs/run.md lacks {phrase:?}");
    }
}
