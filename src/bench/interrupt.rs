//! Ctrl-C and SIGTERM: a request to stop that the runner checks between iterations, so
//! that the iteration in flight finishes and every finished cell can still be written.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Routes SIGINT and SIGTERM (Ctrl-C and Ctrl-Break on Windows) to [`request`]. A second
/// signal ends the process at once, as users expect when a stop takes too long.
pub fn install() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
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
