//! Payloads: the article's generated customer records, and the user's own files.

pub(crate) mod change;
pub(crate) mod dotnet_random;
mod files;
pub(crate) mod har;
pub(crate) mod records;
pub(crate) mod rng;
pub(crate) mod smaller;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use self::dotnet_random::DotnetRandom;
pub(crate) use self::files::read_limited;
use self::files::{directory_files, read_file, root_name};
use self::rng::{ChaChaRecordRng, RecordRng};

/// The largest body codecbench measures: 256 MiB. A benchmark holds the body, its
/// compressed form and a decompressed copy at once, besides the encoders; anything bigger
/// is not a response a server compresses per request.
pub(crate) const MAX_PAYLOAD_BYTES: u64 = 256 * 1024 * 1024;

/// The most records `payloads --records` generates: about 240 MB of JSON, under
/// [`MAX_PAYLOAD_BYTES`].
pub(crate) const MAX_RECORDS: u64 = 800_000;

/// The article's seed.
pub(crate) const DEFAULT_SEED: i32 = 42;

/// Which random stream fills the records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RngKind {
    /// .NET's legacy seeded `System.Random`: reproduces the article byte for byte.
    Dotnet,
    /// ChaCha8 from rand_chacha: same record shape, a Rust-native stream.
    Chacha,
}

impl fmt::Display for RngKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RngKind::Dotnet => "dotnet",
            RngKind::Chacha => "chacha",
        })
    }
}

/// The three payloads the article measured (with `single` defined as one record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuiltinPayload {
    /// 1 record: 290 bytes with the default seed.
    Single,
    /// 1,000 records: 298,727 bytes with the default seed.
    Small,
    /// 10,000 records: 3,018,756 bytes with the default seed.
    Large,
}

impl BuiltinPayload {
    /// All built-in payloads, smallest first.
    pub(crate) const ALL: [BuiltinPayload; 3] = [
        BuiltinPayload::Single,
        BuiltinPayload::Small,
        BuiltinPayload::Large,
    ];

    /// The name used on the command line, in reports and as the file stem.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BuiltinPayload::Single => "single",
            BuiltinPayload::Small => "small",
            BuiltinPayload::Large => "large",
        }
    }

    /// How many records the payload holds.
    pub(crate) fn records(self) -> u64 {
        match self {
            BuiltinPayload::Single => 1,
            BuiltinPayload::Small => 1_000,
            BuiltinPayload::Large => 10_000,
        }
    }

    /// Looks a built-in payload up by name.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Generates `records` customer records from `seed` with the chosen stream.
///
/// ```
/// use codecbench::{generate, RngKind};
///
/// let single = generate(1, 42, RngKind::Dotnet);
/// assert_eq!(single.len(), 290);
/// assert!(single.starts_with(br#"[{"id":1,"externalId":"96ba173e-04ae-3bcd-9986-9e56f0adbf3a""#));
/// ```
pub fn generate(records: u64, seed: i32, rng: RngKind) -> Vec<u8> {
    let mut stream: Box<dyn RecordRng> = match rng {
        RngKind::Dotnet => Box::new(DotnetRandom::new(seed)),
        // Sign-extend so that every i32 seed maps to a distinct u64.
        RngKind::Chacha => Box::new(ChaChaRecordRng::new(i64::from(seed) as u64)),
    };
    records::make_list_payload(records, stream.as_mut())
}

/// SHA-256 of `bytes` as lower-case hex, to identify a payload across runs.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One payload to benchmark: a name for the reports and its bytes.
#[derive(Clone, Debug)]
pub(crate) struct Payload {
    /// `single`, `small`, `large`, or the file's path as the user gave it.
    pub name: String,
    /// The uncompressed body.
    pub bytes: Vec<u8>,
    /// The content type a body from a HAR capture was served as.
    pub content_type: Option<String>,
}

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
}

impl PayloadSource {
    /// Parses `single|small|large|PATH`. A word that is neither a built-in name nor an
    /// existing path is an error that lists the built-in names.
    pub(crate) fn parse(text: &str) -> Result<Self> {
        if let Some(builtin) = BuiltinPayload::from_name(text) {
            return Ok(PayloadSource::Builtin(builtin));
        }
        let path = Path::new(text);
        if !path.exists() {
            bail!("payload '{text}' is neither a built-in payload (single, small, large) nor an existing file or directory");
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
    for source in sources {
        match source {
            PayloadSource::Builtin(builtin) => payloads.push(Payload {
                name: builtin.name().to_string(),
                bytes: generate(builtin.records(), seed, rng),
                content_type: None,
            }),
            PayloadSource::Path(path) if path.is_dir() => {
                let (files, skipped) = directory_files(path)?;
                notes.extend(skipped);
                let root = root_name(path);
                for file in files {
                    let relative = file.strip_prefix(path).unwrap_or(&file);
                    let name = format!("{root}/{}", relative.display());
                    payloads.push(read_file(&file, name)?);
                }
            }
            PayloadSource::Path(path) => {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                payloads.push(read_file(path, name)?)
            }
            PayloadSource::Har(path) => {
                let capture = har::read(path)?;
                notes.push(capture.summary(path));
                payloads.extend(capture.payloads);
            }
            PayloadSource::Records(count) => payloads.push(Payload {
                name: records_name(*count),
                bytes: generate(*count, seed, rng),
                content_type: None,
            }),
        }
    }
    Ok((payloads, notes))
}

/// The name of a generated payload of `count` records: `30 records`.
pub(crate) fn records_name(count: u64) -> String {
    match count {
        1 => "1 record".to_string(),
        n => format!("{n} records"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sizes_with_seed_42_match_the_article() {
        assert_eq!(generate(1, 42, RngKind::Dotnet).len(), 290);
        assert_eq!(generate(1_000, 42, RngKind::Dotnet).len(), 298_727);
    }

    #[test]
    fn chacha_gives_the_same_shape_but_other_bytes() {
        let dotnet = generate(100, 42, RngKind::Dotnet);
        let chacha = generate(100, 42, RngKind::Chacha);
        assert_ne!(dotnet, chacha);
        let records: serde_json::Value = serde_json::from_slice(&chacha).unwrap();
        assert_eq!(records.as_array().unwrap().len(), 100);
        assert_eq!(chacha, generate(100, 42, RngKind::Chacha));
    }

    #[test]
    fn sha256_of_the_empty_string() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    mod garbage {
        use super::super::{load, PayloadSource, RngKind};
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

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_one_byte_past_the_limit() {
        let error = read_limited(Path::new("/dev/zero"), 1000, "saved run").unwrap_err();
        assert_eq!(
            error.to_string(),
            "saved run /dev/zero is larger than that, as read; codecbench reads up to 0 MiB"
        );
    }

    #[test]
    fn unknown_names_are_rejected_with_the_builtin_list() {
        let err = PayloadSource::parse("medium").unwrap_err().to_string();
        assert!(err.contains("'medium'") && err.contains("single, small, large"));
        assert_eq!(
            PayloadSource::parse("large").unwrap(),
            PayloadSource::Builtin(BuiltinPayload::Large)
        );
    }
}
