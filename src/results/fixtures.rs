//! Saved runs built in tests: cells as a run writes them, grouped into its payloads.

use super::run::{CellResult, PayloadResult, Status};
use super::saved::{CellKey, LoadedRun, Results};
use crate::stats::Summary;
use crate::vocab::CellId;

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

/// A cell for tests: its payload, the payload's size, and the cell as a run writes it.
#[derive(Clone, Debug)]
pub(crate) struct FixtureCell {
    /// The payload's name.
    pub payload: String,
    /// The payload's size.
    pub input_bytes: u64,
    /// The cell.
    pub cell: CellResult,
}

impl FixtureCell {
    /// A cell that passed, at version 1.0.
    pub(crate) fn new(
        key: CellKey,
        input_bytes: u64,
        compressed_bytes: u64,
        compress: Summary,
        decompress: Summary,
    ) -> Self {
        FixtureCell {
            payload: key.payload,
            input_bytes,
            cell: CellResult {
                id: key.id,
                version: "1.0".into(),
                dotnet_level: None,
                compressed_bytes,
                encoder_bytes: None,
                compress: Some(compress),
                decompress: Some(decompress),
                compress_instructions: None,
                decompress_instructions: None,
                precision_met: None,
                status: Status::Ok,
                failure: None,
            },
        }
    }
}

impl LoadedRun {
    /// A `run` run of these cells, for tests: cells next to each other on one payload
    /// of one size share its result.
    pub(crate) fn of_cells(label: &str, cells: Vec<FixtureCell>) -> Self {
        let mut payloads: Vec<PayloadResult> = Vec::new();
        for fixture in cells {
            match payloads.last_mut() {
                Some(last)
                    if last.payload == fixture.payload
                        && last.input_bytes == fixture.input_bytes =>
                {
                    last.cells.push(fixture.cell)
                }
                _ => payloads.push(PayloadResult {
                    payload: fixture.payload,
                    input_bytes: fixture.input_bytes,
                    sha256: None,
                    warmup: 0,
                    iterations: None,
                    min_time_s: None,
                    rounds: 1,
                    processes: 1,
                    precision: None,
                    interrupted: false,
                    content_type: None,
                    cut_from: None,
                    cells: vec![fixture.cell],
                }),
            }
        }
        LoadedRun {
            label: label.into(),
            environment: None,
            results: Results::Codec {
                payloads,
                instructions: None,
            },
        }
    }

    /// The payloads of a `run` run, to change in a test.
    pub(crate) fn payloads_mut(&mut self) -> &mut Vec<PayloadResult> {
        match &mut self.results {
            Results::Codec { payloads, .. } => payloads,
            Results::Http { .. } | Results::Probe { .. } => panic!("a `run` run"),
        }
    }

    /// Every cell of a `run` run, to change in a test.
    pub(crate) fn cells_mut(&mut self) -> impl Iterator<Item = &mut CellResult> {
        self.payloads_mut()
            .iter_mut()
            .flat_map(|p| p.cells.iter_mut())
    }
}
