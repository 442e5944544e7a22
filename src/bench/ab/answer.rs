//! A worker's answer to one `ab` batch, checked before it joins a cell: the baseline is
//! any program the user named, so its answer is believed only when it is the one batch
//! asked for, whole, with times a clock could have measured.

use anyhow::{bail, Result};

use crate::bench::protocol::Job;
use crate::results::run::{CellResult, PayloadResult};
use crate::stats::Summary;
use crate::vocab::CellId;

/// The one cell of `result` when it answers `job` (a job of one setting at one level):
/// the payload, its length and hash, the cell, not cut short, and finite times above
/// zero unless the cell failed. Anything else is refused, saying what.
pub(super) fn checked(result: PayloadResult, job: &Job) -> Result<CellResult> {
    let body = &job.body;
    if result.payload != body.name || result.input_bytes != body.bytes {
        bail!(
            "answered for another payload ({:?}, {} bytes) than {:?}",
            result.payload,
            result.input_bytes,
            body.name
        );
    }
    if result
        .sha256
        .as_ref()
        .is_some_and(|hash| *hash != body.sha256)
    {
        bail!(
            "answered for a body with another SHA-256 than {:?}",
            body.name
        );
    }
    if result.interrupted {
        bail!("answered with a result cut short, though no stop was sent");
    }
    let [cell] = <[CellResult; 1]>::try_from(result.cells)
        .map_err(|cells| anyhow::anyhow!("answered {} cells for a batch of one", cells.len()))?;
    let asked = asked(job)?;
    if cell.id != asked {
        bail!("answered for {} when {asked} was asked", cell.id);
    }
    if cell.failure.is_none() {
        for (direction, summary) in [
            ("compress", &cell.compress),
            ("decompress", &cell.decompress),
        ] {
            measured(direction, summary.as_ref())?;
        }
    }
    Ok(cell)
}

/// The cell `job` asks for.
fn asked(job: &Job) -> Result<CellId> {
    match job.settings.as_slice() {
        [setting] if setting.levels.len() == 1 => Ok(CellId {
            codec: setting.codec,
            library: setting.library,
            variant: setting.variant,
            level: setting.levels[0],
        }),
        _ => bail!("an ab batch is one setting at one level"),
    }
}

/// Refuses a direction with no times, or with one no clock gives: not finite, not above
/// zero, or a fastest above the median.
fn measured(direction: &str, summary: Option<&Summary>) -> Result<()> {
    let Some(summary) = summary else {
        bail!("answered no {direction} times for a cell that did not fail");
    };
    let times = [summary.min_s, summary.median_s];
    if times.iter().any(|t| !t.is_finite() || *t <= 0.0) || summary.min_s > summary.median_s {
        bail!(
            "answered {direction} times no clock gives (fastest {} s, median {} s)",
            summary.min_s,
            summary.median_s
        );
    }
    Ok(())
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
