//! Ctrl-C and SIGTERM: a request to stop that the runner checks between iterations, so
//! that the iteration in flight finishes and every finished cell can still be written.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static TERMINATED: AtomicBool = AtomicBool::new(false);
static AT_FIRST: AtomicBool = AtomicBool::new(false);

/// For a command that measures nothing (it reads saved runs and writes reports): the
/// first stop request ends the process, as the second does for one that measures. Its
/// files are written whole or not at all, so nothing is lost.
pub(crate) fn end_at_first_signal() {
    AT_FIRST.store(true, Ordering::SeqCst);
}

/// The one line a process stopped at once ends with: a second stop request, or the
/// first for a command that measures nothing. Its files are each whole or absent.
const STOPPED_AT_ONCE: &str =
    "codecbench: stopped at once; each file already written is whole, none is half-written";

/// Set by a SIGTERM that ends the process at once, which exits with 143.
static ENDED_BY_SIGTERM: AtomicBool = AtomicBool::new(false);

/// Routes SIGINT and SIGTERM (Ctrl-C and Ctrl-Break on Windows) to [`request`]. A second
/// signal ends the process at once: on the handler's thread, no temporary file is left
/// ([`super::destination::end_pending`]), one line says so, and `exit` gets 130 (143
/// for SIGTERM), as users expect when a stop takes too long. Once per process: the
/// binary calls it first thing.
pub(crate) fn install(exit: fn(i32)) -> anyhow::Result<()> {
    ctrlc::set_handler(move || {
        if REQUESTED.swap(true, Ordering::SeqCst) || AT_FIRST.load(Ordering::SeqCst) {
            super::destination::end_pending();
            eprintln!("{STOPPED_AT_ONCE}");
            exit(match ENDED_BY_SIGTERM.load(Ordering::SeqCst) {
                true => 143,
                false => 130,
            });
        }
    })
    .map_err(|e| anyhow::anyhow!("cannot install the Ctrl-C handler: {e}"))?;
    on_sigterm_too();
    Ok(())
}

/// SIGTERM gets a handler of its own, so that the exit code can say which signal
/// stopped the run (143 rather than 130). A SIGTERM that ends the process at once hands
/// the ending to the Ctrl-C handler's thread, which may wait, as a SIGINT.
#[cfg(unix)]
fn on_sigterm_too() {
    extern "C" fn on_term(_: libc::c_int) {
        // Only atomics, getpid and kill here: all are async-signal-safe.
        TERMINATED.store(true, Ordering::SeqCst);
        if REQUESTED.swap(true, Ordering::SeqCst) || AT_FIRST.load(Ordering::SeqCst) {
            ENDED_BY_SIGTERM.store(true, Ordering::SeqCst);
            unsafe { libc::kill(libc::getpid(), libc::SIGINT) };
        }
    }
    // SAFETY: a plain handler that touches only atomics and sends a signal, installed
    // before any thread that could race it is started.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_term as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
fn on_sigterm_too() {}

/// Whether the stop was asked for by SIGTERM.
pub(crate) fn by_sigterm() -> bool {
    TERMINATED.load(Ordering::SeqCst)
}

/// Asks the runner to stop after the iteration in flight.
pub(crate) fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for.
pub(crate) fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Asks the runner to stop because whoever read stdout has gone (`| head`): the saved
/// files are still finished, marked interrupted, and the command succeeds.
pub(crate) fn stdout_closed() {
    STDOUT_CLOSED.store(true, Ordering::SeqCst);
    request();
}

/// Whether the stop was asked for by a closed stdout rather than a signal.
pub(crate) fn by_closed_stdout() -> bool {
    STDOUT_CLOSED.load(Ordering::SeqCst)
}

/// How often a request in flight looks for a stop request.
const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Resolves once a stop (Ctrl-C, SIGTERM) is requested.
pub(crate) async fn stopped() {
    while !requested() {
        tokio::time::sleep(STOP_POLL).await;
    }
}

/// What a blocking call run aside came to.
pub(crate) enum Aside<T> {
    /// It returned this.
    Done(T),
    /// A stop was asked for first.
    Stopped,
    /// The time limit passed first.
    TimedOut,
}

/// Runs `work`, which may block for ever (opening a FIFO nobody opens from the other
/// end), on a thread of its own, and waits for it until a stop request or `limit`. A
/// call still blocked is left to the process's exit.
pub(crate) fn run_aside<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    limit: Option<std::time::Duration>,
) -> Aside<T> {
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(work());
    });
    let started = std::time::Instant::now();
    loop {
        if let Ok(value) = result.recv_timeout(std::time::Duration::from_millis(50)) {
            return Aside::Done(value);
        }
        if requested() {
            return Aside::Stopped;
        }
        if limit.is_some_and(|limit| started.elapsed() >= limit) {
            return Aside::TimedOut;
        }
    }
}
