//! Ctrl-C and SIGTERM: a request to stop that the runner checks between iterations, so
//! that the iteration in flight finishes and every finished cell can still be written.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Routes SIGINT and SIGTERM (Ctrl-C and Ctrl-Break on Windows) to [`request`]; a
/// second signal calls `on_second` (the binary exits there, as users expect when a stop
/// takes too long). Once per process: the binary calls it first thing.
pub fn install(on_second: fn()) -> anyhow::Result<()> {
    ctrlc::set_handler(move || {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            on_second();
        }
    })
    .map_err(|e| anyhow::anyhow!("cannot install the Ctrl-C handler: {e}"))
}

/// Asks the runner to stop after the iteration in flight.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Asks the runner to stop because whoever read stdout has gone (`| head`): the saved
/// files are still finished, marked interrupted, and the command succeeds.
pub fn stdout_closed() {
    STDOUT_CLOSED.store(true, Ordering::SeqCst);
    request();
}

/// Whether the stop was asked for by a closed stdout rather than a signal.
pub fn by_closed_stdout() -> bool {
    STDOUT_CLOSED.load(Ordering::SeqCst)
}
