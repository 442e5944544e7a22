//! The cells `recommend` measures again before it answers: those a decision turns on
//! while their time rests on too few samples.
//!
//! Under `--quick` a slow cell (zstd 17 on a 2.2 MB body, 0.8 s) gets one sample, and
//! its interval is that sample widened by a quarter (see [`super::span`]). Where such an
//! interval holds a budget, or such a cell ties with another, one noisy sample decides
//! the answer, and the next run answers otherwise. As `zstd -b` and lzbench give slow
//! levels more time rather than fewer runs, these cells get more samples:
//! - at a budget, [`SETTLED_SAMPLES`]: the 95% interval of the median then leaves out
//!   the two fastest and two slowest samples (order statistics, see
//!   [`crate::stats::Summary`]), so one slow sample no longer decides whether it fits;
//! - in a tie, [`INTERVAL_SAMPLES`], the fewest that give an interval of the median,
//!   which is widened by a tenth rather than a quarter.

use super::{AdviceOptions, Answer, Scenario};
use crate::results::{LoadedRun, RunCell};
use crate::stats::Summary;
use crate::vocab::CellId;

/// Compression samples a cell whose interval holds a budget is measured to.
pub(crate) const SETTLED_SAMPLES: usize = 12;

/// Samples a tied cell is measured to: the fewest with an interval of the median.
pub(crate) const INTERVAL_SAMPLES: usize = 6;

/// Cells of one traffic body to measure again, each by the same count.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unsettled {
    /// The payload's name.
    pub payload: String,
    /// Its cells to measure again, in run order.
    pub cells: Vec<CellId>,
    /// Timed iterations each way that bring the fewest sampled of them to their target.
    pub more_samples: u32,
}

/// The cells of `run`'s traffic bodies (not those cut to place a minimum) that a decision
/// of `answers` turns on with fewer samples than it needs:
/// - a compression time whose interval holds a scenario's budget (it may fit, or not),
///   under [`SETTLED_SAMPLES`];
/// - a setting an answer line ties with another, under [`INTERVAL_SAMPLES`] in what the
///   line reads: compression and decompression for dynamic responses, decompression for
///   the others.
pub(crate) fn unsettled(
    run: &LoadedRun,
    answers: &[Answer],
    options: &AdviceOptions,
) -> Vec<Unsettled> {
    let budgets: Vec<f64> = Scenario::ALL
        .iter()
        .filter_map(|s| s.budget_s(options))
        .collect();
    let tied = tied_in(answers);
    let mut found: Vec<Unsettled> = Vec::new();
    for cell in run.codec_cells() {
        if cell.payload.cut_from.is_some() {
            continue;
        }
        let Some(setting) = super::body::setting(&cell) else {
            continue;
        };
        let (compress, decompress) = (count(&cell.cell.compress), count(&cell.cell.decompress));
        let span = setting.compress_span;
        let at_budget = budgets.iter().any(|&b| span.low_s <= b && b < span.high_s);
        let read = |scenario: &Scenario| match scenario {
            Scenario::Dynamic => compress.min(decompress),
            Scenario::Cached | Scenario::Static => decompress,
        };
        let in_tie = tied
            .iter()
            .filter(|(id, _)| *id == cell.key.id)
            .map(|(_, scenario)| INTERVAL_SAMPLES.saturating_sub(read(scenario)));
        let wanted = in_tie
            .chain(at_budget.then(|| SETTLED_SAMPLES.saturating_sub(compress)))
            .max()
            .unwrap_or(0);
        if wanted > 0 {
            add(&mut found, &cell, wanted as u32);
        }
    }
    found
}

/// Each setting a line of `answers` names in a tie, or ties it with, with the line's
/// scenario.
fn tied_in(answers: &[Answer]) -> Vec<(CellId, Scenario)> {
    answers
        .iter()
        .flat_map(|a| &a.lines)
        .flat_map(|line| {
            line.encodings
                .iter()
                .filter(|e| !e.tied_with.is_empty())
                .flat_map(move |e| {
                    std::iter::once(e.id)
                        .chain(e.tied_with.iter().copied())
                        .map(move |id| (id, line.scenario))
                })
        })
        .collect()
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
        let options = AdviceOptions::default();
        unsettled(run, &super::super::answers(run, &options), &options)
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
    fn a_tie_from_few_samples_is_measured_to_an_interval_and_a_clear_pick_is_not() {
        let decompress = many(SETTLED_SAMPLES, 0.003);
        let tied = LoadedRun::of_cells(
            "run.json",
            vec![
                cell(1, 400_000, &[0.002, 0.0021], &decompress),
                cell(2, 396_000, &[0.0021, 0.0022], &decompress),
            ],
        );
        let ids = |run: &LoadedRun| -> Vec<(String, u32)> {
            found(run)
                .iter()
                .flat_map(|u| u.cells.iter().map(|c| (c.to_string(), u.more_samples)))
                .collect()
        };
        let more = (INTERVAL_SAMPLES - 2) as u32;
        let expected = [("zstd 1 (libzstd)", more), ("zstd 2 (libzstd)", more)];
        assert_eq!(ids(&tied), expected.map(|(id, n)| (id.to_string(), n)));
        // Far apart on the wire, zstd 2 is surely faster: no tie, nothing to settle.
        let clear = LoadedRun::of_cells(
            "run.json",
            vec![
                cell(1, 400_000, &[0.002, 0.0021], &decompress),
                cell(2, 200_000, &[0.0021, 0.0022], &decompress),
            ],
        );
        assert_eq!(ids(&clear), []);
    }

    #[test]
    fn bodies_cut_to_place_a_minimum_are_never_measured_again() {
        let mut run = run(&many(SETTLED_SAMPLES, 0.002), &[0.9]);
        run.payloads_mut()[0].cut_from = Some("bigger.json".into());
        assert_eq!(found(&run), []);
    }
}
