//! Fuzzes the saved-run reader that `compare`, `merge`, `recommend` and `reproduce` use:
//! any bytes must give a run or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(run) = codecbench::results::parse(bytes, "fuzz", "fuzz") {
        // A run of either kind holds at least one result of that kind.
        assert!(!run.results.is_empty());
    }
});
