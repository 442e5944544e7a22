//! What `codecbench lab` measured through the real servers: a run whose cells are each
//! served by one server (`Variant::Served`), and beside it, per cell, codecbench's own
//! prediction of the bytes and its in-process encode time.

use crate::results::run::RunReport;
use crate::stats::Summary;
use crate::vocab::{CellId, Server};

/// The time a batch of encoded responses aims at: a setting slower than this over
/// `--requests` responses gets fewer a batch, down to one, so that br 11 on a large body
/// does not take minutes. Its CPU figure is hundreds of times the noise (identity's
/// cost, the scheduler's), so fewer responses still bound it.
pub(crate) const BATCH_AIM: std::time::Duration = std::time::Duration::from_millis(250);

/// A lab's results.
#[derive(Clone, Debug)]
pub(crate) struct LabReport {
    /// The run, as `compare`, `report` and `recommend --from` read it.
    pub run: RunReport,
    /// Each server asked for: measured, with its version, or skipped, with why.
    pub servers: Vec<LabServer>,
    /// One row per server × body × setting, in the order measured.
    pub rows: Vec<LabRow>,
    /// Batches per cell and requests per batch.
    pub load: (usize, usize),
}

/// A server the lab was asked to measure through.
#[derive(Clone, Debug)]
pub(crate) struct LabServer {
    /// The server.
    pub server: Server,
    /// Its name and version, e.g. `nginx 1.22.1`.
    pub version: String,
    /// Why it was not measured; `None` when it was.
    pub skipped: Option<String>,
    /// What the table sets beside its figures, and the settings it was not given.
    pub notes: Vec<String>,
}

/// One setting on one body through one server.
#[derive(Clone, Debug)]
pub(crate) struct LabRow {
    /// The body's name.
    pub payload: String,
    /// The cell, its variant `served by SERVER`.
    pub cell: CellId,
    /// The body's bytes as the server sent them.
    pub bytes_sent: u64,
    /// What codecbench's profile of the server predicts; `None` where it has none.
    pub predicted_bytes: Option<u64>,
    /// The server's CPU per response beyond an identity response's, per batch.
    pub server_cpu: Option<Summary>,
    /// The server's CPU per identity response, per batch.
    pub identity_cpu: Option<Summary>,
    /// codecbench's own encoder for the cell, in process.
    pub in_process: Option<Summary>,
    /// Why the cell could not be measured.
    pub failure: Option<String>,
}
