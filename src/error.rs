//! How a command ends, as one typed error, and the exit code each kind maps to. `main`
//! turns it into the process's exit; library code never exits.

use std::fmt;

/// Why a command did not succeed. Each says itself in one line: `{:#}` joins anyhow's
/// context chain.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// Bad input: an unknown payload, a missing or malformed file, a level out of
    /// range, an unwritable path. Found before anything was measured. Exit 2.
    #[error("error: {0:#}")]
    BadInput(anyhow::Error),
    /// A failure once measuring had started, or a verdict that fails the job: a round
    /// trip, an HTTP body that did not match, a write that failed mid-run, a comparison
    /// that found a regression. Exit 1.
    #[error("FAILED: {0:#}")]
    Failed(anyhow::Error),
    /// Stopped by Ctrl-C or SIGTERM after saving what was finished; the message says
    /// where it went. Exit 130 (128 + SIGINT), or 143 (128 + SIGTERM) when SIGTERM asked.
    #[error("interrupted; {0}")]
    Interrupted(String),
}

/// A command's result.
pub(crate) type Result<T = ()> = std::result::Result<T, Error>;

impl Error {
    /// A failure with this message.
    pub(crate) fn failed(message: impl fmt::Display) -> Self {
        Error::Failed(anyhow::anyhow!("{message}"))
    }

    /// The process's exit code for it.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Error::BadInput(_) => 2,
            Error::Failed(_) => 1,
            Error::Interrupted(_) => 130,
        }
    }

    /// Whether the cause is a closed stdout (e.g. piped into `head`), which is not an
    /// error, as in ripgrep.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        let (Error::BadInput(err) | Error::Failed(err)) = self else {
            return false;
        };
        err.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        })
    }
}

/// Errors found by checks and readers are bad input unless said otherwise.
impl From<anyhow::Error> for Error {
    fn from(err: anyhow::Error) -> Self {
        Error::BadInput(err)
    }
}

/// Marks what fails once measuring has started.
pub(crate) trait Failing<T> {
    /// A failure (exit 1) rather than bad input.
    fn failing(self) -> Result<T>;
}

impl<T> Failing<T> for anyhow::Result<T> {
    fn failing(self) -> Result<T> {
        self.map_err(Error::Failed)
    }
}

impl<T> Failing<T> for std::io::Result<T> {
    fn failing(self) -> Result<T> {
        self.map_err(|e| Error::Failed(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_exit_code_and_one_line() {
        let bad: Error = anyhow::anyhow!("no such payload").into();
        assert_eq!(
            (bad.exit_code(), bad.to_string().as_str()),
            (2, "error: no such payload")
        );
        let failed = Error::failed("1 regressed");
        assert_eq!(failed.exit_code(), 1);
        assert_eq!(failed.to_string(), "FAILED: 1 regressed");
        assert_eq!(Error::Interrupted("saved".into()).exit_code(), 130);
        let pipe: Error =
            anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe)).into();
        assert!(pipe.is_broken_pipe());
    }
}
