//! One payload measured in several processes (`run --processes`), pooled into one result:
//! each cell's samples from every process together, as pyperf pools its workers' values.
//!
//! Why several processes: something fixed for the life of a process (most likely where
//! its buffers landed in memory) can slow one cell by 20–50%, which no spread within
//! that process shows
//! (Mytkowicz et al., "Producing wrong data without doing anything obviously wrong!",
//! ASPLOS 2009; Curtsinger & Berger, "Stabilizer", ASPLOS 2013). Pooled, the slow
//! process's samples sit above the others', and a low quantile comes from the rest.

use super::codec::{CellResult, PayloadResult};
use crate::stats::Summary;

impl PayloadResult {
    /// `parts`, one per process in the order they ran, as one result; `None` without
    /// parts. A cell takes every process's samples; it fails if any process's copy failed
    /// or if the processes' compressed sizes differ (the codecs are deterministic). Counts
    /// and budgets add up; the run is interrupted if any part was.
    pub fn pooled(parts: Vec<PayloadResult>) -> Option<PayloadResult> {
        let first = parts.first()?;
        let sum = |field: fn(&PayloadResult) -> Option<f64>| -> Option<f64> {
            parts.iter().map(field).sum()
        };
        let iterations = parts.iter().map(|p| p.iterations).sum::<Option<u32>>();
        let min_time_s = sum(|p| p.min_time_s);
        let mut pooled = PayloadResult {
            iterations,
            min_time_s,
            processes: parts.len() as u32,
            interrupted: parts.iter().any(|p| p.interrupted),
            cells: Vec::new(),
            ..first.clone()
        };
        for part in &parts {
            for cell in &part.cells {
                if !pooled.cells.iter().any(|c| c.id == cell.id) {
                    let copies: Vec<&CellResult> = parts
                        .iter()
                        .filter_map(|p| p.cells.iter().find(|c| c.id == cell.id))
                        .collect();
                    pooled.cells.push(pooled_cell(&copies));
                }
            }
        }
        Some(pooled)
    }
}

/// One cell's copies from each process, as one.
fn pooled_cell(copies: &[&CellResult]) -> CellResult {
    let mut cell = copies[0].clone();
    if let Some(failed) = copies.iter().find(|c| c.failed()) {
        return (*failed).clone();
    }
    if let Some(other) = copies
        .iter()
        .find(|c| c.compressed_bytes != cell.compressed_bytes)
    {
        cell.fail(format!(
            "compressed sizes differ between processes: {} and {} bytes",
            cell.compressed_bytes, other.compressed_bytes
        ));
        return cell;
    }
    let samples = |direction: fn(&CellResult) -> &Option<Summary>| -> Option<Summary> {
        let all: Vec<f64> = copies
            .iter()
            .filter_map(|c| direction(c).as_ref())
            .flat_map(|s| s.samples_s.iter().copied())
            .collect();
        Summary::from_seconds(all)
    };
    cell.compress = samples(|c| &c.compress);
    cell.decompress = samples(|c| &c.decompress);
    cell
}

#[cfg(test)]
mod tests {
    use crate::results::codec::{CellResult, PayloadResult, Status};
    use crate::stats::Summary;
    use crate::vocab::{CellId, CodecKind};

    /// A payload of three cells (zstd 1, zstd 3, and gzip 1 failed) whose timed cells
    /// have `samples` each way and `bytes` compressed.
    fn part(iterations: u32, samples: &[f64], bytes: u64) -> PayloadResult {
        let cell = |codec: CodecKind, level: i32| CellResult {
            id: CellId::reference(codec, level),
            version: "1.0".into(),
            dotnet_level: None,
            compressed_bytes: bytes,
            encoder_bytes: None,
            compress: Summary::from_seconds(samples.to_vec()),
            decompress: Summary::from_seconds(samples.to_vec()),
            compress_instructions: None,
            decompress_instructions: None,
            precision_met: None,
            status: Status::Ok,
            failure: None,
        };
        let mut failed = cell(CodecKind::Gzip, 1);
        failed.fail("round trip mismatch".into());
        PayloadResult {
            payload: "small".into(),
            input_bytes: 1000,
            sha256: None,
            warmup: 2,
            iterations: Some(iterations),
            min_time_s: None,
            rounds: 5,
            processes: 1,
            precision: None,
            interrupted: false,
            content_type: None,
            cut_from: None,
            cells: vec![cell(CodecKind::Zstd, 1), cell(CodecKind::Zstd, 3), failed],
        }
    }

    #[test]
    fn samples_pool_and_counts_add_up() {
        let pooled = PayloadResult::pooled(vec![
            part(2, &[1.0, 2.0], 100),
            part(1, &[9.0], 100),
            part(1, &[3.0], 100),
        ])
        .unwrap();
        assert_eq!(pooled.processes, 3);
        assert_eq!(pooled.iterations, Some(4));
        let cell = &pooled.cells[0];
        let compress = cell.compress.as_ref().unwrap();
        assert_eq!(compress.samples_s, [1.0, 2.0, 9.0, 3.0]);
        assert_eq!(compress.median_s, 2.5);
        assert_eq!(compress.max_s, 9.0);
        assert_eq!(pooled.cells.len(), 3);
        // The failed cell stays failed, with its reason.
        assert_eq!(
            pooled.cells[2].failure.as_deref(),
            Some("round trip mismatch")
        );
        assert!(PayloadResult::pooled(Vec::new()).is_none());
    }

    #[test]
    fn sizes_that_differ_between_processes_fail_the_cell() {
        let pooled =
            PayloadResult::pooled(vec![part(1, &[1.0], 100), part(1, &[1.0], 101)]).unwrap();
        let cell = &pooled.cells[0];
        assert!(cell.failed());
        assert_eq!(
            cell.failure.as_deref(),
            Some("compressed sizes differ between processes: 100 and 101 bytes")
        );
        assert!(cell.compress.is_none());
    }

    #[test]
    fn an_interrupted_process_marks_the_pooled_run() {
        let mut cut = part(1, &[1.0], 100);
        cut.interrupted = true;
        cut.cells.truncate(1);
        let pooled = PayloadResult::pooled(vec![part(1, &[2.0], 100), cut]).unwrap();
        assert!(pooled.interrupted);
        assert_eq!(
            pooled.cells[0].compress.as_ref().unwrap().samples_s,
            [2.0, 1.0]
        );
        assert_eq!(pooled.cells[1].compress.as_ref().unwrap().samples_s, [2.0]);
    }
}
