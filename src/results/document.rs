//! A saved JSON document read straight into its types: from bytes in memory, or streamed
//! from a regular file in two passes (what it says of itself, then the whole), so that
//! neither its text nor a JSON tree of it is ever held. A version 1 file alone goes
//! through a tree, to be upgraded.

use std::io::{BufReader, Read, Seek, SeekFrom};

use anyhow::{bail, Result};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::run::SCHEMA_VERSION;

/// Where a saved JSON document is read from.
#[derive(Clone, Copy)]
pub(super) enum Document<'a> {
    /// Its text, in memory.
    Bytes(&'a [u8]),
    /// A regular file, read from its start on each pass, at most `limit` bytes.
    File {
        /// The open file.
        file: &'a std::fs::File,
        /// The most bytes a pass reads.
        limit: u64,
    },
}

/// What a saved JSON document says of itself before it is read: its schema and its kind
/// (`http`, `probe`, or none for a codec run). Every other field is skipped unread.
#[derive(Deserialize)]
pub(super) struct Head {
    schema_version: Option<u64>,
    /// `http` or `probe`; `None` for a codec run.
    pub kind: Option<String>,
}

/// Bytes each pass over a file reads at once.
const READ_AHEAD: usize = 1 << 16;

impl Document<'_> {
    /// The document's [`Head`], its schema one this codecbench reads.
    pub(super) fn head(self) -> Result<Head> {
        let head: Head = self.read()?;
        match head.schema_version {
            Some(version) if version == u64::from(SCHEMA_VERSION) || version == 1 => Ok(head),
            Some(version) => bail!(
                "schema_version {version} is not supported (this codecbench reads 1 and {SCHEMA_VERSION})"
            ),
            None => bail!("no schema_version"),
        }
    }

    /// The whole document as `T`, at this codecbench's schema.
    pub(super) fn typed<T: DeserializeOwned>(self, head: &Head) -> Result<T> {
        if head.schema_version == Some(1) {
            let mut value: serde_json::Value = self.read()?;
            super::legacy::upgrade_v1(&mut value)?;
            return Ok(serde_json::from_value(value)?);
        }
        self.read()
    }

    fn read<T: DeserializeOwned>(self) -> Result<T> {
        match self {
            Document::Bytes(bytes) => Ok(serde_json::from_slice(bytes)?),
            Document::File { mut file, limit } => {
                file.seek(SeekFrom::Start(0))?;
                let bounded = BufReader::with_capacity(READ_AHEAD, file.take(limit));
                Ok(serde_json::from_reader(bounded)?)
            }
        }
    }
}

/// The first byte of `file` that is not white space, if any.
pub(super) fn first_byte(mut file: &std::fs::File) -> Result<Option<u8>> {
    file.seek(SeekFrom::Start(0))?;
    let reader = BufReader::with_capacity(READ_AHEAD, file);
    for byte in reader.bytes() {
        let byte = byte?;
        if !byte.is_ascii_whitespace() {
            return Ok(Some(byte));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::results::run::RunReport;

    fn saved(text: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text).unwrap();
        file
    }

    fn reference() -> Vec<u8> {
        crate::export::run::json::render(&crate::export::fixtures::report())
    }

    #[test]
    fn a_file_streamed_twice_reads_as_its_bytes_do() {
        let text = reference();
        let file = saved(&text);
        let streamed = Document::File {
            file: file.as_file(),
            limit: 1 << 20,
        };
        let in_memory = Document::Bytes(&text);
        let read = |document: Document| -> RunReport {
            let head = document.head().unwrap();
            document.typed(&head).unwrap()
        };
        let (a, b) = (read(streamed), read(in_memory));
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert_eq!(a.payloads[0].cells.len(), 4);
    }

    #[test]
    fn a_pass_over_a_file_stops_at_its_limit() {
        let text = reference();
        let file = saved(&text);
        let cut = Document::File {
            file: file.as_file(),
            limit: text.len() as u64 - 2,
        };
        let head = cut.head();
        assert!(head.is_err(), "a cut document has no end");
        let whole = Document::File {
            file: file.as_file(),
            limit: text.len() as u64,
        };
        assert!(whole.head().is_ok());
    }

    #[test]
    fn a_schema_from_the_future_and_a_missing_one_are_refused() {
        let future = br#"{"schema_version": 9, "payloads": []}"#;
        let error = Document::Bytes(future).head().err().unwrap();
        assert!(error.to_string().contains("schema_version 9"), "{error}");
        let none = br#"{"payloads": []}"#;
        let error = Document::Bytes(none).head().err().unwrap();
        assert_eq!(error.to_string(), "no schema_version");
    }

    #[test]
    fn the_first_byte_skips_white_space() {
        let file = saved(b" \n\t {}");
        assert_eq!(first_byte(file.as_file()).unwrap(), Some(b'{'));
        assert_eq!(first_byte(saved(b"  ").as_file()).unwrap(), None);
    }
}
