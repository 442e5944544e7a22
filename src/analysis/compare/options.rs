//! What a comparison is asked: its threshold, its speed basis and what it tolerates.

use anyhow::{bail, Result};
use serde::Serialize;

use crate::vocab::CodecKind;

/// The chance, across a whole comparison, that noise alone flags any cell.
pub(crate) const FAMILY_ERROR_RATE: f64 = 0.05;

/// What speeds are compared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum SpeedBasis {
    /// Relative to the same run's reference cell: this codec at this level, fresh, from
    /// the library servers run, on the same payload.
    Normalized {
        /// Reference codec.
        codec: CodecKind,
        /// Reference level.
        level: i32,
    },
    /// Raw MB/s.
    Absolute,
}

/// Parses a reference written `CODEC:LEVEL`: `zstd:1`, `brotli:4` or `br:4`, `gzip:1`.
pub(crate) fn parse_reference(text: &str) -> Result<(CodecKind, i32)> {
    let Some((codec, level)) = text.split_once(':') else {
        bail!("--normalize-to '{text}' must look like CODEC:LEVEL, e.g. zstd:1");
    };
    let codec = match codec.trim() {
        "br" => CodecKind::Brotli,
        name => match name.parse() {
            Ok(codec) => codec,
            Err(why) => bail!("--normalize-to '{text}': {why}"),
        },
    };
    let Ok(level) = level.trim().parse() else {
        bail!("--normalize-to '{text}': '{level}' is not an integer level");
    };
    Ok((codec, level))
}

/// Settings of a comparison.
#[derive(Clone, Debug)]
pub(crate) struct CompareOptions {
    /// Smallest relative change that counts, e.g. 0.10 for 10%.
    pub threshold: f64,
    /// Normalised or absolute speeds.
    pub basis: SpeedBasis,
    /// Report size drifts without failing.
    pub allow_size_drift: bool,
    /// Report baseline results missing from the candidate without failing.
    pub allow_missing: bool,
    /// Fail on inconclusive speeds too.
    pub strict: bool,
    /// Largest relative growth of a cell's instructions per byte that passes, e.g.
    /// 0.01 for 1%.
    pub instructions_threshold: f64,
}

impl Default for CompareOptions {
    /// `compare`'s defaults: 10%, speeds normalised to zstd 1, instructions at 1%.
    fn default() -> Self {
        CompareOptions {
            threshold: 0.10,
            basis: SpeedBasis::Normalized {
                codec: crate::vocab::CodecKind::Zstd,
                level: 1,
            },
            allow_size_drift: false,
            allow_missing: false,
            strict: false,
            instructions_threshold: 0.01,
        }
    }
}
