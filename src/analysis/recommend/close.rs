//! The cells `recommend` measures again before it answers: those whose compression time
//! holds a budget while it rests on too few samples.
//!
//! Under `--quick` a slow cell (zstd 17 on a 2.2 MB body, 0.8 s) gets one sample, and
//! its interval is that sample widened by a quarter (see [`super::span`]). Where such an
//! interval holds a budget, the fit reads its slow end, so one noisy sample decides
//! whether the cell fits, and the next run answers otherwise. As `zstd -b` and lzbench
//! give slow levels more time rather than fewer runs, such a cell gets
//! [`SETTLED_SAMPLES`]: the 95% interval of its median then leaves out the two fastest and
//! two slowest samples (order statistics, see [`crate::stats::Summary`]).
//!
//! Ties are not measured again. A tie of wide intervals is settled by bytes, the same way
//! in every run; narrowed by more samples, two settings 13% apart would tie in some runs
//! and not in others (docs/calibration.md, "recommend run after run").

use super::{AdviceOptions, Scenario};
use crate::results::{LoadedRun, RunCell};
use crate::stats::Summary;
use crate::vocab::CellId;

/// Compression samples a cell whose interval holds a budget is measured to.
pub(crate) const SETTLED_SAMPLES: usize = 12;

/// Cells of one traffic body to measure again, each by the same count.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unsettled {
    /// The payload's name.
    pub payload: String,
    /// Its cells to measure again, in run order.
    pub cells: Vec<CellId>,
    /// Timed iterations each way that bring the fewest sampled of them to
    /// [`SETTLED_SAMPLES`].
    pub more_samples: u32,
}

/// The cells of `run`'s traffic bodies (not those cut to place a minimum) whose
/// compression interval holds a scenario's budget with fewer than [`SETTLED_SAMPLES`]
/// samples: they may fit it, or not.
pub(crate) fn unsettled(run: &LoadedRun, options: &AdviceOptions) -> Vec<Unsettled> {
    let budgets: Vec<f64> = Scenario::ALL
        .iter()
        .filter_map(|s| s.budget_s(options))
        .collect();
    let mut found: Vec<Unsettled> = Vec::new();
    for cell in run.codec_cells() {
        if cell.payload.cut_from.is_some() {
            continue;
        }
        let Some(setting) = super::body::setting(&cell) else {
            continue;
        };
        let span = setting.compress_span;
        let at_budget = budgets.iter().any(|&b| span.low_s <= b && b < span.high_s);
        let have = count(&cell.cell.compress);
        if at_budget && have < SETTLED_SAMPLES {
            add(&mut found, &cell, (SETTLED_SAMPLES - have) as u32);
        }
    }
    found
}

/// How many samples `summary` has.
fn count(summary: &Option<Summary>) -> usize {
    summary.as_ref().map_or(0, |s| s.samples_s.len())
}

/// `cell` added to the entry of its payload and count in `found`.
fn add(found: &mut Vec<Unsettled>, cell: &RunCell, more: u32) {
    let same = |u: &&mut Unsettled| u.payload == cell.key.payload && u.more_samples == more;
    match found.iter_mut().find(same) {
        Some(entry) => entry.cells.push(cell.key.id),
        None => found.push(Unsettled {
            payload: cell.key.payload.clone(),
            cells: vec![cell.key.id],
            more_samples: more,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{CellKey, FixtureCell};

    /// zstd `level` on a 2 MB body, compressed to `bytes`, with these samples each way.
    fn cell(level: i32, bytes: u64, compress_s: &[f64], decompress_s: &[f64]) -> FixtureCell {
        let summary = |s: &[f64]| Summary::from_seconds(s.to_vec()).expect("samples");
        FixtureCell::new(
            CellKey::new("canada.json", "zstd", level),
            2_000_000,
            bytes,
            summary(compress_s),
            summary(decompress_s),
        )
    }

    /// `n` samples spread evenly around `around`, ±5%.
    fn many(n: usize, around: f64) -> Vec<f64> {
        (0..n)
            .map(|i| around * (0.95 + 0.1 * i as f64 / (n - 1) as f64))
            .collect()
    }

    /// zstd 1 settled and fast, zstd 17 with `level_17` compression samples around the
    /// 1 s cache budget, zstd 19 one slow sample far over it.
    fn run(level_1: &[f64], level_17: &[f64]) -> LoadedRun {
        let decompress = many(SETTLED_SAMPLES, 0.003);
        LoadedRun::of_cells(
            "run.json",
            vec![
                cell(1, 400_000, level_1, &decompress),
                cell(17, 250_000, level_17, &decompress),
                cell(19, 240_000, &[3.0], &decompress),
            ],
        )
    }

    fn found(run: &LoadedRun) -> Vec<Unsettled> {
        unsettled(run, &AdviceOptions::default())
    }

    #[test]
    fn one_sample_at_a_budget_is_measured_again_and_one_far_from_it_is_not() {
        let run = run(&many(SETTLED_SAMPLES, 0.002), &[0.9]);
        let zstd_17 = crate::vocab::CellId::reference(crate::vocab::CodecKind::Zstd, 17);
        let expected = Unsettled {
            payload: "canada.json".into(),
            cells: vec![zstd_17],
            more_samples: (SETTLED_SAMPLES - 1) as u32,
        };
        assert_eq!(found(&run), [expected]);
    }

    #[test]
    fn enough_samples_settle_a_cell_wherever_its_interval_lies() {
        let run = run(&many(SETTLED_SAMPLES, 0.002), &many(SETTLED_SAMPLES, 0.95));
        assert_eq!(found(&run), []);
    }

    #[test]
    fn bodies_cut_to_place_a_minimum_are_never_measured_again() {
        let mut run = run(&many(SETTLED_SAMPLES, 0.002), &[0.9]);
        run.payloads_mut()[0].cut_from = Some("bigger.json".into());
        assert_eq!(found(&run), []);
    }
}
