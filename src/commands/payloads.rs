//! `codecbench payloads`: the generated payloads, written to disk.

use std::io::{self, Write};

use anyhow::Context;

use super::output::write_file;
use crate::config::PayloadsConfig;
use crate::format::thousands;
use crate::payload::{self, BuiltinPayload};

/// Writes the payloads `config` names.
pub(super) fn run(config: PayloadsConfig) -> crate::error::Result {
    std::fs::create_dir_all(&config.out)
        .with_context(|| format!("cannot create directory {}", config.out.display()))?;
    let files: Vec<(String, u64)> = match config.records {
        Some(records) => vec![(format!("records-{records}.json"), records)],
        None => BuiltinPayload::ALL
            .iter()
            .map(|p| (format!("{}.json", p.name()), p.records()))
            .collect(),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (file_name, records) in files {
        let path = config.out.join(file_name);
        let bytes = payload::generate(records, config.seed, config.rng);
        write_file(&path, &bytes)?;
        writeln!(
            out,
            "{}: {}, {} bytes",
            path.display(),
            crate::format::count(records, "record"),
            thousands(bytes.len() as u64)
        )
        .context("cannot write to stdout")?;
    }
    Ok(())
}
