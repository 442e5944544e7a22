//! A saved run as the analyses read it: the cells of `run` or the encodings of `http`,
//! each with its typed identity, sizes, timings and status.

use anyhow::{bail, Result};
use serde::Serialize;

use super::probe::ProbeCell;
use super::run::{RunReport, Status};
use super::timing::Timing;
use crate::stats::Summary;
use crate::vocab::CellId;
use crate::vocab::Encoding;

/// Identifies a cell across runs: its payload and what it measures.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub(crate) struct CellKey {
    /// Payload name.
    pub payload: String,
    /// Codec, library, variant and level.
    pub id: CellId,
}

impl std::fmt::Display for CellKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.payload, self.id)
    }
}

/// One cell of a saved run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RunCell {
    /// Which cell.
    pub key: CellKey,
    /// The library's version, e.g. `1.5.7`.
    pub version: String,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// Compressed size.
    pub compressed_bytes: u64,
    /// All the memory one response's encoder held, where measured.
    pub encoder_bytes: Option<u64>,
    /// Compression timings; `None` for a failed cell.
    pub compress: Option<Timing>,
    /// Decompression timings; `None` for a failed cell.
    pub decompress: Option<Timing>,
    /// The content type of a body from a HAR capture.
    pub content_type: Option<String>,
    /// The payload the body was cut from to place the minimum body size, if it was
    /// (see [`crate::results::run::PayloadResult::cut_from`]).
    pub cut_from: Option<String>,
    /// Why the cell failed; `None` when every round trip matched.
    pub failure: Option<String>,
    /// Instructions per call, where the run counted them.
    pub instructions: Option<Instructions>,
}

/// A cell's instructions per call, and what counted them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Instructions {
    /// Instructions of one compression.
    pub compress: u64,
    /// Instructions of one decompression.
    pub decompress: u64,
    /// The counter and architecture, e.g. `callgrind (valgrind-3.19.0) on x86_64`;
    /// `None` from CSV, which does not say.
    pub counter: Option<String>,
    /// The architecture and build the instructions are of, e.g. `x86_64, release
    /// build`; `None` from CSV.
    pub arch: Option<String>,
}

impl RunCell {
    /// Uncompressed ÷ compressed size.
    pub(crate) fn ratio(&self) -> f64 {
        self.input_bytes as f64 / self.compressed_bytes.max(1) as f64
    }
}

/// Identifies one encoding of an `http` run across runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub(crate) struct HttpKey {
    /// Payload name.
    pub payload: String,
    /// The encoding served.
    pub encoding: Encoding,
    /// The load, e.g. `1 connection, 10 Mbit/s`: results under different loads do not
    /// match.
    pub load: String,
}

impl std::fmt::Display for HttpKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} over HTTP ({})",
            self.payload,
            self.encoding.label(),
            self.load
        )
    }
}

/// One encoding of a saved `http` run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HttpCell {
    /// Which encoding.
    pub key: HttpKey,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// The encoded body's size.
    pub body_bytes: u64,
    /// Bytes on the wire per response, headers included (mean).
    pub wire_bytes: f64,
    /// Requests per second over the whole load.
    pub requests_per_s: f64,
    /// Latency: the median is the p50; the samples are every response's (JSON only).
    pub latency: Timing,
}

/// What a saved run holds: exactly one kind of result.
#[derive(Clone, Debug)]
pub(crate) enum Results {
    /// The cells of `codecbench run`, in file order.
    Codec(Vec<RunCell>),
    /// The encodings of `codecbench http`, in file order.
    Http(Vec<HttpCell>),
    /// The rows of `codecbench probe`, in file order.
    Probe(Vec<ProbeCell>),
}

impl Results {
    /// `run` or `http` results, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Results::Codec(_) => "`run` results",
            Results::Http(_) => "`http` results",
            Results::Probe(_) => "`probe` results",
        }
    }

    /// How many cells or encodings.
    pub(crate) fn len(&self) -> usize {
        match self {
            Results::Codec(cells) => cells.len(),
            Results::Http(encodings) => encodings.len(),
            Results::Probe(rows) => rows.len(),
        }
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A saved run.
#[derive(Clone, Debug)]
pub(crate) struct LoadedRun {
    /// A short name: the file name.
    pub label: String,
    /// The machine line from the JSON environment; `None` for CSV.
    pub machine: Option<String>,
    /// The day it was measured, from the JSON environment; `None` for CSV.
    pub measured_on: Option<String>,
    /// What it measured.
    pub results: Results,
}

impl LoadedRun {
    /// A run just measured, under `label`.
    pub(crate) fn from_report(report: &RunReport, label: &str) -> Self {
        LoadedRun {
            label: label.to_string(),
            machine: Some(report.environment.machine()),
            measured_on: Some(report.environment.day()),
            results: Results::Codec(cells_of(report)),
        }
    }

    /// The codec cells, or an error naming the run for the commands that analyse
    /// `run`'s results only.
    pub(crate) fn cells(&self) -> Result<&[RunCell]> {
        match &self.results {
            Results::Codec(cells) => Ok(cells),
            Results::Http(_) => bail!(
                "{} holds HTTP results from `codecbench http`; this command reads runs from `codecbench run`",
                self.label
            ),
            Results::Probe(_) => bail!(
                "{} holds a live server's results from `codecbench probe`; this command reads runs from `codecbench run`",
                self.label
            ),
        }
    }

    /// The codec cells; none for an `http` run.
    pub(crate) fn codec_cells(&self) -> &[RunCell] {
        match &self.results {
            Results::Codec(cells) => cells,
            Results::Http(_) | Results::Probe(_) => &[],
        }
    }

    /// The `http` encodings; none for another kind.
    pub(crate) fn http_cells(&self) -> &[HttpCell] {
        match &self.results {
            Results::Http(encodings) => encodings,
            Results::Codec(_) | Results::Probe(_) => &[],
        }
    }

    /// The `probe` rows; none for another kind.
    pub(crate) fn probe_cells(&self) -> &[ProbeCell] {
        match &self.results {
            Results::Probe(rows) => rows,
            Results::Codec(_) | Results::Http(_) => &[],
        }
    }

    /// The cell `id` on `payload`, if the run has it.
    pub(crate) fn cell_on(&self, payload: &str, id: &CellId) -> Option<&RunCell> {
        self.codec_cells()
            .iter()
            .find(|c| c.key.payload == payload && &c.key.id == id)
    }
}

/// Every cell of `report`, as runs read from files have them.
pub(super) fn cells_of(report: &RunReport) -> Vec<RunCell> {
    let mut cells = Vec::new();
    for payload in &report.payloads {
        let timing = |summary: &Option<Summary>| {
            summary.as_ref().map(|s| {
                Timing::of(s.median_s, s.samples_s.clone()).in_processes(payload.processes)
            })
        };
        for cell in &payload.cells {
            let failed = cell.status == Status::Failed;
            cells.push(RunCell {
                key: CellKey {
                    payload: payload.payload.clone(),
                    id: cell.id,
                },
                version: cell.version.clone(),
                input_bytes: payload.input_bytes,
                compressed_bytes: cell.compressed_bytes,
                encoder_bytes: cell.encoder_bytes,
                compress: timing(&cell.compress).filter(|_| !failed),
                decompress: timing(&cell.decompress).filter(|_| !failed),
                content_type: payload.content_type.clone(),
                cut_from: payload.cut_from.clone(),
                failure: failed.then(|| cell.failure.clone().unwrap_or_default()),
                instructions: cell
                    .compress_instructions
                    .zip(cell.decompress_instructions)
                    .filter(|_| !failed)
                    .map(|(compress, decompress)| Instructions {
                        compress,
                        decompress,
                        counter: report.instructions.as_ref().map(|c| c.to_string()),
                        arch: report.instructions.as_ref().map(|c| c.comparable_on()),
                    }),
            });
        }
    }
    cells
}

#[cfg(test)]
impl CellKey {
    /// A key for tests: `codec` by name, the library servers run, a fresh encoder.
    pub(crate) fn new(payload: &str, codec: &str, level: i32) -> Self {
        let codec = codec.parse().expect("a codec name");
        CellKey {
            payload: payload.into(),
            id: CellId::reference(codec, level),
        }
    }
}

#[cfg(test)]
impl RunCell {
    /// A cell for tests at version 1.0.
    pub(crate) fn for_test(
        key: CellKey,
        input_bytes: u64,
        compressed_bytes: u64,
        compress: Timing,
        decompress: Timing,
    ) -> Self {
        RunCell {
            key,
            version: "1.0".into(),
            input_bytes,
            compressed_bytes,
            encoder_bytes: None,
            compress: Some(compress),
            decompress: Some(decompress),
            content_type: None,
            cut_from: None,
            failure: None,
            instructions: None,
        }
    }
}

#[cfg(test)]
impl LoadedRun {
    /// A `run` run of these cells, for tests.
    pub(crate) fn of_cells(label: &str, cells: Vec<RunCell>) -> Self {
        LoadedRun {
            label: label.into(),
            machine: None,
            measured_on: None,
            results: Results::Codec(cells),
        }
    }
}
