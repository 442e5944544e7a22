//! One direction of one `ab` cell: per pair of batches, the candidate's time ÷ the
//! baseline's on each clock (each batch's fastest iteration), the shift they show with
//! its interval ([`crate::stats::narrower_shift`]), read on the clock that is steadier.
//!
//! A batch whose fastest wall time exceeds its fastest CPU time waited off the CPU while
//! timed: its pair's wall ratio measures the scheduler, and is left out, and the cell's
//! direction is read on the CPU clock. Where nothing waited, the two clocks' intervals
//! estimate the same shift, and the verdict reads the narrower; the choice looks at
//! widths alone, never at where either interval lies.

use serde::Serialize;

use crate::stats::{median, narrower_shift, Centre, PairedShift, WAITED_FLOOR};

/// The confidence level of each interval: 95%.
pub(crate) const ALPHA: f64 = 0.05;

/// The verdict on one direction of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AbVerdict {
    /// The whole interval lies within the threshold either way.
    Same,
    /// The interval straddles the threshold, or too few pairs bound it.
    Inconclusive,
    /// The candidate is faster: the whole interval lies beyond the threshold.
    Faster,
    /// The candidate is slower: the whole interval lies beyond the threshold.
    Slower,
}

impl AbVerdict {
    /// The word reports print.
    pub(crate) fn word(self) -> &'static str {
        match self {
            AbVerdict::Same => "same",
            AbVerdict::Inconclusive => "inconclusive",
            AbVerdict::Faster => "faster",
            AbVerdict::Slower => "SLOWER",
        }
    }
}

/// The clock a direction's estimate, interval and verdict read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Basis {
    /// The wall clock, pairs with a batch that waited left out.
    #[default]
    Wall,
    /// The measuring thread's CPU clock.
    Cpu,
}

impl Basis {
    /// What reports write after a verdict read on it: nothing for the wall clock,
    /// ` (CPU)` for the CPU clock.
    pub(crate) fn mark(self) -> &'static str {
        match self {
            Basis::Wall => "",
            Basis::Cpu => " (CPU)",
        }
    }
}

/// The least time, in seconds, by which a batch's fastest wall time must exceed its
/// fastest CPU time, besides [`WAITED_FLOOR`], for the batch to have waited: a thread set
/// aside is away for far longer, while the CPU clock's own cost varies by some 0.1 µs a
/// reading, a few percent of the shortest calls.
const WAITED_LEAST_S: f64 = 10e-6;

/// One pair's batches as their fastest iterations: `(wall, cpu)` seconds each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairFastest {
    /// The candidate's batch.
    pub candidate: (f64, Option<f64>),
    /// The baseline's.
    pub baseline: (f64, Option<f64>),
}

/// One direction of one cell: every pair's ratios and what they show.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct PairedTimes {
    /// The candidate's fastest wall time ÷ the baseline's, one pair of batches each, in
    /// order.
    pub ratios: Vec<f64>,
    /// The same of their fastest CPU times; empty when a build reported none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cpu_ratios: Vec<f64>,
    /// The pairs (from 0) with a batch whose fastest wall time exceeded its fastest CPU
    /// time by more than 2% and 10 µs: their wall ratios are left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waited: Vec<usize>,
    /// The clock the estimate, interval and verdict read.
    pub basis: Basis,
    /// The estimate of the ratio, as `centre` says; `None` with under 6 pairs.
    pub estimate: Option<f64>,
    /// Its 95% interval's low end.
    pub low: Option<f64>,
    /// Its high end.
    pub high: Option<f64>,
    /// The estimate and interval read: the one whose interval was narrower.
    pub centre: Centre,
}

/// The estimate and 95% interval of `ratios`, each a ratio.
fn interval(ratios: &[f64]) -> Option<PairedShift> {
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let shift = narrower_shift(&logs, ALPHA)?;
    Some(PairedShift {
        estimate: shift.estimate.exp(),
        low: shift.low.exp(),
        high: shift.high.exp(),
        ..shift
    })
}

impl PairedTimes {
    /// Wall-clock `ratios` alone, with the shift they show.
    #[cfg(test)]
    pub(crate) fn of(ratios: Vec<f64>) -> PairedTimes {
        PairedTimes::read(ratios, Vec::new(), Vec::new())
    }

    /// The pairs' fastest times on both clocks, with the shift they show on the steadier.
    pub(crate) fn of_pairs(pairs: &[PairFastest]) -> PairedTimes {
        let waited_in = |(wall, cpu): (f64, Option<f64>)| {
            cpu.is_some_and(|cpu| wall > cpu * (1.0 + WAITED_FLOOR) && wall - cpu > WAITED_LEAST_S)
        };
        let ratios = pairs.iter().map(|p| p.candidate.0 / p.baseline.0).collect();
        let cpu: Option<Vec<f64>> = pairs
            .iter()
            .map(|p| Some(p.candidate.1? / p.baseline.1?))
            .collect();
        let waited = (pairs.iter().enumerate())
            .filter(|(_, p)| waited_in(p.candidate) || waited_in(p.baseline))
            .map(|(i, _)| i)
            .collect();
        PairedTimes::read(ratios, cpu.unwrap_or_default(), waited)
    }

    fn read(ratios: Vec<f64>, cpu_ratios: Vec<f64>, waited: Vec<usize>) -> PairedTimes {
        let mut times = PairedTimes {
            ratios,
            cpu_ratios,
            waited,
            ..PairedTimes::default()
        };
        let width = |i: Option<PairedShift>| i.map(|i| i.high / i.low);
        let wall = interval(&times.wall_kept());
        let cpu = interval(&times.cpu_ratios);
        let on_cpu = match (width(wall), width(cpu)) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(w), Some(c)) => !times.waited.is_empty() || c < w,
        };
        let (basis, chosen) = match on_cpu {
            true => (Basis::Cpu, cpu),
            false => (Basis::Wall, wall),
        };
        times.basis = basis;
        if let Some(shift) = chosen {
            (times.estimate, times.low, times.high) =
                (Some(shift.estimate), Some(shift.low), Some(shift.high));
            times.centre = shift.centre;
        }
        times
    }

    /// The ratios of the clock the verdict reads: for the wall clock, the pairs in
    /// which no batch waited.
    pub(crate) fn basis_ratios(&self) -> Vec<f64> {
        match self.basis {
            Basis::Cpu => self.cpu_ratios.clone(),
            Basis::Wall => self.wall_kept(),
        }
    }

    /// The wall clock's ratios of the pairs in which no batch waited.
    fn wall_kept(&self) -> Vec<f64> {
        (self.ratios.iter().enumerate())
            .filter(|(i, _)| !self.waited.contains(i))
            .map(|(_, r)| *r)
            .collect()
    }

    /// The verdict against `threshold` (0.02 for 2%): slower or faster when the whole
    /// interval lies beyond it, the same when it lies within it either way.
    pub(crate) fn verdict(&self, threshold: f64) -> AbVerdict {
        let (Some(low), Some(high)) = (self.low, self.high) else {
            return AbVerdict::Inconclusive;
        };
        let (up, down) = (1.0 + threshold, 1.0 / (1.0 + threshold));
        if low > up {
            AbVerdict::Slower
        } else if high < down {
            AbVerdict::Faster
        } else if low >= down && high <= up {
            AbVerdict::Same
        } else {
            AbVerdict::Inconclusive
        }
    }

    /// The verdict, held to account across runs of `group` pairs (one run per
    /// generation of workers; `ab` starts them anew every pair, so a run is one pair).
    /// Inconclusive under 3 runs. A slower or faster verdict must
    /// survive leaving out each run in turn: the pairs left must still put the whole
    /// interval on the same side of 1. So a worker slow for its whole life cannot
    /// decide a cell alone; a real change shows in every run.
    pub(crate) fn steady_verdict(&self, threshold: f64, group: usize) -> AbVerdict {
        let verdict = self.verdict(threshold);
        let ratios = self.basis_ratios();
        let group = group.max(1);
        let runs = ratios.len().div_ceil(group);
        if runs < 3 {
            return AbVerdict::Inconclusive;
        }
        let same_side = |run: usize| {
            let rest: Vec<f64> = (ratios.iter().enumerate())
                .filter(|(i, _)| i / group != run)
                .map(|(_, r)| *r)
                .collect();
            match (verdict, interval(&rest)) {
                (AbVerdict::Slower, Some(shift)) => shift.low > 1.0,
                (_, Some(shift)) => shift.high < 1.0,
                (_, None) => false,
            }
        };
        match verdict {
            AbVerdict::Slower | AbVerdict::Faster if !(0..runs).all(same_side) => {
                AbVerdict::Inconclusive
            }
            _ => verdict,
        }
    }

    /// The smallest slowdown this interval could have shown: its width above the
    /// estimate, added to the threshold. `None` without an interval.
    pub(crate) fn could_see(&self, threshold: f64) -> Option<f64> {
        let (estimate, low, high) = (self.estimate?, self.low?, self.high?);
        let half = (high / estimate).max(estimate / low);
        Some((1.0 + threshold) * half - 1.0)
    }

    /// The median ratio of the clock the verdict reads, for a table.
    pub(crate) fn median_ratio(&self) -> Option<f64> {
        let mut ratios = self.basis_ratios();
        (!ratios.is_empty()).then(|| median(&mut ratios))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_read_the_whole_interval_against_the_threshold() {
        let noisy = |centre: f64| -> Vec<f64> {
            (0..12)
                .map(|i| centre * (1.0 + (i % 5) as f64 * 0.004 - 0.008))
                .collect()
        };
        assert_eq!(
            PairedTimes::of(noisy(1.06)).verdict(0.02),
            AbVerdict::Slower
        );
        assert_eq!(
            PairedTimes::of(noisy(0.94)).verdict(0.02),
            AbVerdict::Faster
        );
        assert_eq!(PairedTimes::of(noisy(1.0)).verdict(0.02), AbVerdict::Same);
        assert_eq!(
            PairedTimes::of(noisy(1.02)).verdict(0.02),
            AbVerdict::Inconclusive
        );
        assert_eq!(
            PairedTimes::of(noisy(1.5)[..5].to_vec()).verdict(0.02),
            AbVerdict::Inconclusive
        );
        let seen = PairedTimes::of(noisy(1.0)).could_see(0.02).unwrap();
        assert!(seen > 0.02 && seen < 0.04, "{seen}");
    }

    /// The one false alarm of docs/ab.md: zstd 10's compression, the candidate's first
    /// two generations of workers slow, decided slower at 7 pairs.
    const SLOW_FIRST_WORKERS: [f64; 9] = [1.34, 1.34, 1.17, 1.21, 1.13, 1.07, 0.98, 1.0, 1.01];

    #[test]
    fn a_slow_generation_of_workers_cannot_decide_alone() {
        let first_seven = PairedTimes::of(SLOW_FIRST_WORKERS[..7].to_vec());
        assert_eq!(first_seven.verdict(0.02), AbVerdict::Slower);
        assert_eq!(first_seven.steady_verdict(0.02, 3), AbVerdict::Inconclusive);
        let nine = PairedTimes::of(SLOW_FIRST_WORKERS.to_vec());
        assert_eq!(nine.steady_verdict(0.02, 3), AbVerdict::Inconclusive);
    }

    #[test]
    fn a_steady_slowdown_is_decided_across_generations() {
        let slowed: Vec<f64> = (0..12)
            .map(|i| 1.05 * (1.0 + (i % 4) as f64 * 0.004 - 0.006))
            .collect();
        let times = PairedTimes::of(slowed);
        assert_eq!(times.steady_verdict(0.02, 3), AbVerdict::Slower);
        assert_eq!(
            PairedTimes::of(times.ratios[..6].to_vec()).steady_verdict(0.02, 3),
            AbVerdict::Inconclusive,
            "two generations are too few"
        );
        let same: Vec<f64> = (0..9).map(|i| 1.0 + (i % 3) as f64 * 0.002).collect();
        assert_eq!(
            PairedTimes::of(same).steady_verdict(0.02, 3),
            AbVerdict::Same
        );
    }

    /// Pairs of a baseline at 1 ms on both clocks and a candidate at `ratios` of it,
    /// its CPU time at `cpu` of it, its wall time `waited` times that in the pairs given.
    fn pairs(ratios: &[f64], cpu: &[f64], waited: &[(usize, f64)]) -> Vec<PairFastest> {
        (ratios.iter().zip(cpu).enumerate())
            .map(|(i, (&wall, &cpu))| {
                let stretch = waited.iter().find(|(at, _)| *at == i).map_or(1.0, |w| w.1);
                PairFastest {
                    candidate: (0.001 * wall * stretch, Some(0.001 * cpu)),
                    baseline: (0.001, Some(0.001)),
                }
            })
            .collect()
    }

    #[test]
    fn the_steadier_clock_decides_by_width_alone() {
        let steady: Vec<f64> = (0..12).map(|i| 1.0 + (i % 3) as f64 * 0.002).collect();
        let spread: Vec<f64> = (0..12).map(|i| 1.0 + (i % 3) as f64 * 0.02).collect();
        let on_cpu = PairedTimes::of_pairs(&pairs(&spread, &steady, &[]));
        assert_eq!(on_cpu.basis, Basis::Cpu);
        assert_eq!(on_cpu.basis_ratios(), on_cpu.cpu_ratios);
        assert!(on_cpu.high.unwrap() / on_cpu.low.unwrap() < 1.005);
        let on_wall = PairedTimes::of_pairs(&pairs(&steady, &spread, &[]));
        assert_eq!((on_wall.basis, on_wall.waited.len()), (Basis::Wall, 0));
        // Without CPU time, the wall clock.
        let mut no_cpu = pairs(&spread, &steady, &[]);
        no_cpu.iter_mut().for_each(|p| p.candidate.1 = None);
        let wall_only = PairedTimes::of_pairs(&no_cpu);
        assert_eq!(
            (wall_only.basis, wall_only.cpu_ratios.len()),
            (Basis::Wall, 0)
        );
    }

    #[test]
    fn a_pair_that_waited_is_left_out_of_the_wall_clock_and_the_cpu_clock_decides() {
        // A 3x slowdown, steadier on the wall clock than on the CPU clock; in 3 of 9
        // pairs the candidate's wall time waited 1.4x.
        let wall = [3.05, 3.051, 3.052, 3.05, 3.051, 3.052, 3.05, 3.051, 3.052];
        let cpu = [3.05, 3.1, 3.0, 3.08, 3.02, 3.06, 3.04, 3.07, 3.01];
        let times = PairedTimes::of_pairs(&pairs(&wall, &cpu, &[(1, 1.4), (7, 1.4), (8, 1.4)]));
        assert_eq!(times.waited, vec![1, 7, 8]);
        assert_eq!(times.basis, Basis::Cpu);
        assert_eq!(times.basis_ratios().len(), 9);
        assert_eq!(times.steady_verdict(0.2, 1), AbVerdict::Slower);
        // Wall over CPU by 3% of a 2 µs call is the clock's noise, not waiting.
        let tiny: Vec<PairFastest> = (0..9)
            .map(|_| PairFastest {
                candidate: (2.06e-6, Some(2.0e-6)),
                baseline: (2.0e-6, Some(2.0e-6)),
            })
            .collect();
        assert!(PairedTimes::of_pairs(&tiny).waited.is_empty());
    }
}
