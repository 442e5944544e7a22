//! Saved runs as a history: the runs in the order they were measured, and each cell's
//! series over them, as github-action-benchmark's and Bencher's dashboards draw a
//! benchmark over commits, from the files alone.
//!
//! Runs are ordered by the time their environment records (RFC 3339 UTC, which sorts
//! as text); a CSV run records none and keeps its place among the others given before
//! it. A cell enters the history when at least two runs measured it.

use crate::results::run::CellResult;
use crate::results::{CellKey, LoadedRun, Results};
use crate::stats::Summary;
use crate::vocab::CellId;

/// The fewest runs that make a history.
pub(crate) const MIN_RUNS: usize = 2;

/// One run's place on the history's axis.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mark {
    /// The run's file name.
    pub label: String,
    /// Its commit, shortened to 7 characters, if it recorded one.
    pub commit: Option<String>,
    /// When it started, if it recorded it.
    pub timestamp: Option<String>,
}

/// One timing of a cell in one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Point {
    /// Median seconds per call.
    pub median_s: f64,
    /// The 95% interval's ends, where the run had enough samples.
    pub low_s: Option<f64>,
    /// See `low_s`.
    pub high_s: Option<f64>,
}

/// A cell's series: per run in the history's order, its size and timings, or `None`
/// where that run did not measure it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Series {
    /// Which cell.
    pub id: CellId,
    /// Compressed bytes per run.
    pub bytes: Vec<Option<u64>>,
    /// Compression per run.
    pub compress: Vec<Option<Point>>,
    /// Decompression per run.
    pub decompress: Vec<Option<Point>>,
}

impl Series {
    /// Whether the size changed between runs that measured it.
    pub(crate) fn size_changed(&self) -> bool {
        let mut sizes = self.bytes.iter().flatten();
        let first = sizes.next();
        sizes.any(|b| Some(b) != first)
    }
}

/// Every payload's series over the runs.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct History {
    /// The runs in measured order.
    pub marks: Vec<Mark>,
    /// Per payload, in first-seen order, its cells' series.
    pub payloads: Vec<(String, Vec<Series>)>,
    /// The change in time, as a fraction, past which a step from one run to the next
    /// is a slowdown (`compare`'s threshold).
    pub threshold: f64,
}

/// A run in which a cell became slower than in the run before that measured it: by
/// more than the threshold, and with the two 95% intervals apart where both have one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Step {
    /// The run it happened in, as an index into [`History::marks`].
    pub run: usize,
    /// The run before it that measured the cell.
    pub from: usize,
    /// This run's median time ÷ that run's.
    pub ratio: f64,
}

/// Each step of `points` (one per run, `None` where a run did not measure) slower than
/// the one before by more than `threshold`, its interval clear of the one before.
pub(crate) fn slowdowns(points: &[Option<Point>], threshold: f64) -> Vec<Step> {
    let measured: Vec<(usize, Point)> = points
        .iter()
        .enumerate()
        .filter_map(|(run, p)| Some((run, (*p)?)))
        .collect();
    measured
        .windows(2)
        .filter_map(|pair| {
            let [(from, before), (run, after)] = [pair[0], pair[1]];
            let ratio = after.median_s / before.median_s;
            let apart = match (after.low_s, before.high_s) {
                (Some(low), Some(high)) => low > high,
                _ => true,
            };
            (ratio > 1.0 + threshold && apart).then_some(Step { run, from, ratio })
        })
        .collect()
}

/// The history of `runs`' codec cells, a step slower than `threshold` marked; `None`
/// with fewer than [`MIN_RUNS`] `run` results or no cell measured twice.
pub(crate) fn history(runs: &[&LoadedRun], threshold: f64) -> Option<History> {
    let mut ordered: Vec<&LoadedRun> = runs
        .iter()
        .copied()
        .filter(|r| matches!(r.results, Results::Codec { .. }))
        .collect();
    if ordered.len() < MIN_RUNS {
        return None;
    }
    ordered.sort_by_key(|r| r.environment.as_ref().map(|e| e.timestamp.clone()));
    let mut payloads: Vec<(String, Vec<Series>)> = Vec::new();
    for (index, run) in ordered.iter().enumerate() {
        for cell in run.codec_cells() {
            let series = series_of(&mut payloads, &cell.key, ordered.len());
            series.bytes[index] = Some(cell.cell.compressed_bytes);
            series.compress[index] = point(cell.cell, cell.cell.compress.as_ref());
            series.decompress[index] = point(cell.cell, cell.cell.decompress.as_ref());
        }
    }
    for (_, series) in payloads.iter_mut() {
        series.retain(|s| s.bytes.iter().flatten().count() >= MIN_RUNS);
    }
    payloads.retain(|(_, series)| !series.is_empty());
    if payloads.is_empty() {
        return None;
    }
    let marks = ordered.iter().map(|run| mark(run)).collect();
    Some(History {
        marks,
        payloads,
        threshold,
    })
}

/// The series of `key`, added empty if new.
fn series_of<'a>(
    payloads: &'a mut Vec<(String, Vec<Series>)>,
    key: &CellKey,
    runs: usize,
) -> &'a mut Series {
    let at = match payloads.iter().position(|(p, _)| *p == key.payload) {
        Some(at) => at,
        None => {
            payloads.push((key.payload.clone(), Vec::new()));
            payloads.len() - 1
        }
    };
    let cells = &mut payloads[at].1;
    let slot = match cells.iter().position(|s| s.id == key.id) {
        Some(slot) => slot,
        None => {
            cells.push(Series {
                id: key.id,
                bytes: vec![None; runs],
                compress: vec![None; runs],
                decompress: vec![None; runs],
            });
            cells.len() - 1
        }
    };
    &mut cells[slot]
}

fn point(cell: &CellResult, summary: Option<&Summary>) -> Option<Point> {
    let summary = summary.filter(|_| !cell.failed())?;
    Some(Point {
        median_s: summary.median_s,
        low_s: summary.median_ci95_low_s,
        high_s: summary.median_ci95_high_s,
    })
}

fn mark(run: &LoadedRun) -> Mark {
    let env = run.environment.as_ref();
    Mark {
        label: run.label.clone(),
        commit: env
            .and_then(|e| e.git_commit.as_ref())
            .map(|c| c.chars().take(7).collect()),
        timestamp: env.map(|e| e.timestamp.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    /// The fixture run as measured at `timestamp` by `commit`, its compression `scale`
    /// times as slow.
    fn run(label: &str, timestamp: &str, commit: &str, scale: f64) -> LoadedRun {
        let mut report = fixtures::report();
        report.environment.timestamp = timestamp.to_string();
        report.environment.git_commit = Some(commit.to_string());
        for cell in report.payloads[0].cells.iter_mut() {
            if let Some(s) = cell.compress.as_mut() {
                s.median_s *= scale;
            }
        }
        LoadedRun::from_report(&report, label)
    }

    #[test]
    fn runs_are_ordered_by_when_they_ran_and_each_cell_has_a_series() {
        let late = run("c.json", "2026-12-03T10:00:00Z", "cccccccccc", 1.2);
        let early = run("a.json", "2026-12-01T10:00:00Z", "aaaaaaaaaa", 1.0);
        let middle = run("b.json", "2026-12-02T10:00:00Z", "bbbbbbbbbb", 1.1);
        let history = history(&[&late, &early, &middle], 0.1).unwrap();
        let labels: Vec<&str> = history.marks.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(labels, ["a.json", "b.json", "c.json"]);
        assert_eq!(history.marks[0].commit.as_deref(), Some("aaaaaaa"));
        let (payload, series) = &history.payloads[0];
        assert_eq!(payload, &fixtures::report().payloads[0].payload);
        let times: Vec<f64> = series[0]
            .compress
            .iter()
            .map(|p| p.unwrap().median_s)
            .collect();
        assert!(times[0] < times[1] && times[1] < times[2], "{times:?}");
        assert!(!series[0].size_changed());
    }

    #[test]
    fn one_run_is_no_history() {
        let only = run("a.json", "2026-12-01T10:00:00Z", "a", 1.0);
        assert_eq!(history(&[&only], 0.1), None);
    }

    fn at(median_s: f64, half: Option<f64>) -> Option<Point> {
        Some(Point {
            median_s,
            low_s: half.map(|h| median_s - h),
            high_s: half.map(|h| median_s + h),
        })
    }

    #[test]
    fn a_step_past_the_threshold_with_its_interval_clear_is_a_slowdown_where_it_happened() {
        // 3-7% noise, then 35% slower in the third run, then back.
        let points = [
            at(1.0, Some(0.02)),
            at(1.05, Some(0.02)),
            None,
            at(1.4, Some(0.02)),
            at(1.0, Some(0.02)),
        ];
        let steps = slowdowns(&points, 0.1);
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!((steps[0].run, steps[0].from), (3, 1));
        assert!((steps[0].ratio - 1.4 / 1.05).abs() < 1e-12);
        // Past the threshold, but the intervals overlap: not a step anyone can stand on.
        let wide = [at(1.0, Some(0.2)), at(1.15, Some(0.2))];
        assert!(slowdowns(&wide, 0.1).is_empty());
        // Without intervals (CSV), the threshold alone decides.
        assert_eq!(slowdowns(&[at(1.0, None), at(1.2, None)], 0.1).len(), 1);
    }
}
