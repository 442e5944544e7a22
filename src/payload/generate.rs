//! The article's generated payloads: customer records from a seeded stream (.NET's
//! `System.Random` or ChaCha8), and the built-in sizes.

use std::fmt;

use super::dotnet_random::DotnetRandom;
use super::records;
use super::rng::{ChaChaRecordRng, RecordRng};

/// The most records `payloads --records` generates: about 240 MB of JSON, under
/// [`super::MAX_PAYLOAD_BYTES`].
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
}
