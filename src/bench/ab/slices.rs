//! The slices of an `ab` pair: after a cell's first pair, each build runs it as a few
//! short batches in turn with the other's, and its fastest call over them counts. The
//! machine has slow spells (docs/calibration.md, "slow spells"); a spell that covers
//! part of a pair then leaves both builds calls outside it.

use std::time::Duration;

use crate::bench::schedule::{Iterations, Plan};
use crate::results::run::CellResult;
use crate::stats::Summary;

/// The longest call of a cell's slower direction for which a pair is cut into
/// [`SHORT_SLICES`] slices; a cell with longer calls gets [`LONG_SLICES`].
const SHORT_CALL: Duration = Duration::from_millis(10);
/// Batches each build runs per pair, alternating with the other's: for short calls,
/// and for long ones, where each slice costs a whole call.
const SHORT_SLICES: usize = 4;
const LONG_SLICES: usize = 2;
/// Calls of a short cell's slower direction in each slice, time allowing.
const CALLS_PER_SLICE: u32 = 3;
/// The shortest and longest a slice lasts per direction. A long call outlasts it
/// alone, so a long cell's slice is one call of its slower direction.
const SLICE_TIME: (Duration, Duration) = (Duration::from_millis(2), Duration::from_millis(25));
/// The most calls a slice makes per direction: the fast direction of a slow cell stops
/// here.
const SLICE_CALLS: u32 = 40;

/// A cell's batch after its first, sized from its first `batch` as the candidate ran
/// it, and how many slices each build runs per pair.
///
/// The machine has slow spells: here 19% of the calls, in spells from under 1 ms to
/// 420 ms, ran 1.6-1.8 times slower (docs/calibration.md, "slow spells"). A batch that
/// falls in a long one reads 0.7 or 1.4 against its pair. A cell whose calls are short gets
/// [`SHORT_SLICES`] of [`CALLS_PER_SLICE`] calls; one whose calls are long gets
/// [`LONG_SLICES`] of one call, each warmed up by [`REWARM`] calls: the call outlasts
/// any cache, one call before it makes its allocations, and of its slices the faster
/// counts, so a cold one is left out. Its warm-ups had been two thirds of its calls.
/// A cell without times keeps `plan`, in one slice.
pub(super) fn sized_batch(plan: Plan, first: &CellResult) -> (Plan, usize) {
    let slower = [&first.compress, &first.decompress]
        .iter()
        .filter_map(|s| s.as_ref().map(|s| s.median_s))
        .fold(0.0_f64, f64::max);
    if slower <= 0.0 {
        return (plan, 1);
    }
    let (slices, warmup) = match slower <= SHORT_CALL.as_secs_f64() {
        true => (SHORT_SLICES, plan.warmup),
        false => (LONG_SLICES, plan.warmup.min(REWARM)),
    };
    let (shortest, longest) = SLICE_TIME;
    let time = Duration::from_secs_f64(slower * f64::from(CALLS_PER_SLICE));
    let plan = Plan {
        iterations: Iterations::Budget {
            min_time: time.clamp(shortest, longest),
            max_iterations: SLICE_CALLS,
        },
        warmup,
        ..plan
    };
    (plan, slices)
}

/// Warm-up calls of a pair's slices after its first, which ran the same cell in the
/// same workers: one, to bring back the caches the other build's slice took.
const REWARM: u32 = 1;

/// `batch` for a slice after a pair's first: its allocations were made and its pages
/// touched by the first, so [`REWARM`] calls warm it up. A short cell's later slices
/// then skip `--warmup`'s extra calls; a long cell's were cut by [`sized_batch`].
pub(super) fn rewarmed(batch: Plan) -> Plan {
    Plan {
        warmup: batch.warmup.min(REWARM),
        ..batch
    }
}

/// One direction of a batch's timings.
pub(super) type Direction = fn(&CellResult) -> &Option<Summary>;

/// The fastest call over one build's batches of a pair, on each clock: a slow spell
/// that covers part of them leaves it alone, where it moves a median
/// (docs/calibration.md, "ab pairs"). The CPU clock's only if every batch read it;
/// `None` when a batch has no timing.
pub(super) fn fastest<'a>(
    batches: impl Iterator<Item = &'a Option<Summary>>,
) -> Option<(f64, Option<f64>)> {
    let mut wall = f64::INFINITY;
    let mut cpu = Some(f64::INFINITY);
    for summary in batches {
        let summary = summary.as_ref()?;
        wall = wall.min(summary.min_s);
        cpu = cpu
            .zip(summary.cpu.as_ref())
            .map(|(most, c)| most.min(c.min_s));
    }
    wall.is_finite().then_some((wall, cpu))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    fn first(compress_s: f64, decompress_s: f64) -> CellResult {
        let mut cell = CellResult::unmeasured(
            crate::vocab::CellId::reference(crate::vocab::CodecKind::Zstd, 3),
            "1".into(),
            None,
        );
        cell.compress = Summary::from_seconds(vec![compress_s]);
        cell.decompress = Summary::from_seconds(vec![decompress_s]);
        cell
    }

    fn min_time(plan: Plan) -> Duration {
        match plan.iterations {
            Iterations::Budget { min_time, .. } => min_time,
            Iterations::Fixed(_) => panic!("a sized batch has a time budget"),
        }
    }

    #[test]
    fn short_calls_get_four_slices_and_long_ones_two_of_one_call() {
        let plan = Plan {
            warmup: 3,
            iterations: Iterations::Budget {
                min_time: Duration::from_millis(25),
                max_iterations: 1000,
            },
            rounds: 1,
            precision: None,
            processes: 1,
        };
        let sized = |c, d| {
            let (plan, slices) = sized_batch(plan, &first(c, d));
            (min_time(plan), slices)
        };
        // Short calls: four slices of three calls of the slower direction, from 2 ms.
        assert_eq!(sized(0.0004, 0.0002), (Duration::from_millis(2), 4));
        assert_eq!(sized(0.004, 0.0002), (Duration::from_millis(12), 4));
        // Long ones: two slices, each up to 25 ms, which one call outlasts.
        assert_eq!(sized(0.012, 0.0002), (Duration::from_millis(25), 2));
        let (slow, slices) = sized_batch(plan, &first(0.3, 0.0002));
        assert_eq!((min_time(slow), slices), (Duration::from_millis(25), 2));
        assert!(matches!(
            slow.iterations,
            Iterations::Budget {
                max_iterations: 40,
                ..
            }
        ));
        assert_eq!(
            sized_batch(plan, &first(0.0, 0.0)).0.iterations,
            plan.iterations
        );
        // A short cell's slices warm up as asked; a long one's with one call.
        assert_eq!(sized_batch(plan, &first(0.004, 0.0002)).0.warmup, 3);
        assert_eq!(slow.warmup, 1);
    }

    #[test]
    fn slices_after_the_first_warm_up_once() {
        let plan = Plan {
            warmup: 3,
            iterations: Iterations::Fixed(1),
            rounds: 1,
            precision: None,
            processes: 1,
        };
        assert_eq!(rewarmed(plan).warmup, 1);
        assert_eq!(rewarmed(Plan { warmup: 0, ..plan }).warmup, 0);
        assert_eq!(rewarmed(plan).iterations, plan.iterations);
    }

    #[test]
    fn a_pair_counts_each_builds_fastest_call_over_its_slices() {
        let with_cpu = |wall: &[f64], cpu: &[f64]| {
            Summary::from_seconds(wall.to_vec()).map(|s| s.with_cpu(cpu.to_vec()))
        };
        let slices = [with_cpu(&[3.0, 2.0], &[2.9, 1.9]), with_cpu(&[1.5], &[1.6])];
        assert_eq!(fastest(slices.iter()), Some((1.5, Some(1.6))));
        let no_cpu = [with_cpu(&[3.0], &[2.9]), Summary::from_seconds(vec![1.0])];
        assert_eq!(fastest(no_cpu.iter()), Some((1.0, None)));
        assert_eq!(fastest([None].iter()), None);
    }
}
