//! One payload measured in several processes (`run --processes`), pooled into one result:
//! each cell's samples from every process together, as pyperf pools its workers' values.
//!
//! Why several processes: something fixed for the life of a process (most likely where
//! its buffers landed in memory) can slow one cell by 20–50%, which no spread within
//! that process shows
//! (Mytkowicz et al., "Producing wrong data without doing anything obviously wrong!",
//! ASPLOS 2009; Curtsinger & Berger, "Stabilizer", ASPLOS 2013). Pooled, the slow
//! process's samples sit above the others', and a low quantile comes from the rest.

use anyhow::{bail, Result};

use super::run::{CellResult, PayloadResult, RunReport};
use crate::stats::Summary;

impl RunReport {
    /// `runs` of the same payloads and settings, each named for errors and in the order
    /// they ran, as one run: every payload pooled as [`PayloadResult::pooled`] pools a
    /// run's processes, and the first run's environment. Runs of other payloads, other
    /// warm-ups or counted instructions (exact, so nothing to pool) are refused.
    pub(crate) fn pooled(runs: Vec<(String, RunReport)>) -> Result<RunReport> {
        let Some((first_name, first)) = runs.first() else {
            bail!("no runs to pool");
        };
        // What runs of one command line share: the generator, and each body and warm-up.
        let measured = |run: &RunReport| {
            let bodies: Vec<_> = run
                .payloads
                .iter()
                .map(|p| (p.payload.clone(), p.input_bytes, p.sha256.clone(), p.warmup))
                .collect();
            (run.seed, run.rng.clone(), bodies)
        };
        let expected = measured(first);
        for (name, run) in &runs {
            if run.instructions.is_some() {
                bail!("{name} counted instructions (`--measure instructions`): counts are exact, so there is nothing to pool");
            }
            if measured(run) != expected {
                bail!("{name} did not measure the payloads {first_name} did, with the same warm-up: pool runs of one `run` command line");
            }
        }
        let payloads = (0..first.payloads.len())
            .filter_map(|i| {
                PayloadResult::pooled(
                    runs.iter()
                        .map(|(_, run)| run.payloads[i].clone())
                        .collect(),
                )
            })
            .collect();
        Ok(RunReport {
            payloads,
            ..first.clone()
        })
    }
}

impl PayloadResult {
    /// `parts`, one per process (or per run of several) in the order they ran, as one
    /// result; `None` without parts. A cell takes every process's samples; it fails if any
    /// process's copy failed or if the processes' compressed sizes differ (the codecs are
    /// deterministic). Counts and budgets add up; the run is interrupted if any part was.
    pub(crate) fn pooled(parts: Vec<PayloadResult>) -> Option<PayloadResult> {
        let first = parts.first()?;
        let sum = |field: fn(&PayloadResult) -> Option<f64>| -> Option<f64> {
            parts.iter().map(field).sum()
        };
        let iterations = parts.iter().map(|p| p.iterations).sum::<Option<u32>>();
        let min_time_s = sum(|p| p.min_time_s);
        let mut pooled = PayloadResult {
            iterations,
            min_time_s,
            processes: parts.iter().map(|p| p.processes).sum(),
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

impl PayloadResult {
    /// Each cell of `again` (the same body measured again, some of its cells) pooled
    /// with this result's copy, as [`PayloadResult::pooled`] pools processes; the
    /// payload's own figures (its plan and budget) stay this result's.
    pub(crate) fn add_samples(&mut self, again: &PayloadResult) {
        for cell in self.cells.iter_mut() {
            if let Some(more) = again.cells.iter().find(|c| c.id == cell.id) {
                *cell = pooled_cell(&[&*cell, more]);
            }
        }
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
        let cpu: Option<Vec<f64>> = copies
            .iter()
            .filter_map(|c| direction(c).as_ref())
            .map(|s| s.cpu.as_ref().map(|cpu| cpu.samples_s.iter().copied()))
            .try_fold(Vec::new(), |mut all, samples| {
                all.extend(samples?);
                Some(all)
            });
        Some(Summary::from_seconds(all)?.with_cpu(cpu.unwrap_or_default()))
    };
    cell.compress = samples(|c| &c.compress);
    cell.decompress = samples(|c| &c.decompress);
    cell
}

#[cfg(test)]
mod tests {
    use crate::results::run::{CellResult, PayloadResult, RunReport, Status};
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
    fn cpu_times_pool_with_the_samples_only_where_every_process_read_them() {
        let with_cpu = |iterations, samples: &[f64]| {
            let mut part = part(iterations, samples, 100);
            let halves: Vec<f64> = samples.iter().map(|s| s / 2.0).collect();
            part.cells[0].compress = part.cells[0].compress.take().map(|s| s.with_cpu(halves));
            part
        };
        let pooled = PayloadResult::pooled(vec![with_cpu(2, &[1.0, 2.0]), with_cpu(1, &[9.0])]);
        let compress = pooled.unwrap().cells[0].compress.clone().unwrap();
        assert_eq!(compress.cpu.unwrap().samples_s, [0.5, 1.0, 4.5]);
        let mixed = PayloadResult::pooled(vec![with_cpu(2, &[1.0, 2.0]), part(1, &[9.0], 100)]);
        assert_eq!(mixed.unwrap().cells[0].compress.clone().unwrap().cpu, None);
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

    fn report(parts: Vec<PayloadResult>) -> RunReport {
        RunReport {
            schema_version: crate::results::run::SCHEMA_VERSION,
            environment: crate::results::environment::Environment::current(),
            seed: 42,
            rng: "dotnet".into(),
            payloads: parts,
            instructions: None,
        }
    }

    #[test]
    fn runs_pool_payload_by_payload_and_their_processes_add_up() {
        let mut three = part(3, &[1.0, 2.0, 3.0], 100);
        three.processes = 3;
        let runs = vec![
            ("a.json".to_string(), report(vec![part(1, &[5.0], 100)])),
            ("b.json".to_string(), report(vec![three])),
        ];
        let pooled = RunReport::pooled(runs).unwrap();
        let payload = &pooled.payloads[0];
        assert_eq!((payload.processes, payload.iterations), (4, Some(4)));
        let samples = &payload.cells[1].compress.as_ref().unwrap().samples_s;
        assert_eq!(samples, &[5.0, 1.0, 2.0, 3.0]);
    }

    #[test]
    fn runs_of_other_payloads_warm_ups_or_counts_are_refused() {
        let refused = |edit: fn(&mut RunReport)| {
            let mut other = report(vec![part(1, &[1.0], 100)]);
            edit(&mut other);
            let runs = vec![
                ("a.json".to_string(), report(vec![part(1, &[1.0], 100)])),
                ("b.json".to_string(), other),
            ];
            RunReport::pooled(runs).unwrap_err().to_string()
        };
        let other_payloads = "b.json did not measure the payloads a.json did, with the same warm-up: pool runs of one `run` command line";
        assert_eq!(refused(|r| r.seed = 7), other_payloads);
        assert_eq!(refused(|r| r.payloads[0].input_bytes = 999), other_payloads);
        assert_eq!(refused(|r| r.payloads[0].warmup = 5), other_payloads);
        assert_eq!(refused(|r| r.payloads.clear()), other_payloads);
        let counted = refused(|r| {
            r.instructions = Some(crate::results::run::InstructionCounter {
                tool: "callgrind".into(),
                version: "valgrind-3.19.0".into(),
                arch: "x86_64".into(),
                build: "release".into(),
                calls: 1,
            })
        });
        assert!(
            counted.starts_with("b.json counted instructions"),
            "{counted}"
        );
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

    #[test]
    fn samples_measured_again_join_their_cells_only() {
        let mut first = part(1, &[2.0], 100);
        let mut again = part(3, &[1.0, 3.0, 4.0], 100);
        again.cells.truncate(1);
        first.add_samples(&again);
        let samples = |i: usize| first.cells[i].compress.as_ref().unwrap().samples_s.clone();
        assert_eq!(samples(0), [2.0, 1.0, 3.0, 4.0]);
        assert_eq!(samples(1), [2.0]);
        // The payload's plan stays the first measurement's.
        assert_eq!((first.iterations, first.processes), (Some(1), 1));
        again.cells[0].compressed_bytes = 99;
        first.add_samples(&again);
        assert!(first.cells[0].failed(), "a size that moved fails the cell");
    }
}
