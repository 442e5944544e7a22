//! What a run measured: one cell per payload × codec × level.

use serde::{Deserialize, Serialize};

use crate::results::environment::Environment;
use crate::stats::Summary;
use crate::vocab::CellId;

/// Version of the JSON result document. Bump it when a field changes meaning or goes away;
/// readers refuse versions they do not know.
/// Version 2 gave cells a typed identity (`library`, `variant`, `version` instead of one
/// `implementation` string) and a `status`; version 1 files are upgraded on reading.
pub(crate) const SCHEMA_VERSION: u32 = 2;

/// Everything measured for one payload.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct PayloadResult {
    /// `single`, `small`, `large`, or the file path.
    pub payload: String,
    /// Uncompressed size in bytes.
    pub input_bytes: u64,
    /// SHA-256 of the uncompressed body, lower-case hex; `None` when read from CSV.
    pub sha256: Option<String>,
    /// Untimed warm-up iterations per direction.
    pub warmup: u32,
    /// Timed iterations per direction; `None` when a time budget sized them per cell
    /// (each cell's samples then tell its count).
    pub iterations: Option<u32>,
    /// The time budget per direction, in seconds, when one sized the iterations.
    #[serde(default)]
    pub min_time_s: Option<f64>,
    /// Rounds the timed iterations were spread over; 1 in files written before rounds.
    #[serde(default = "one_round")]
    pub rounds: u32,
    /// Processes the timed iterations were spread over (`run --processes`), their
    /// samples pooled; 1, and not written, for a run measured in one.
    #[serde(default = "one_round", skip_serializing_if = "is_one")]
    pub processes: u32,
    /// With `--precision`: the largest relative half-width asked of each median's 95%
    /// interval, as a fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// True when a stop request cut the payload short: some cells may be missing, and
    /// some may have fewer samples than planned (their counts say how many).
    #[serde(default)]
    pub interrupted: bool,
    /// The content type a body from a HAR capture was served as, e.g.
    /// `application/json`; `None` for generated payloads and files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The payload this body was cut from (its leading records, or a prefix), when
    /// `recommend` measured it only to place the minimum body size: such a body is not
    /// part of the traffic and weighs in no choice. `None` for every other body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_from: Option<String>,
    /// One entry per codec × level, in the order they ran.
    pub cells: Vec<CellResult>,
}

fn one_round() -> u32 {
    1
}

/// Whether a count is 1, for leaving a default count out of a document.
pub(crate) fn is_one(count: &u32) -> bool {
    *count == 1
}

/// One codec at one level on one payload.
// NOTE: the CSV columns in export/csv.rs and docs/schema.md follow these fields.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct CellResult {
    /// What the cell measures: codec, library, variant and level.
    #[serde(flatten)]
    pub id: CellId,
    /// The library's version, e.g. `1.5.7`.
    pub version: String,
    /// The .NET `CompressionLevel` that maps to this level; `None` where none does.
    pub dotnet_level: Option<String>,
    /// Compressed size in bytes, including the container (gzip header, zstd frame).
    pub compressed_bytes: u64,
    /// What one response's encoder held, in bytes: libzstd's context size, or the most
    /// heap the brotli and zlib-rs encoders held at once; `None` where not measured.
    #[serde(default)]
    pub encoder_bytes: Option<u64>,
    /// Compression timings; `None` if the cell failed before timing.
    pub compress: Option<Summary>,
    /// Decompression timings; `None` if the cell failed before timing.
    pub decompress: Option<Summary>,
    /// With `--measure instructions`: instructions one compression executes, counted
    /// under the run's [`InstructionCounter`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compress_instructions: Option<u64>,
    /// With `--measure instructions`: instructions one decompression executes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decompress_instructions: Option<u64>,
    /// With `--precision`: whether both directions' intervals got within it before the
    /// cell's budget ran out; `None` without.
    #[serde(default)]
    pub precision_met: Option<bool>,
    /// Whether every round trip gave back the input byte for byte.
    pub status: Status,
    /// Why the cell failed; `None` when it did not.
    pub failure: Option<String>,
}

/// Whether a cell's measurement stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    /// Every round trip matched; the timings stand.
    Ok,
    /// A round trip failed or a codec call returned an error; see `failure`.
    Failed,
}

impl Status {
    /// `ok` or `failed`, as files write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "failed",
        }
    }
}

impl CellResult {
    /// A cell of `id` with nothing measured yet: no bytes, no timings, status ok.
    pub(crate) fn unmeasured(id: CellId, version: String, dotnet_level: Option<String>) -> Self {
        CellResult {
            id,
            version,
            dotnet_level,
            compressed_bytes: 0,
            encoder_bytes: None,
            compress: None,
            decompress: None,
            compress_instructions: None,
            decompress_instructions: None,
            precision_met: None,
            status: Status::Ok,
            failure: None,
        }
    }

    /// Marks the cell failed, for `why`, dropping any timings: a failed cell's figures
    /// never reach a report as valid.
    pub(crate) fn fail(&mut self, why: String) {
        self.status = Status::Failed;
        self.failure = Some(why);
        self.compress = None;
        self.decompress = None;
    }

    /// Whether a round trip failed.
    pub(crate) fn failed(&self) -> bool {
        self.status == Status::Failed
    }

    /// Uncompressed ÷ compressed size; `None` for an empty output (no cell produces one).
    pub(crate) fn ratio(&self, input_bytes: u64) -> Option<f64> {
        (self.compressed_bytes > 0).then(|| input_bytes as f64 / self.compressed_bytes as f64)
    }

    /// Median compression throughput in MB/s (MB = 10^6 uncompressed bytes).
    pub(crate) fn compress_mb_s(&self, input_bytes: u64) -> Option<f64> {
        self.compress.as_ref().map(|s| s.median_mb_s(input_bytes))
    }

    /// Median decompression throughput in MB/s, counted in uncompressed bytes.
    pub(crate) fn decompress_mb_s(&self, input_bytes: u64) -> Option<f64> {
        self.decompress.as_ref().map(|s| s.median_mb_s(input_bytes))
    }
}

/// A whole `run`: the environment it ran in and every payload's cells.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RunReport {
    /// [`SCHEMA_VERSION`] when written by this codecbench.
    pub schema_version: u32,
    /// Where and with what it ran.
    pub environment: Environment,
    /// The record generator's seed.
    pub seed: i32,
    /// The record generator's stream: `dotnet` or `chacha`.
    pub rng: String,
    /// One entry per payload, in the order they ran.
    pub payloads: Vec<PayloadResult>,
    /// With `--measure instructions`: how the cells' instructions were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<InstructionCounter>,
}

/// How a run counted instructions: which tool, on which architecture. Counts compare
/// exactly between runs of one architecture and one library version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct InstructionCounter {
    /// The counter, e.g. `callgrind`.
    pub tool: String,
    /// Its version, e.g. `valgrind-3.19.0`.
    pub version: String,
    /// The architecture the instructions are of, e.g. `x86_64`.
    pub arch: String,
    /// `release` or `debug`: codecbench's own code between the markers and the codecs
    /// counts too, and an unoptimised build runs several times the instructions.
    #[serde(default = "release")]
    pub build: String,
    /// Counted calls per direction, each after one uncounted call; a cell's figure is
    /// their mean.
    pub calls: u32,
}

fn release() -> String {
    "release".into()
}

impl InstructionCounter {
    /// What counts must share to compare: the architecture and the build.
    pub(crate) fn comparable_on(&self) -> String {
        format!("{}, {} build", self.arch, self.build)
    }
}

impl std::fmt::Display for InstructionCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}) on {}",
            self.tool,
            self.version,
            self.comparable_on()
        )
    }
}

impl RunReport {
    /// Every failed cell, named as `payload codec level: reason`.
    pub(crate) fn failures(&self) -> Vec<String> {
        self.payloads
            .iter()
            .flat_map(|p| {
                p.cells.iter().filter_map(move |c| {
                    c.failure
                        .as_ref()
                        .map(|why| format!("{} {}: {why}", p.payload, c.id))
                })
            })
            .collect()
    }
}
