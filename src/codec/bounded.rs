//! Decoding untrusted bodies with a ceiling on the output, not the input: a 33 KB zstd
//! frame can expand to 1 GiB. The model is libzstd's own advice for streaming into a
//! fixed buffer (`zstd.h`, `ZSTD_d_windowLogMax`): read a chunk at a time and stop at
//! the first byte past the limit, so memory never grows past the limit plus one chunk.

use std::io::{self, Read};

/// The chunk a bounded read fills at a time; a stop request is seen between chunks.
const CHUNK: usize = 64 * 1024;

/// Why a bounded read stopped early.
#[derive(Debug)]
pub(crate) enum Overrun {
    /// The output grew past the limit: it holds at least `limit + 1` bytes.
    TooLarge {
        /// The most bytes allowed.
        limit: u64,
    },
    /// A stop (Ctrl-C, SIGTERM) was requested.
    Stopped,
    /// The reader failed: a corrupt stream, or a read error.
    Failed(io::Error),
}

impl std::fmt::Display for Overrun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Overrun::TooLarge { limit } => {
                write!(
                    f,
                    "it holds more than {} bytes",
                    crate::format::thousands(*limit)
                )
            }
            Overrun::Stopped => f.write_str("stopped by a stop request"),
            Overrun::Failed(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for Overrun {}

impl Overrun {
    /// The failure as one line naming the `coding` whose body it was.
    pub(crate) fn naming(self, coding: &str) -> anyhow::Error {
        match self {
            Overrun::TooLarge { limit } => anyhow::anyhow!(
                "the {coding} body decodes to more than {} bytes",
                crate::format::thousands(limit)
            ),
            Overrun::Stopped => anyhow::anyhow!("the {coding} body's decoding was stopped"),
            Overrun::Failed(error) => {
                anyhow::anyhow!(error).context(format!("a {coding} body does not decode"))
            }
        }
    }
}

/// Reads `reader` to its end, at most `limit` bytes: the first byte past it stops the
/// read with [`Overrun::TooLarge`], and a stop request with [`Overrun::Stopped`].
pub(crate) fn read_bounded(mut reader: impl Read, limit: u64) -> Result<Vec<u8>, Overrun> {
    let mut output = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if crate::process::interrupt::requested() {
            return Err(Overrun::Stopped);
        }
        let read = match reader.read(&mut chunk) {
            Ok(0) => return Ok(output),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(Overrun::Failed(error)),
        };
        if output.len() as u64 + read as u64 > limit {
            return Err(Overrun::TooLarge { limit });
        }
        output.extend_from_slice(&chunk[..read]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_stops_one_byte_past_its_limit() {
        let ten = [7u8; 10];
        assert_eq!(read_bounded(&ten[..], 10).unwrap(), ten);
        let error = read_bounded(&ten[..], 9).unwrap_err();
        assert!(matches!(error, Overrun::TooLarge { limit: 9 }), "{error}");
        assert_eq!(error.to_string(), "it holds more than 9 bytes");
    }

    #[test]
    fn an_endless_reader_stops_at_the_limit() {
        let endless = io::repeat(0);
        let error = read_bounded(endless, 1_000_000).unwrap_err();
        assert!(matches!(error, Overrun::TooLarge { .. }));
    }
}
