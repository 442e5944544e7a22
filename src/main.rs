//! The codecbench binary: the counting allocator, then the library's `main`, which
//! installs the stop handler, parses, dispatches, and turns the one typed error into the
//! exit code (2 bad input, 1 failure, 130 interrupted).

/// Counts heap bytes, for the `encoder_bytes` of the codecs written in Rust.
#[global_allocator]
static ALLOCATOR: codecbench::CountingAllocator = codecbench::CountingAllocator;

fn main() -> std::process::ExitCode {
    codecbench::main()
}
