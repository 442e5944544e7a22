//! The process's exit codes, in one place.

/// How codecbench exits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// Everything measured and every round trip matched.
    Success = 0,
    /// The run finished but a cell failed its round trip.
    Failure = 1,
    /// Bad input: an unknown payload, a missing file, a level out of range, an unwritable
    /// path. Nothing or only part was measured.
    BadInput = 2,
    /// Stopped by Ctrl-C or SIGTERM; every finished cell was written (128 + SIGINT).
    Interrupted = 130,
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}
