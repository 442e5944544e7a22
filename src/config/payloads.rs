//! The payloads a command names (`--payload`, `--records`) and the settings of
//! `codecbench payloads`.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::cli::PayloadsArgs;
use crate::payload::{PayloadSource, RngKind};

/// The payloads `--payload` names, or the three built-ins when it is not given.
pub(crate) fn payload_sources(names: &[String], records: &[String]) -> Result<Vec<PayloadSource>> {
    if names.is_empty() && records.is_empty() {
        return Ok(crate::payload::BuiltinPayload::ALL
            .into_iter()
            .map(PayloadSource::Builtin)
            .collect());
    }
    // A body named twice would be two payloads of one name: a run that compare and
    // merge refuse.
    if let Some(twice) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n))
    {
        bail!("--payload {:?} is named twice", twice.1);
    }
    let mut sources: Vec<PayloadSource> = names
        .iter()
        .map(|p| PayloadSource::parse(p))
        .collect::<Result<_>>()?;
    for text in records {
        sources.push(PayloadSource::Records(record_count(text, "--records")?));
    }
    Ok(sources)
}

/// A record count from 1 to [`crate::payload::MAX_RECORDS`].
fn record_count(text: &str, option: &str) -> Result<u64> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=crate::payload::MAX_RECORDS).contains(&n) => Ok(n),
        _ => bail!(
            "{option} {text}: codecbench generates 1 to {} records (about {} MiB of JSON at most)",
            crate::payload::MAX_RECORDS,
            crate::payload::MAX_PAYLOAD_BYTES / 1024 / 1024
        ),
    }
}

/// Settings of `codecbench payloads`.
pub(crate) struct PayloadsConfig {
    /// Directory to write into.
    pub out: PathBuf,
    /// `Some(n)`: write only `records-n.json`; `None`: the three built-ins.
    pub records: Option<u64>,
    /// Generator seed.
    pub seed: i32,
    /// Generator stream.
    pub rng: RngKind,
}

impl PayloadsConfig {
    /// Copies the parsed options, refusing a record count past
    /// [`crate::payload::MAX_RECORDS`].
    pub(crate) fn from_args(args: PayloadsArgs) -> Result<Self> {
        if let Some(records) = args.records {
            record_count(&records.to_string(), "--records")?;
        }
        Ok(PayloadsConfig {
            out: args.out,
            records: args.records,
            seed: args.generator.seed,
            rng: args.generator.rng,
        })
    }
}
