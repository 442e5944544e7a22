//! Instructions judged exactly: under callgrind a cell's count repeats to a few parts
//! per million whatever the machine is doing, so a change beyond
//! `--instructions-threshold` (1% by default) is the code's, not the noise's. Counts
//! compare only between runs of one architecture and one library version: across
//! either, the instructions are other instructions, and compare says so instead.

use serde::Serialize;

use super::direction::Direction;
use super::verdict::Verdict;
use crate::results::Instructions;

/// One direction's instructions per input byte in both runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct InstructionChange {
    /// Baseline instructions per uncompressed byte.
    pub baseline_per_byte: f64,
    /// Candidate instructions per uncompressed byte.
    pub candidate_per_byte: f64,
    /// `candidate / baseline − 1`: 0.02 means 2% more instructions.
    pub change: f64,
    /// Regressed (more), improved (fewer) or unchanged, against the threshold; set by
    /// [`judge_threshold`].
    pub verdict: Verdict,
}

/// The instruction changes of a cell present in both runs, and why there are none
/// when both runs counted but they do not compare. `versions` are the library's.
pub(super) fn judge(
    baseline: Option<&Instructions>,
    candidate: Option<&Instructions>,
    (baseline_bytes, candidate_bytes): (u64, u64),
    versions: Option<(&str, &str)>,
) -> (Vec<(Direction, InstructionChange)>, Option<String>) {
    let (Some(b), Some(c)) = (baseline, candidate) else {
        return (Vec::new(), None);
    };
    if let (Some(a), Some(z)) = (b.arch(), c.arch()) {
        if a != z {
            return (Vec::new(), Some(format!("counted on {a}, then on {z}")));
        }
    }
    if let Some((before, after)) = versions.filter(|(x, y)| x != y) {
        return (Vec::new(), Some(format!("library {before} → {after}")));
    }
    let per_byte = |count: u64, bytes: u64| count as f64 / bytes.max(1) as f64;
    let change = |before: u64, after: u64| {
        let (b, c) = (
            per_byte(before, baseline_bytes),
            per_byte(after, candidate_bytes),
        );
        InstructionChange {
            baseline_per_byte: b,
            candidate_per_byte: c,
            change: c / b.max(f64::MIN_POSITIVE) - 1.0,
            verdict: Verdict::Unchanged,
        }
    };
    let changes = vec![
        (Direction::Compress, change(b.compress, c.compress)),
        (Direction::Decompress, change(b.decompress, c.decompress)),
    ];
    (changes, None)
}

/// Gives each change its verdict against `threshold` (a fraction): no noise band, as
/// the counts are exact.
pub(super) fn judge_threshold(changes: &mut [(Direction, InstructionChange)], threshold: f64) {
    for (_, change) in changes {
        change.verdict = if change.change > threshold {
            Verdict::Regressed
        } else if change.change < -threshold {
            Verdict::Improved
        } else {
            Verdict::Unchanged
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::run::InstructionCounter;

    fn counter(arch: &str) -> InstructionCounter {
        InstructionCounter {
            tool: "callgrind".into(),
            version: "valgrind-3.19.0".into(),
            arch: arch.into(),
            build: "release".into(),
            calls: 3,
        }
    }

    fn counted(compress: u64, counter: &InstructionCounter) -> Instructions<'_> {
        Instructions {
            compress,
            decompress: 1_000,
            counter: Some(counter),
        }
    }

    #[test]
    fn a_two_percent_change_regresses_at_one_percent_and_other_machines_are_not_judged() {
        let (x86, arm) = (counter("x86_64"), counter("aarch64"));
        let (b, c) = (counted(1_000_000, &x86), counted(1_020_000, &x86));
        let (mut changes, why) = judge(Some(&b), Some(&c), (1000, 1000), Some(("1", "1")));
        assert_eq!(why, None);
        judge_threshold(&mut changes, 0.01);
        assert_eq!(changes[0].1.verdict, Verdict::Regressed);
        assert!((changes[0].1.change - 0.02).abs() < 1e-12);
        assert_eq!(changes[1].1.verdict, Verdict::Unchanged);
        judge_threshold(&mut changes, 0.03);
        assert_eq!(changes[0].1.verdict, Verdict::Unchanged);
        let arm = counted(1_000_000, &arm);
        let (changes, why) = judge(Some(&b), Some(&arm), (1000, 1000), None);
        assert!(changes.is_empty());
        assert_eq!(
            why.as_deref(),
            Some("counted on x86_64, release build, then on aarch64, release build")
        );
        let (changes, why) = judge(Some(&b), Some(&c), (1000, 1000), Some(("1.5.6", "1.5.7")));
        assert!(changes.is_empty());
        assert_eq!(why.as_deref(), Some("library 1.5.6 → 1.5.7"));
        assert_eq!(judge(Some(&b), None, (1, 1), None), (Vec::new(), None));
    }
}
