//! What the user asks to benchmark (a built-in name, a file, a directory, a HAR
//! capture, a record count) and the payloads it makes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::body::Payload;
use super::files::{directory_files, not_json, read_file, read_file_inside, root_name};
use super::generate::{generate, records_name, BuiltinPayload, RngKind};
use super::har;

/// What the user asked to benchmark: a built-in name, or a file or directory path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PayloadSource {
    /// A generated payload.
    Builtin(BuiltinPayload),
    /// A file, or a directory whose regular files are each a payload.
    Path(PathBuf),
    /// Generated records, this many (`--records`).
    Records(u64),
    /// The text response bodies of a HAR capture (a `.har` file).
    Har(PathBuf),
    /// The public JSON files the binary carries (`real-json`).
    Corpus,
}

impl PayloadSource {
    /// Parses `single|small|large|real-json|PATH`. A word that is neither a built-in name
    /// nor an existing path is an error that lists the built-in names.
    pub(crate) fn parse(text: &str) -> Result<Self> {
        if let Some(builtin) = BuiltinPayload::from_name(text) {
            return Ok(PayloadSource::Builtin(builtin));
        }
        if text == super::corpus::NAME {
            return Ok(PayloadSource::Corpus);
        }
        let path = Path::new(text);
        if !path.exists() {
            bail!("payload '{text}' is neither a built-in payload (single, small, large, real-json) nor an existing file or directory");
        }
        let is_har = path.is_file()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("har"));
        Ok(match is_har {
            true => PayloadSource::Har(path.to_path_buf()),
            false => PayloadSource::Path(path.to_path_buf()),
        })
    }
}

/// The most the payloads of one command may hold together: 1 GiB, four files at the
/// per-file ceiling. Past it, thirty sparse files that cost nothing on disk exhausted
/// memory before a byte was measured.
pub(crate) const MAX_TOTAL_PAYLOAD_BYTES: u64 = 1024 * 1024 * 1024;

/// The most payloads one command holds: 10,000 bodies. `serve` prepares every body in
/// every encoding at start, which took 30 s and 850 MB for a capture of 100,000.
pub(crate) const MAX_PAYLOADS: usize = 10_000;

/// What the payloads read so far hold, against the ceilings.
#[derive(Default)]
struct Budget {
    bytes: u64,
    count: usize,
}

impl Budget {
    /// Refuses `from` when `count` more payloads of `bytes` more would pass a ceiling.
    fn refuse_past(&self, from: &Path, count: usize, bytes: u64) -> Result<()> {
        if self.count + count > MAX_PAYLOADS {
            bail!(
                "{} brings the payloads past 10,000; codecbench holds up to 10,000 at once: split it",
                from.display()
            );
        }
        if self.bytes.saturating_add(bytes) > MAX_TOTAL_PAYLOAD_BYTES {
            bail!(
                "{} brings the payloads past 1 GiB together; codecbench holds up to 1 GiB of payloads at once",
                from.display()
            );
        }
        Ok(())
    }

    /// Refuses `path` by its size before it is read (a file past the ceiling of one is
    /// left to the reader, whose error says so).
    fn before_reading(&self, path: &Path) -> Result<()> {
        let size = file_size(path);
        match size > super::body::MAX_PAYLOAD_BYTES {
            true => Ok(()),
            false => self.refuse_past(path, 0, size),
        }
    }

    /// Refuses a directory whose `files` would pass a ceiling, by their sizes, before any
    /// is read.
    fn before_reading_all(&self, directory: &Path, files: &[PathBuf]) -> Result<()> {
        let total = files
            .iter()
            .map(|f| file_size(f))
            .fold(0, u64::saturating_add);
        self.refuse_past(directory, files.len(), total)
    }

    /// Adds `payload`, or refuses it past a ceiling; `from` names its source.
    fn admit(&mut self, payloads: &mut Vec<Payload>, payload: Payload, from: &Path) -> Result<()> {
        let bytes = payload.bytes.len() as u64;
        self.refuse_past(from, 1, bytes)?;
        self.count += 1;
        self.bytes += bytes;
        payloads.push(payload);
        Ok(())
    }
}

/// The size a file claims, 0 when it cannot be read (the reader then says why).
fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Materialises the sources into payloads, in the order given; a directory expands to
/// its regular files sorted by name, a HAR capture to its text bodies. With them, one
/// line per capture on what it held and what was skipped.
pub(crate) fn load(
    sources: &[PayloadSource],
    seed: i32,
    rng: RngKind,
) -> Result<(Vec<Payload>, Vec<String>)> {
    let mut payloads = Vec::new();
    let mut notes = Vec::new();
    let mut budget = Budget::default();
    for source in sources {
        match source {
            PayloadSource::Builtin(builtin) => {
                let payload = Payload {
                    name: builtin.name().to_string(),
                    bytes: generate(builtin.records(), seed, rng),
                    content_type: None,
                };
                budget.admit(&mut payloads, payload, Path::new(builtin.name()))?;
            }
            PayloadSource::Path(path) if path.is_dir() => {
                let (files, skipped) = directory_files(path)?;
                notes.extend(skipped);
                let root = root_name(path);
                let real_root = path.canonicalize()?;
                budget.before_reading_all(path, &files)?;
                let before = payloads.len();
                for file in files {
                    let relative = file.strip_prefix(path).unwrap_or(&file);
                    let name = format!("{root}/{}", relative.display());
                    budget.before_reading(&file)?;
                    let payload = read_file_inside(&file, &real_root, name)?;
                    match not_json(&payload.bytes) {
                        Some(why) => notes.push(format!("skipped {}: {why}", file.display())),
                        None => budget.admit(&mut payloads, payload, &file)?,
                    }
                }
                if payloads.len() == before {
                    bail!("payload directory {} holds no JSON file", path.display());
                }
            }
            PayloadSource::Path(path) => {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                budget.before_reading(path)?;
                budget.admit(&mut payloads, read_file(path, name)?, path)?;
            }
            PayloadSource::Har(path) => {
                let capture = har::read(path)?;
                notes.push(capture.summary(path));
                for payload in capture.payloads {
                    budget.admit(&mut payloads, payload, path)?;
                }
            }
            PayloadSource::Corpus => {
                for payload in super::corpus::payloads() {
                    budget.admit(&mut payloads, payload, Path::new(super::corpus::NAME))?;
                }
            }
            PayloadSource::Records(count) => {
                let name = records_name(*count);
                let payload = Payload {
                    name: name.clone(),
                    bytes: generate(*count, seed, rng),
                    content_type: None,
                };
                budget.admit(&mut payloads, payload, Path::new(&name))?;
            }
        }
    }
    Ok((payloads, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    mod garbage {
        use super::super::{load, PayloadSource};
        use crate::payload::RngKind;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Any file is a payload (non-empty) or an error (empty), never a panic.
            #[test]
            fn any_file_loads_or_is_refused(
                bytes in proptest::collection::vec(any::<u8>(), 0..2048)
            ) {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("body.bin");
                std::fs::write(&path, &bytes).unwrap();
                let loaded = load(&[PayloadSource::Path(path)], 42, RngKind::Dotnet);
                match loaded {
                    Ok((payloads, _)) => prop_assert_eq!(&payloads[0].bytes, &bytes),
                    Err(e) => prop_assert!(bytes.is_empty(), "{e}"),
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_gives_no_dotfile_and_no_link_out_of_it() {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "password").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "[1]").unwrap();
        std::fs::write(dir.path().join("b.json"), "[2]").unwrap();
        std::fs::write(dir.path().join(".env"), "TOKEN=1").unwrap();
        std::os::unix::fs::symlink(&secret, dir.path().join("link.json")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("a.json"), dir.path().join("c.json")).unwrap();
        let source = PayloadSource::Path(dir.path().to_path_buf());
        let (payloads, notes) = load(&[source], 42, RngKind::Dotnet).unwrap();
        let names: Vec<_> = payloads.iter().map(|p| p.bytes.clone()).collect();
        assert_eq!(names, [b"[1]".to_vec(), b"[2]".to_vec(), b"[1]".to_vec()]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains(".env: a dotfile"), "{notes:?}");
        assert!(
            notes[1].contains("link.json: a link to a file outside"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_payload_is_named_the_same_however_its_path_was_typed() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("pl");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("a.json"), "[1]").unwrap();
        let names = |source: &Path| {
            let (payloads, _) = load(
                &[PayloadSource::Path(source.to_path_buf())],
                42,
                RngKind::Dotnet,
            )
            .unwrap();
            payloads[0].name.clone()
        };
        let relative = |p: &str| base.path().join(p);
        for typed in ["pl", "pl/", "./pl", "pl/../pl"] {
            assert_eq!(names(&relative(typed)), "pl/a.json", "{typed}");
        }
        for typed in ["pl/a.json", "./pl/a.json"] {
            assert_eq!(names(&relative(typed)), "a.json", "{typed}");
        }
    }

    #[test]
    fn unknown_names_are_rejected_with_the_builtin_list() {
        let err = PayloadSource::parse("medium").unwrap_err().to_string();
        assert!(err.contains("'medium'") && err.contains("single, small, large, real-json"));
        assert_eq!(
            PayloadSource::parse("large").unwrap(),
            PayloadSource::Builtin(BuiltinPayload::Large)
        );
    }
}
