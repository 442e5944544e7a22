//! A cell measured through a server, recorded twice: as a run's cell (`served by
//! SERVER`, the server's CPU as its compression time) and as a lab row, beside
//! codecbench's prediction of the bytes and its own encoder timed in process.

use std::time::Instant;

use super::through::ServedCell;
use super::Load;
use crate::codec::{of_server, Codec};
use crate::payload::Payload;
use crate::results::lab::LabRow;
use crate::results::run::CellResult;
use crate::stats::Summary;
use crate::vocab::{AspnetcoreWriter, CellId, CodecKind, Library, Server, Variant};

/// The least CPU time a run's cell holds, 1 ns.
const MEASURABLE_S: f64 = 1e-9;

/// The run's cell and the lab's row for `cell`, measured through `server` (`version`)
/// on `payload`.
pub(crate) fn record(
    server: Server,
    version: &str,
    payload: &Payload,
    cell: &ServedCell,
    load: Load,
) -> (CellResult, LabRow) {
    let codec = cell.setting.codec;
    let id = CellId {
        codec,
        library: Library::served_by(server, codec),
        variant: Variant::Served { server },
        level: cell.setting.level,
    };
    let (predicted_bytes, in_process) = in_process(server, codec, id.level, &payload.bytes, load);
    let mut row = LabRow {
        payload: payload.name.clone(),
        cell: id,
        bytes_sent: 0,
        predicted_bytes,
        server_cpu: None,
        identity_cpu: None,
        in_process,
        failure: None,
    };
    let mut result = CellResult::unmeasured(id, version.to_string(), None);
    match &cell.result {
        Ok(measured) => {
            row.bytes_sent = measured.bytes_sent;
            row.server_cpu = Summary::from_seconds(measured.extra_cpu_s.clone());
            row.identity_cpu = Summary::from_seconds(measured.identity_cpu_s.clone());
            result.compressed_bytes = measured.bytes_sent;
            // A run's times are above 0: a batch whose encoded responses cost no more
            // than identity's (a tiny body, within the noise) counts as 1 ns.
            let floored = measured
                .extra_cpu_s
                .iter()
                .map(|s| s.max(MEASURABLE_S))
                .collect();
            result.compress = Summary::from_seconds(floored);
            result.decompress = Summary::from_seconds(measured.decode_s.clone());
        }
        Err(why) => {
            row.failure = Some(why.clone());
            result.fail(why.clone());
        }
    }
    (result, row)
}

/// What codecbench sets beside `server`'s figures, as the lab table's note says it.
pub(crate) fn beside(server: Server) -> String {
    match server {
        Server::Express => "in process: codecbench's C brotli and madler zlib at Node's defaults, timed in this process. Node runs brotli 1.1.0 and Chromium's zlib: its bytes are not predicted.".into(),
        Server::Caddy => "Caddy compresses with Go's klauspost/compress, which codecbench can neither predict nor time in process.".into(),
        _ => format!("predicted B, in process: codecbench's profile of {server} (run --server {server}), its encoder timed in this process."),
    }
}

/// codecbench's encoder for `server`'s `codec`, and whether it predicts the bytes (a
/// profile) or only stands in for the time (Node's, a near estimate).
fn encoder(server: Server, codec: CodecKind) -> Option<(Box<dyn Codec>, bool)> {
    match server {
        Server::Express => crate::codec::express::estimate(codec).map(|e| (e, false)),
        _ => of_server(server, codec, AspnetcoreWriter::default()).map(|e| (e, true)),
    }
}

/// What codecbench's profile of `server` predicts for the body, and its encode time in
/// this process over `load.batches` calls.
fn in_process(
    server: Server,
    codec: CodecKind,
    level: i32,
    body: &[u8],
    load: Load,
) -> (Option<u64>, Option<Summary>) {
    let Some((encoder, exact)) = encoder(server, codec) else {
        return (None, None);
    };
    let Ok(predicted) = encoder.compress(level, body) else {
        return (None, None);
    };
    let mut samples = Vec::with_capacity(load.batches);
    for _ in 0..load.batches {
        if crate::process::interrupt::requested() {
            break;
        }
        let clock = Instant::now();
        let _ = std::hint::black_box(encoder.compress(level, body));
        samples.push(clock.elapsed());
    }
    (
        exact.then_some(predicted.len() as u64),
        Summary::from_durations(&samples),
    )
}
