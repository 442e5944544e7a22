//! Fuzzes the saved-run reader that `compare`, `merge`, `recommend` and `reproduce` use:
//! any bytes must give a run or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(results) = codecbench::saved_run_results(bytes) {
        // A run of any kind holds at least one result of that kind.
        assert!(results > 0);
    }
});
