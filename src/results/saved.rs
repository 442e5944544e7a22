//! A saved run as the analyses read it: the documents `run`, `http` and `probe` write,
//! and a cursor per result that reads one where it lies (its typed identity, sizes,
//! timings and status).

use anyhow::{bail, Result};
use serde::Serialize;

use super::environment::Environment;
use super::http::{load_label, EncodingResult, HttpPayloadResult, LoadSettings};
use super::probe::{ProbeCell, ProbeKey, UrlResult};
use super::run::{CellResult, InstructionCounter, PayloadResult, RunReport};
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

/// One cell of a saved run, read where it lies in the document: its payload's result
/// and its own.
#[derive(Clone, Debug)]
pub(crate) struct RunCell<'a> {
    /// Which cell: its payload and identity.
    pub key: CellKey,
    /// The payload it was measured on.
    pub payload: &'a PayloadResult,
    /// The cell itself.
    pub cell: &'a CellResult,
    /// How the run counted instructions, if it did.
    counter: Option<&'a InstructionCounter>,
    /// Processes its samples came from; `None` where the file does not say (CSV).
    processes: Option<u32>,
}

/// A cell's instructions per call, and what counted them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Instructions<'a> {
    /// Instructions of one compression.
    pub compress: u64,
    /// Instructions of one decompression.
    pub decompress: u64,
    /// The counter; `None` from CSV, which does not say.
    pub counter: Option<&'a InstructionCounter>,
}

impl Instructions<'_> {
    /// The architecture and build the counts are of, e.g. `x86_64, release build`;
    /// `None` from CSV.
    pub(crate) fn arch(&self) -> Option<String> {
        self.counter.map(InstructionCounter::comparable_on)
    }
}

impl<'a> RunCell<'a> {
    /// Uncompressed size.
    pub(crate) fn input_bytes(&self) -> u64 {
        self.payload.input_bytes
    }

    /// Uncompressed ÷ compressed size.
    pub(crate) fn ratio(&self) -> f64 {
        self.input_bytes() as f64 / self.cell.compressed_bytes.max(1) as f64
    }

    /// Why the cell failed; `None` when every round trip matched.
    pub(crate) fn failure(&self) -> Option<&'a str> {
        self.cell
            .failed()
            .then(|| self.cell.failure.as_deref().unwrap_or_default())
    }

    /// Compression timings; `None` for a failed cell.
    pub(crate) fn compress(&self) -> Option<Timing<'a>> {
        self.timing(self.cell.compress.as_ref())
    }

    /// Decompression timings; `None` for a failed cell.
    pub(crate) fn decompress(&self) -> Option<Timing<'a>> {
        self.timing(self.cell.decompress.as_ref())
    }

    fn timing(&self, summary: Option<&'a Summary>) -> Option<Timing<'a>> {
        let summary = summary.filter(|_| !self.cell.failed())?;
        Some(Timing::of_summary(summary, self.processes))
    }

    /// Instructions per call, where the run counted them.
    pub(crate) fn instructions(&self) -> Option<Instructions<'a>> {
        let (compress, decompress) = self
            .cell
            .compress_instructions
            .zip(self.cell.decompress_instructions)
            .filter(|_| !self.cell.failed())?;
        Some(Instructions {
            compress,
            decompress,
            counter: self.counter,
        })
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

/// One encoding of a saved `http` run, read where it lies in the document.
#[derive(Clone, Debug)]
pub(crate) struct HttpCell<'a> {
    /// Which encoding, on which payload, under which load.
    pub key: HttpKey,
    /// The payload it was served.
    pub payload: &'a HttpPayloadResult,
    /// What the encoding measured.
    pub result: &'a EncodingResult,
}

impl<'a> HttpCell<'a> {
    /// The encoded body's size, rounded to a byte.
    pub(crate) fn body_bytes(&self) -> u64 {
        self.result.body_bytes.round() as u64
    }

    /// Latency: the median is the p50; the samples are every response's (JSON only).
    pub(crate) fn latency(&self) -> Timing<'a> {
        Timing::of_ms(self.result.p50_ms, &self.result.latencies_ms)
    }
}

/// What a saved run holds: exactly one kind of result, as its document has them.
#[derive(Clone, Debug)]
pub(crate) enum Results {
    /// `codecbench run`'s payloads, in file order.
    Codec {
        /// Every payload's cells.
        payloads: Vec<PayloadResult>,
        /// How the run counted instructions, if it did.
        instructions: Option<InstructionCounter>,
    },
    /// `codecbench http`'s payloads, under one load.
    Http {
        /// The load every encoding was measured under.
        load: LoadSettings,
        /// Every payload's encodings.
        payloads: Vec<HttpPayloadResult>,
    },
    /// `codecbench probe`'s URLs, in file order.
    Probe {
        /// Every URL's rows.
        urls: Vec<UrlResult>,
    },
}

impl Results {
    /// `run` or `http` results, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Results::Codec { .. } => "`run` results",
            Results::Http { .. } => "`http` results",
            Results::Probe { .. } => "`probe` results",
        }
    }

    /// How many cells, encodings or rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Results::Codec { payloads, .. } => payloads.iter().map(|p| p.cells.len()).sum(),
            Results::Http { payloads, .. } => payloads.iter().map(|p| p.encodings.len()).sum(),
            Results::Probe { urls } => urls.iter().map(|u| u.rows.len()).sum(),
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
    /// Where and with what it ran; `None` for CSV, which does not say.
    pub environment: Option<Environment>,
    /// What it measured.
    pub results: Results,
}

impl LoadedRun {
    /// A run just measured, under `label`.
    pub(crate) fn from_report(report: &RunReport, label: &str) -> Self {
        LoadedRun {
            label: label.to_string(),
            environment: Some(report.environment.clone()),
            results: Results::Codec {
                payloads: report.payloads.clone(),
                instructions: report.instructions.clone(),
            },
        }
    }

    /// The machine line, from the JSON environment; `None` for CSV.
    pub(crate) fn machine(&self) -> Option<String> {
        self.environment.as_ref().map(Environment::machine)
    }

    /// The day it was measured, from the JSON environment; `None` for CSV.
    pub(crate) fn measured_on(&self) -> Option<String> {
        self.environment.as_ref().map(Environment::day)
    }

    /// The codec cells, or an error naming the run for the commands that analyse
    /// `run`'s results only.
    pub(crate) fn cells(&self) -> Result<Vec<RunCell<'_>>> {
        match &self.results {
            Results::Codec { .. } => Ok(self.codec_cells()),
            Results::Http { .. } => bail!(
                "{} holds HTTP results from `codecbench http`; this command reads runs from `codecbench run`",
                self.label
            ),
            Results::Probe { .. } => bail!(
                "{} holds a live server's results from `codecbench probe`; this command reads runs from `codecbench run`",
                self.label
            ),
        }
    }

    /// Refuses a run that holds a cell twice (the same payload, setting and, for
    /// `http`, load): `compare` and `merge` match cells by key and would judge one copy.
    pub(crate) fn refuse_duplicates(&self) -> Result<()> {
        let twice = match &self.results {
            Results::Codec { .. } => first_twice(self.codec_cells().into_iter().map(|c| c.key))
                .map(|key| format!("payload {:?}, cell {}", key.payload, key.id)),
            Results::Http { .. } => {
                first_twice(self.http_cells().into_iter().map(|c| c.key)).map(|key| {
                    format!(
                        "payload {:?}, {} at {}",
                        key.payload, key.encoding, key.load
                    )
                })
            }
            Results::Probe { .. } => None,
        };
        match twice {
            Some(key) => bail!(
                "{} holds {key} twice: each cell must appear once",
                self.label
            ),
            None => Ok(()),
        }
    }

    /// The codec cells, in file order; none for another kind.
    pub(crate) fn codec_cells(&self) -> Vec<RunCell<'_>> {
        self.each_codec_cell(|_| true).collect()
    }

    /// The codec cells measured on `payload`, in file order; cursors are made only for
    /// them.
    pub(crate) fn cells_on<'a, 'p>(
        &'a self,
        payload: &'p str,
    ) -> impl Iterator<Item = RunCell<'a>> + 'p
    where
        'a: 'p,
    {
        self.each_codec_cell(move |p| p.payload == payload)
    }

    fn each_codec_cell<'a, 'k>(
        &'a self,
        keep: impl Fn(&PayloadResult) -> bool + 'k,
    ) -> impl Iterator<Item = RunCell<'a>> + 'k
    where
        'a: 'k,
    {
        let (payloads, instructions) = match &self.results {
            Results::Codec {
                payloads,
                instructions,
            } => (payloads.as_slice(), instructions.as_ref()),
            Results::Http { .. } | Results::Probe { .. } => (&[][..], None),
        };
        // CSV does not say how many processes a run used.
        let known = self.environment.is_some();
        payloads
            .iter()
            .filter(move |p| keep(p))
            .flat_map(move |payload| {
                payload.cells.iter().map(move |cell| RunCell {
                    key: CellKey {
                        payload: payload.payload.clone(),
                        id: cell.id,
                    },
                    payload,
                    cell,
                    counter: instructions,
                    processes: known.then_some(payload.processes),
                })
            })
    }

    /// The `http` encodings, in file order; none for another kind.
    pub(crate) fn http_cells(&self) -> Vec<HttpCell<'_>> {
        let Results::Http { load, payloads } = &self.results else {
            return Vec::new();
        };
        let load = load_label(load.concurrency, load.bandwidth_mbit);
        payloads
            .iter()
            .flat_map(|payload| {
                let load = load.clone();
                payload.encodings.iter().filter_map(move |result| {
                    // A run whose encodings do not parse is refused on reading.
                    let encoding = Encoding::parse(&result.encoding).ok()?;
                    Some(HttpCell {
                        key: HttpKey {
                            payload: payload.payload.clone(),
                            encoding,
                            load: load.clone(),
                        },
                        payload,
                        result,
                    })
                })
            })
            .collect()
    }

    /// The `probe` rows, in file order; none for another kind.
    pub(crate) fn probe_cells(&self) -> Vec<ProbeCell<'_>> {
        let Results::Probe { urls } = &self.results else {
            return Vec::new();
        };
        urls.iter()
            .flat_map(|url| {
                url.rows.iter().map(move |row| ProbeCell {
                    key: ProbeKey {
                        url: url.url.clone(),
                        accept_encoding: row.accept_encoding.clone(),
                    },
                    url,
                    row,
                })
            })
            .collect()
    }

    /// The cell `id` on `payload`, if the run has it.
    pub(crate) fn cell_on(&self, payload: &str, id: &CellId) -> Option<RunCell<'_>> {
        self.cells_on(payload).find(|c| &c.cell.id == id)
    }
}

/// The first key that comes again, if any.
fn first_twice<K: std::hash::Hash + Eq + Clone>(keys: impl IntoIterator<Item = K>) -> Option<K> {
    let mut seen = std::collections::HashSet::new();
    keys.into_iter().find(|key| !seen.insert(key.clone()))
}
