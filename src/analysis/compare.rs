//! Comparing two saved runs: exact sizes, and speeds judged against a threshold and the
//! runs' own noise.
//!
//! Sizes are deterministic for a given payload, implementation and level, so any
//! difference is a drift in a library or in the payload generator.
//!
//! Speeds are compared by default as *shapes*: each cell's throughput is divided by the
//! same run's reference cell (zstd 1 on the same payload), so a machine that is uniformly
//! twice as fast shows no change. `--absolute` compares raw MB/s instead, for before/after
//! runs on one machine.
//!
//! A speed change is a regression only when it is larger than the threshold *and* larger
//! than the noise. The noise has two parts, added in quadrature:
//!
//! - **within cells:** each median's standard error from its own samples (see
//!   [`Timing::relative_standard_error`]), for both runs and, with normalisation, for both
//!   reference cells. Runs read from CSV carry no samples and contribute nothing here.
//! - **between cells:** on a shared machine the speed drifts between one cell and the
//!   next, in slow and fast periods that last longer than a cell, which the samples of one
//!   cell cannot show. With at least [`MIN_CELLS_FOR_SPREAD`] other cells on the same
//!   payload and direction, the standard deviation of their log changes is used as a
//!   further standard error. It is the plain standard deviation, not a robust one, because
//!   those periods give heavy tails; the cell being judged is left out of it.
//!
//! The band is `z` of these combined standard errors, where `z` = Φ⁻¹(1 − α/m): a
//! Bonferroni correction over the m speeds compared, for a 5% chance ([`FAMILY_ERROR_RATE`])
//! that noise alone flags anything.
//!
//! With normalisation, the reference cell's own drift moves every other cell alike. So the
//! median log change of the other cells (again with enough of them) is taken as that
//! drift and removed before judging; the comparison reports it. A shift shared by most
//! cells is therefore not a regression in normalised mode: on one machine, `--absolute`
//! catches it.
//!
//! Results of `codecbench http` compare the same way. Each encoding's body size must
//! match exactly, and its p50 latency is judged as a speed (uncompressed bytes delivered
//! per second of p50), normalised to the same run's encoding of the reference (`zstd:1`)
//! under the same payload and load, with its own spread from every response's latency.
//! Encodings measured under a different load (connections, bandwidth) do not match.

use anyhow::{bail, Result};
use serde::Serialize;

use crate::results::{CellKey, HttpCell, HttpKey, LoadedRun, RunCell, Timing};
use crate::stats::median;

/// What speeds are compared as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SpeedBasis {
    /// Relative to the same run's cell with this codec and level, on the same payload.
    Normalized {
        /// Reference codec, e.g. `zstd`.
        codec: String,
        /// Reference level, e.g. 1.
        level: i32,
    },
    /// Raw MB/s.
    Absolute,
}

/// Parses a reference cell written `CODEC:LEVEL`, e.g. `zstd:1`.
pub fn parse_reference(text: &str) -> Result<(String, i32)> {
    let Some((codec, level)) = text.split_once(':') else {
        bail!("--normalize-to '{text}' must look like CODEC:LEVEL, e.g. zstd:1");
    };
    let Ok(level) = level.trim().parse() else {
        bail!("--normalize-to '{text}': '{level}' is not an integer level");
    };
    Ok((codec.trim().to_string(), level))
}

/// Settings of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Smallest relative change that counts, e.g. 0.10 for 10%.
    pub threshold: f64,
    /// Normalised or absolute speeds.
    pub basis: SpeedBasis,
    /// Report size drifts without failing.
    pub allow_size_drift: bool,
}

/// The verdict on one speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The change is within the threshold.
    Unchanged,
    /// Beyond the threshold, but not beyond the noise.
    WithinNoise,
    /// Faster beyond both the threshold and the noise.
    Improved,
    /// Slower beyond both the threshold and the noise.
    Regressed,
}

impl Verdict {
    /// A short word for tables.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Unchanged => "",
            Verdict::WithinNoise => "noise",
            Verdict::Improved => "improved",
            Verdict::Regressed => "REGRESSED",
        }
    }
}

/// Fewest other cells on a payload and direction from which a between-cell spread and
/// the reference's drift are estimated.
pub const MIN_CELLS_FOR_SPREAD: usize = 4;

/// One direction's speed in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedChange {
    /// Baseline speed: MB/s, or the ratio to the reference cell.
    pub baseline: f64,
    /// Candidate speed, in the same unit.
    pub candidate: f64,
    /// `candidate / baseline − 1`: −0.2 means 20% slower.
    pub change: f64,
    /// The change after removing the reference cell's drift (normalised mode); this is
    /// what the verdict judges.
    pub judged_change: f64,
    /// Standard error of the log ratio from the cells' own samples; `None` without.
    pub se_within: Option<f64>,
    /// The band a change must leave to count: `z` × the combined standard error of
    /// within-cell and between-cell noise; `None` when neither is known.
    pub noise: Option<f64>,
    /// What it amounts to.
    pub verdict: Verdict,
}

/// The common movement of one payload and direction, removed before judging.
#[derive(Clone, Debug, Serialize)]
pub struct Drift {
    /// Payload name.
    pub payload: String,
    /// `compress`, `decompress` or `http latency`.
    pub direction: &'static str,
    /// Median relative change of the other cells (0 in absolute mode, where it is kept).
    pub shift: f64,
    /// Standard deviation of the other cells' log changes.
    pub spread: f64,
    /// How many cells it was estimated from.
    pub cells: usize,
}

/// One cell present in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct CellComparison {
    /// Which cell.
    pub key: CellKey,
    /// Baseline library and version.
    pub baseline_implementation: String,
    /// Candidate library and version; differs from the baseline's after an upgrade.
    pub candidate_implementation: String,
    /// Baseline compressed size.
    pub baseline_bytes: u64,
    /// Candidate compressed size.
    pub candidate_bytes: u64,
    /// Compression speed; `None` if either run lacks it.
    pub compress: Option<SpeedChange>,
    /// Decompression speed; `None` if either run lacks it.
    pub decompress: Option<SpeedChange>,
}

impl CellComparison {
    /// Whether the compressed size changed.
    pub fn size_drift(&self) -> bool {
        self.baseline_bytes != self.candidate_bytes
    }

    /// Whether either direction regressed.
    pub fn regressed(&self) -> bool {
        [&self.compress, &self.decompress]
            .into_iter()
            .flatten()
            .any(|s| s.verdict == Verdict::Regressed)
    }
}

/// One `http` encoding present in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct HttpComparison {
    /// Which encoding, payload and load.
    pub key: HttpKey,
    /// Baseline body size.
    pub baseline_body_bytes: u64,
    /// Candidate body size.
    pub candidate_body_bytes: u64,
    /// Baseline p50 latency in ms.
    pub baseline_p50_ms: f64,
    /// Candidate p50 latency in ms.
    pub candidate_p50_ms: f64,
    /// The change in delivered speed (uncompressed bytes ÷ p50 latency), judged like a
    /// codec speed: −0.2 means 20% slower, i.e. a p50 latency 1.25 times as long.
    pub latency: SpeedChange,
}

impl HttpComparison {
    /// Whether the encoded body's size changed.
    pub fn size_drift(&self) -> bool {
        self.baseline_body_bytes != self.candidate_body_bytes
    }

    /// Whether the latency regressed.
    pub fn regressed(&self) -> bool {
        self.latency.verdict == Verdict::Regressed
    }
}

/// The outcome of comparing two runs.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Baseline label.
    pub baseline: String,
    /// Candidate label.
    pub candidate: String,
    /// How speeds were compared.
    pub basis: SpeedBasis,
    /// The threshold, as a fraction.
    pub threshold: f64,
    /// Whether size drift is tolerated.
    pub allow_size_drift: bool,
    /// Cells in both runs, in baseline order.
    pub cells: Vec<CellComparison>,
    /// Cells only in the baseline.
    pub missing: Vec<CellKey>,
    /// Cells only in the candidate.
    pub extra: Vec<CellKey>,
    /// `http` encodings in both runs, in baseline order.
    pub http: Vec<HttpComparison>,
    /// `http` encodings only in the baseline.
    pub http_missing: Vec<HttpKey>,
    /// `http` encodings only in the candidate.
    pub http_extra: Vec<HttpKey>,
    /// Per payload and direction, the common drift and between-cell spread, where there
    /// were enough cells to estimate them.
    pub drifts: Vec<Drift>,
    /// How many standard errors a change must exceed: Φ⁻¹(1 − α/m) for α =
    /// [`FAMILY_ERROR_RATE`] over the m speeds compared.
    pub z: f64,
}

impl Comparison {
    /// Cells whose size changed.
    pub fn size_drifts(&self) -> impl Iterator<Item = &CellComparison> {
        self.cells.iter().filter(|c| c.size_drift())
    }

    /// Each library whose version differs between the runs, as `(baseline, candidate)`,
    /// once each.
    pub fn library_changes(&self) -> Vec<(&str, &str)> {
        let mut changes: Vec<(&str, &str)> = Vec::new();
        for cell in &self.cells {
            let change = (
                cell.baseline_implementation.as_str(),
                cell.candidate_implementation.as_str(),
            );
            if change.0 != change.1 && !changes.contains(&change) {
                changes.push(change);
            }
        }
        changes
    }

    /// Cells that regressed.
    pub fn regressions(&self) -> impl Iterator<Item = &CellComparison> {
        self.cells.iter().filter(|c| c.regressed())
    }

    /// `http` encodings whose body size changed.
    pub fn http_size_drifts(&self) -> impl Iterator<Item = &HttpComparison> {
        self.http.iter().filter(|c| c.size_drift())
    }

    /// `http` encodings whose latency regressed.
    pub fn http_regressions(&self) -> impl Iterator<Item = &HttpComparison> {
        self.http.iter().filter(|c| c.regressed())
    }

    /// True when the comparison should fail the job: a regression, or a size drift that
    /// is not allowed.
    pub fn failed(&self) -> bool {
        let drifted =
            self.size_drifts().next().is_some() || self.http_size_drifts().next().is_some();
        self.regressions().next().is_some()
            || self.http_regressions().next().is_some()
            || (!self.allow_size_drift && drifted)
    }
}

/// Compares `candidate` against `baseline`.
pub fn compare(
    baseline: &LoadedRun,
    candidate: &LoadedRun,
    options: &CompareOptions,
) -> Result<Comparison> {
    let shares_cells = !baseline.cells.is_empty() && !candidate.cells.is_empty();
    let shares_http = !baseline.http.is_empty() && !candidate.http.is_empty();
    if !shares_cells && !shares_http {
        let kind = |run: &LoadedRun| {
            if run.cells.is_empty() {
                "`http` results"
            } else {
                "`run` results"
            }
        };
        bail!(
            "{} holds {} and {} holds {}: compare runs of the same kind",
            baseline.label,
            kind(baseline),
            candidate.label,
            kind(candidate)
        );
    }
    let mut cells = Vec::new();
    let mut missing = Vec::new();
    for base in &baseline.cells {
        let Some(cand) = candidate.cell(&base.key) else {
            missing.push(base.key.clone());
            continue;
        };
        let direction = |pick: fn(&RunCell) -> Option<&Timing>| -> Result<Option<SpeedChange>> {
            let (Some(b), Some(c)) = (
                speed(baseline, base, pick, options)?,
                speed(candidate, cand, pick, options)?,
            ) else {
                return Ok(None);
            };
            Ok(Some(measure_change(b, c)))
        };
        cells.push(CellComparison {
            key: base.key.clone(),
            baseline_implementation: base.implementation.clone(),
            candidate_implementation: cand.implementation.clone(),
            baseline_bytes: base.compressed_bytes,
            candidate_bytes: cand.compressed_bytes,
            compress: direction(|c| c.compress.as_ref())?,
            decompress: direction(|c| c.decompress.as_ref())?,
        });
    }
    let extra = candidate
        .cells
        .iter()
        .filter(|c| baseline.cell(&c.key).is_none())
        .map(|c| c.key.clone())
        .collect();
    let mut http = Vec::new();
    let mut http_missing = Vec::new();
    for base in &baseline.http {
        let Some(cand) = candidate.http_cell(&base.key) else {
            http_missing.push(base.key.clone());
            continue;
        };
        http.push(HttpComparison {
            key: base.key.clone(),
            baseline_body_bytes: base.body_bytes,
            candidate_body_bytes: cand.body_bytes,
            baseline_p50_ms: base.latency.median_s * 1e3,
            candidate_p50_ms: cand.latency.median_s * 1e3,
            latency: measure_change(
                http_speed(baseline, base, options)?,
                http_speed(candidate, cand, options)?,
            ),
        });
    }
    let http_extra = candidate
        .http
        .iter()
        .filter(|c| baseline.http_cell(&c.key).is_none())
        .map(|c| c.key.clone())
        .collect();
    let (drifts, z) = judge_all(&mut cells, &mut http, options);
    Ok(Comparison {
        baseline: baseline.label.clone(),
        candidate: candidate.label.clone(),
        basis: options.basis.clone(),
        threshold: options.threshold,
        allow_size_drift: options.allow_size_drift,
        cells,
        missing,
        extra,
        http,
        http_missing,
        http_extra,
        drifts,
        z,
    })
}

/// One speed to judge: its group (payload and direction), and whether it is the
/// normalisation reference.
struct Test<'a> {
    payload: &'a str,
    direction: &'static str,
    is_reference: bool,
    change: &'a mut SpeedChange,
}

/// Estimates the drift and spread of each payload and direction (compress, decompress,
/// and `http` latency), then gives every speed change its verdict. Returns the drifts and
/// the band's z.
fn judge_all(
    cells: &mut [CellComparison],
    http: &mut [HttpComparison],
    options: &CompareOptions,
) -> (Vec<Drift>, f64) {
    let reference = match &options.basis {
        SpeedBasis::Normalized { codec, level } => Some((codec.as_str(), *level)),
        SpeedBasis::Absolute => None,
    };
    let mut tests: Vec<Test> = Vec::new();
    for cell in cells.iter_mut() {
        let is_reference = reference
            .is_some_and(|(codec, level)| cell.key.codec == codec && cell.key.level == level);
        for (direction, change) in [
            ("compress", cell.compress.as_mut()),
            ("decompress", cell.decompress.as_mut()),
        ] {
            if let Some(change) = change {
                tests.push(Test {
                    payload: &cell.key.payload,
                    direction,
                    is_reference,
                    change,
                });
            }
        }
    }
    for encoding in http.iter_mut() {
        tests.push(Test {
            is_reference: reference
                .is_some_and(|(codec, level)| encoding.key.is_reference(codec, level)),
            payload: &encoding.key.payload,
            direction: "http latency",
            change: &mut encoding.latency,
        });
    }
    // Bonferroni: every speed is a test, so each gets α / m for a 5% chance of any false
    // alarm across the whole comparison.
    let z = normal_quantile(1.0 - FAMILY_ERROR_RATE / tests.len().max(1) as f64);
    let mut groups: Vec<(&str, &'static str)> = Vec::new();
    for test in &tests {
        if !groups.contains(&(test.payload, test.direction)) {
            groups.push((test.payload, test.direction));
        }
    }
    let mut drifts = Vec::new();
    for (payload, direction) in groups {
        let in_group = |t: &Test| t.payload == payload && t.direction == direction;
        let mut log_changes: Vec<f64> = tests
            .iter()
            .filter(|t| in_group(t) && !t.is_reference)
            .map(|t| t.change.change.ln_1p())
            .collect();
        let n = log_changes.len();
        let sum: f64 = log_changes.iter().sum();
        let sum_sq: f64 = log_changes.iter().map(|x| x * x).sum();
        let center = if n >= MIN_CELLS_FOR_SPREAD {
            let median = median(&mut log_changes);
            drifts.push(Drift {
                payload: payload.to_string(),
                direction,
                shift: median.exp_m1(),
                spread: sample_sd(n, sum, sum_sq),
                cells: n,
            });
            if reference.is_some() {
                median
            } else {
                0.0
            }
        } else {
            0.0
        };
        for test in tests.iter_mut().filter(|t| in_group(t)) {
            if test.is_reference {
                judge(test.change, 0.0, 0.0, z, options.threshold);
                continue;
            }
            // Leave this cell out of its own spread, so that a real regression does not
            // widen the band that judges it.
            let x = test.change.change.ln_1p();
            let spread = if n > MIN_CELLS_FOR_SPREAD {
                sample_sd(n - 1, sum - x, sum_sq - x * x)
            } else {
                0.0
            };
            judge(test.change, center, spread, z, options.threshold);
        }
    }
    (drifts, z)
}

/// Sample standard deviation (n − 1) from a count, a sum and a sum of squares.
fn sample_sd(n: usize, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    ((sum_sq - sum * sum / n) / (n - 1.0)).max(0.0).sqrt()
}

/// The chance, across a whole comparison, that noise alone flags any cell.
pub const FAMILY_ERROR_RATE: f64 = 0.05;

/// The standard normal quantile function Φ⁻¹(p), for 0 < p < 1, by Acklam's rational
/// approximation (relative error below 1.15 × 10⁻⁹): P. J. Acklam, "An algorithm for
/// computing the inverse normal cumulative distribution function" (2003).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let p = p.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// A speed on the comparison's basis with its relative standard error, if known.
struct Speed {
    value: f64,
    relative_se: Option<f64>,
}

fn speed(
    run: &LoadedRun,
    cell: &RunCell,
    pick: fn(&RunCell) -> Option<&Timing>,
    options: &CompareOptions,
) -> Result<Option<Speed>> {
    let Some(timing) = pick(cell) else {
        return Ok(None);
    };
    let against = match &options.basis {
        SpeedBasis::Absolute => Against::Nothing,
        SpeedBasis::Normalized { codec, level } => {
            let Some(reference) = run.find(&cell.key.payload, codec, *level) else {
                bail!(
                    "{} has no {codec}:{level} cell for payload {} to normalise to; measure it, or use --normalize-to or --absolute",
                    run.label,
                    cell.key.payload
                );
            };
            if reference.key == cell.key {
                Against::Itself
            } else {
                let Some(reference_timing) = pick(reference) else {
                    return Ok(None);
                };
                Against::Reference(reference_timing)
            }
        }
    };
    Ok(Some(speed_against(timing, cell.input_bytes, against)))
}

/// An `http` encoding's delivered speed (uncompressed bytes per second of p50) on the
/// comparison's basis: MB/s, or the ratio to the same run's reference encoding on the
/// same payload and load.
fn http_speed(run: &LoadedRun, cell: &HttpCell, options: &CompareOptions) -> Result<Speed> {
    let against = match &options.basis {
        SpeedBasis::Absolute => Against::Nothing,
        SpeedBasis::Normalized { codec, level } => {
            let Some(reference) = run.http_reference(&cell.key, codec, *level) else {
                bail!(
                    "{} has no {codec}:{level} encoding for payload {} ({}) to normalise to; measure it, or use --normalize-to or --absolute",
                    run.label,
                    cell.key.payload,
                    cell.key.load
                );
            };
            if reference.key == cell.key {
                Against::Itself
            } else {
                Against::Reference(&reference.latency)
            }
        }
    };
    Ok(speed_against(&cell.latency, cell.input_bytes, against))
}

/// What a speed is divided by.
enum Against<'a> {
    /// Nothing: raw MB/s.
    Nothing,
    /// The cell is the reference itself.
    Itself,
    /// The same run's reference cell, with these timings.
    Reference(&'a Timing),
}

/// The speed of `timing` on a body of `input_bytes`, against `against`, with its
/// relative standard error where the samples give one.
fn speed_against(timing: &Timing, input_bytes: u64, against: Against) -> Speed {
    match against {
        Against::Nothing => Speed {
            value: timing.mb_s(input_bytes),
            relative_se: timing.relative_standard_error(),
        },
        // The reference against itself is 1 by definition, with no error.
        Against::Itself => Speed {
            value: 1.0,
            relative_se: Some(0.0),
        },
        Against::Reference(reference) => Speed {
            value: timing.relative_to(reference),
            relative_se: match (
                timing.relative_standard_error(),
                reference.relative_standard_error(),
            ) {
                (Some(a), Some(b)) => Some(a.hypot(b)),
                _ => None,
            },
        },
    }
}

/// The raw change between two speeds, before any verdict.
fn measure_change(baseline: Speed, candidate: Speed) -> SpeedChange {
    let change = candidate.value / baseline.value - 1.0;
    let se_within = match (baseline.relative_se, candidate.relative_se) {
        (Some(a), Some(b)) => Some(a.hypot(b)),
        _ => None,
    };
    SpeedChange {
        baseline: baseline.value,
        candidate: candidate.value,
        change,
        judged_change: change,
        se_within,
        noise: None,
        verdict: Verdict::Unchanged,
    }
}

/// Removes `center` (a log drift) from the change, sets the band to `z` standard errors
/// (within-cell and between-cell `spread` combined), and gives the verdict.
fn judge(change: &mut SpeedChange, center: f64, spread: f64, z: f64, threshold: f64) {
    let judged_log = change.change.ln_1p() - center;
    change.judged_change = judged_log.exp_m1();
    change.noise = match change.se_within {
        Some(within) => Some(z * within.hypot(spread)),
        None if spread > 0.0 => Some(z * spread),
        None => None,
    };
    change.verdict = if change.judged_change.abs() <= threshold {
        Verdict::Unchanged
    } else if change.noise.is_some_and(|noise| judged_log.abs() <= noise) {
        Verdict::WithinNoise
    } else if judged_log < 0.0 {
        Verdict::Regressed
    } else {
        Verdict::Improved
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(codec: &str, level: i32, bytes: u64, samples: &[f64]) -> RunCell {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let timing = Timing::of(sorted[sorted.len() / 2], samples.to_vec());
        let key = CellKey::new("small", codec, codec, level);
        RunCell::for_test(key, 1_000_000, bytes, timing.clone(), timing)
    }

    fn run(label: &str, cells: Vec<RunCell>) -> LoadedRun {
        LoadedRun {
            label: label.into(),
            machine: None,
            cells,
            http: Vec::new(),
        }
    }

    fn options(basis: SpeedBasis) -> CompareOptions {
        CompareOptions {
            threshold: 0.10,
            basis,
            allow_size_drift: false,
        }
    }

    fn zstd1() -> SpeedBasis {
        let (codec, level) = parse_reference("zstd:1").unwrap();
        SpeedBasis::Normalized { codec, level }
    }

    /// Samples around `median` with about ±1% spread.
    fn tight(median: f64) -> Vec<f64> {
        (0..21)
            .map(|i| median * (1.0 + (i as f64 - 10.0) * 0.001))
            .collect()
    }

    /// zstd 1 and gzip 1 with these median times.
    fn pair(label: &str, zstd_s: f64, gzip_s: f64) -> LoadedRun {
        run(
            label,
            vec![
                cell("zstd", 1, 10, &tight(zstd_s)),
                cell("gzip", 1, 20, &tight(gzip_s)),
            ],
        )
    }

    #[test]
    fn a_uniformly_faster_machine_shows_no_change_when_normalised() {
        let base = pair("a", 1.0, 2.0);
        let cand = pair("b", 0.5, 1.0);
        let result = compare(&base, &cand, &options(zstd1())).unwrap();
        assert!(!result.failed());
        let gzip = &result.cells[1];
        assert!(gzip.compress.as_ref().unwrap().change.abs() < 1e-9);
        // The same runs compared as absolute speeds: everything doubled.
        let absolute = compare(&base, &cand, &options(SpeedBasis::Absolute)).unwrap();
        assert_eq!(
            absolute.cells[1].compress.as_ref().unwrap().verdict,
            Verdict::Improved
        );
    }

    #[test]
    fn a_slower_cell_beyond_threshold_and_noise_regresses() {
        let base = pair("a", 1.0, 2.0);
        let cand = pair("b", 1.0, 2.5);
        let result = compare(&base, &cand, &options(zstd1())).unwrap();
        assert!(result.failed());
        let gzip = result.cells[1].compress.clone().unwrap();
        assert_eq!(gzip.verdict, Verdict::Regressed);
        assert!(
            (gzip.change + 0.2).abs() < 1e-9,
            "25% more time is 20% less speed"
        );
    }

    #[test]
    fn a_change_inside_the_noise_is_not_a_regression() {
        // ±30% spread: a 20% slowdown is beyond the threshold but inside the noise.
        let noisy =
            |median: f64| -> Vec<f64> { (0..7).map(|i| median * (0.7 + 0.1 * i as f64)).collect() };
        let base = run(
            "a",
            vec![
                cell("zstd", 1, 10, &noisy(1.0)),
                cell("gzip", 1, 20, &noisy(2.0)),
            ],
        );
        let cand = run(
            "b",
            vec![
                cell("zstd", 1, 10, &noisy(1.0)),
                cell("gzip", 1, 20, &noisy(2.5)),
            ],
        );
        let result = compare(&base, &cand, &options(zstd1())).unwrap();
        assert_eq!(
            result.cells[1].compress.as_ref().unwrap().verdict,
            Verdict::WithinNoise
        );
        assert!(!result.failed());
    }

    /// A run of `n` gzip levels plus zstd 1, every cell's time multiplied by `scale`, and
    /// zstd 1's by `reference_scale` on top.
    fn many(label: &str, scale: f64, reference_scale: f64) -> LoadedRun {
        let mut cells = vec![cell("zstd", 1, 10, &tight(1.0 * scale * reference_scale))];
        cells.extend((1..=8).map(|level| cell("gzip", level, 20, &tight(2.0 * scale))));
        run(label, cells)
    }

    #[test]
    fn the_reference_cells_own_drift_is_removed_when_normalised() {
        // zstd 1 ran 35% slower in the candidate: every other cell looks 35% faster.
        let result = compare(
            &many("a", 1.0, 1.0),
            &many("b", 1.0, 1.35),
            &options(zstd1()),
        )
        .unwrap();
        assert!(!result.failed());
        let gzip = result.cells[1].compress.as_ref().unwrap();
        assert!((gzip.change - 0.35).abs() < 1e-9);
        assert!(gzip.judged_change.abs() < 1e-9);
        assert_eq!(gzip.verdict, Verdict::Unchanged);
        assert!((result.drifts[0].shift - 0.35).abs() < 1e-9);
    }

    #[test]
    fn a_uniform_slowdown_is_caught_in_absolute_mode() {
        let result = compare(
            &many("a", 1.0, 1.0),
            &many("b", 1.3, 1.0),
            &options(SpeedBasis::Absolute),
        )
        .unwrap();
        assert!(result.failed());
        assert_eq!(result.regressions().count(), 9);
    }

    #[test]
    fn one_regressed_cell_among_steady_ones_is_caught() {
        let base = many("a", 1.0, 1.0);
        let mut cand = many("b", 1.0, 1.0);
        let slow = &mut cand.cells[3];
        for t in [&mut slow.compress, &mut slow.decompress]
            .into_iter()
            .flatten()
        {
            t.median_s *= 1.3;
            t.samples_s.iter_mut().for_each(|s| *s *= 1.3);
        }
        let result = compare(&base, &cand, &options(zstd1())).unwrap();
        let regressed: Vec<i32> = result.regressions().map(|c| c.key.level).collect();
        assert_eq!(
            regressed,
            [3],
            "only gzip 3, and its own slowdown does not widen its band"
        );
    }

    #[test]
    fn scattered_changes_widen_the_band() {
        // Eight gzip cells moving between −30% and +30% time: a 25% slowdown in one of
        // them is inside that spread.
        let base = many("a", 1.0, 1.0);
        let mut cand = many("b", 1.0, 1.0);
        for (i, cell) in cand.cells.iter_mut().skip(1).enumerate() {
            let factor = [0.7, 1.3, 0.75, 1.25, 0.8, 1.2, 0.9, 1.25][i];
            for t in [&mut cell.compress, &mut cell.decompress]
                .into_iter()
                .flatten()
            {
                t.median_s *= factor;
                t.samples_s.iter_mut().for_each(|s| *s *= factor);
            }
        }
        let result = compare(&base, &cand, &options(zstd1())).unwrap();
        assert!(
            !result.failed(),
            "{:?}",
            result.regressions().map(|c| &c.key).collect::<Vec<_>>()
        );
        assert!(result.drifts[0].spread > 0.2);
    }

    #[test]
    fn normal_quantiles() {
        assert!((normal_quantile(0.5)).abs() < 1e-9);
        assert!((normal_quantile(0.975) - 1.959_963_985).abs() < 1e-6);
        assert!((normal_quantile(0.95) - 1.644_853_627).abs() < 1e-6);
        assert!((normal_quantile(1.0 - 0.05 / 60.0) - 3.143_980).abs() < 1e-4);
        assert!((normal_quantile(0.001) + 3.090_232_306).abs() < 1e-6);
    }

    #[test]
    fn size_drift_fails_unless_allowed_and_missing_cells_are_listed() {
        let base = run(
            "a",
            vec![
                cell("zstd", 1, 10, &tight(1.0)),
                cell("zstd", 3, 30, &tight(1.0)),
            ],
        );
        let cand = run(
            "b",
            vec![
                cell("zstd", 1, 11, &tight(1.0)),
                cell("zstd", 19, 5, &tight(1.0)),
            ],
        );
        let mut opts = options(zstd1());
        let result = compare(&base, &cand, &opts).unwrap();
        assert!(result.failed());
        assert_eq!(result.size_drifts().count(), 1);
        assert_eq!(result.missing[0].level, 3);
        assert_eq!(result.extra[0].level, 19);
        opts.allow_size_drift = true;
        assert!(!compare(&base, &cand, &opts).unwrap().failed());
    }

    #[test]
    fn a_missing_reference_cell_is_an_error() {
        let base = run("a", vec![cell("gzip", 1, 20, &tight(2.0))]);
        let err = compare(&base, &base, &options(zstd1()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("zstd:1"), "{err}");
        assert!(parse_reference("zstd").is_err());
        assert!(parse_reference("zstd:x").is_err());
    }

    /// An `http` run on the small payload: each encoding with its body size and p50
    /// latency in seconds, with 21 samples about ±1% around it.
    fn http_run(label: &str, encodings: &[(&str, u64, f64)]) -> LoadedRun {
        LoadedRun {
            label: label.into(),
            machine: None,
            cells: Vec::new(),
            http: encodings
                .iter()
                .map(|&(encoding, body_bytes, p50_s)| HttpCell {
                    key: HttpKey {
                        payload: "small".into(),
                        encoding: encoding.into(),
                        load: "1 connection, 10 Mbit/s".into(),
                    },
                    input_bytes: 298_727,
                    body_bytes,
                    wire_bytes: body_bytes as f64 + 300.0,
                    requests_per_s: 1.0 / p50_s,
                    latency: Timing::of(p50_s, tight(p50_s)),
                })
                .collect(),
        }
    }

    const HTTP_BASE: [(&str, u64, f64); 6] = [
        ("zstd:1", 41_132, 0.033),
        ("zstd:3", 43_644, 0.035),
        ("br:1", 44_606, 0.036),
        ("br:4", 40_000, 0.034),
        ("gzip:1", 69_839, 0.056),
        ("identity", 298_727, 0.239),
    ];

    #[test]
    fn http_latency_is_judged_like_a_speed() {
        let base = http_run("a", &HTTP_BASE);
        // A uniformly slower machine: no change once normalised to zstd:1.
        let slower: Vec<_> = HTTP_BASE.iter().map(|&(e, b, t)| (e, b, t * 1.5)).collect();
        let result = compare(&base, &http_run("b", &slower), &options(zstd1())).unwrap();
        assert_eq!(result.http.len(), 6);
        assert!(!result.failed(), "{result:#?}");
        // ... but a regression in absolute mode.
        let absolute = compare(
            &base,
            &http_run("b", &slower),
            &options(SpeedBasis::Absolute),
        )
        .unwrap();
        assert!(absolute.failed());
        assert!((absolute.http[0].latency.change - (1.0 / 1.5 - 1.0)).abs() < 1e-9);
        // One encoding twice as slow among steady ones regresses when normalised.
        let mut one_slow = HTTP_BASE.to_vec();
        one_slow[4].2 *= 2.0;
        let result = compare(&base, &http_run("b", &one_slow), &options(zstd1())).unwrap();
        let regressed: Vec<_> = result
            .http_regressions()
            .map(|c| c.key.encoding.as_str())
            .collect();
        assert_eq!(regressed, ["gzip:1"]);
        assert!(result.drifts.iter().any(|d| d.direction == "http latency"));
    }

    #[test]
    fn http_body_drift_missing_encodings_and_the_brotli_reference() {
        let base = http_run("a", &HTTP_BASE);
        let mut drifted = HTTP_BASE[..5].to_vec();
        drifted[2].1 += 7;
        let result = compare(&base, &http_run("b", &drifted), &options(zstd1())).unwrap();
        assert!(result.failed());
        assert_eq!(result.http_size_drifts().count(), 1);
        assert_eq!(result.http_missing[0].encoding, "identity");
        // `brotli:1` and `br:1` name the same reference encoding.
        let (codec, level) = parse_reference("brotli:1").unwrap();
        let basis = SpeedBasis::Normalized { codec, level };
        let result = compare(&base, &base, &options(basis)).unwrap();
        assert_eq!(result.http[2].latency.candidate, 1.0);
        // No such encoding to normalise to.
        let err = compare(&base, &base, &options(parse_basis("gzip:9")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("gzip:9"), "{err}");
    }

    fn parse_basis(text: &str) -> SpeedBasis {
        let (codec, level) = parse_reference(text).unwrap();
        SpeedBasis::Normalized { codec, level }
    }
}
