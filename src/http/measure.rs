//! `codecbench http`'s load: every encoding in turn through the loopback server, each
//! with its own clients (see the folder's [`super`] documentation).

use std::sync::Arc;

use anyhow::{Context as _, Result};

use super::axum_server::ServerThread;
use super::client::measure_encoding;
use super::dictionary::Dictionary;
use super::load::{Load, Resource};
use crate::results::http::EncodingResult;
use crate::vocab::Encoding;

/// Measures every encoding in turn on `payload` (compressed against `dictionary` for
/// `dcz`), calling `on_result` after each.
pub(crate) fn measure(
    payload: &[u8],
    dictionary: Option<Dictionary>,
    encodings: &[Encoding],
    load: Load,
    on_result: &mut dyn FnMut(&EncodingResult) -> Result<()>,
) -> Result<Vec<EncodingResult>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let server = ServerThread::start()?;
    let resource = Resource {
        body: Arc::new(payload.to_vec()),
        dictionary,
    };
    let mut results = Vec::new();
    for &encoding in encodings {
        if crate::process::interrupt::requested() {
            break;
        }
        let result =
            runtime.block_on(measure_encoding(&server, resource.clone(), encoding, load))?;
        on_result(&result)?;
        results.push(result);
    }
    Ok(results)
}
