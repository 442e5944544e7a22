//! The bodies of a run as `recommend` weighs them: each payload with the settings
//! measured on it that did not fail.

use super::span::Span;
use super::Setting;
use crate::results::{LoadedRun, RunCell};

/// One measured body and its settings.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Body {
    /// Payload name.
    pub payload: String,
    /// Uncompressed size.
    pub input_bytes: u64,
    /// Every setting measured on it that did not fail.
    pub settings: Vec<Setting>,
    /// The content type it was served as, for a body from a HAR capture.
    pub content_type: Option<String>,
    /// The payload it was cut from to place the minimum body size: it places the
    /// minimum but weighs in no choice.
    pub cut_from: Option<String>,
    /// How often it is served (`--weights`), on a scale where the most served body of
    /// its answer weighs 1; 1 until an answer scales it.
    pub weight: f64,
}

/// The bodies of `run`, in the order they appear. Cells that failed or have no timings
/// are left out, and so are bodies left with none.
pub(crate) fn bodies(run: &LoadedRun) -> Vec<Body> {
    let cells = run.codec_cells();
    let mut payloads: Vec<&str> = Vec::new();
    for cell in &cells {
        if !payloads.contains(&cell.key.payload.as_str()) {
            payloads.push(&cell.key.payload);
        }
    }
    payloads
        .into_iter()
        .filter_map(|payload| {
            let on_it: Vec<&RunCell> = cells.iter().filter(|c| c.key.payload == payload).collect();
            let first = on_it.first()?.payload;
            let settings: Vec<Setting> = on_it.into_iter().filter_map(setting).collect();
            (!settings.is_empty()).then(|| Body {
                payload: payload.to_string(),
                input_bytes: first.input_bytes,
                settings,
                content_type: first.content_type.clone(),
                cut_from: first.cut_from.clone(),
                weight: 1.0,
            })
        })
        .collect()
}

/// The setting `cell` measured, if it has timings.
pub(super) fn setting(cell: &RunCell) -> Option<Setting> {
    let (compress, decompress) = (cell.compress()?, cell.decompress()?);
    let span = |summary: Option<&crate::stats::Summary>, median_s: f64| {
        summary.map_or(Span::exactly(median_s), Span::of)
    };
    Some(Setting {
        key: cell.key.clone(),
        compressed_bytes: cell.cell.compressed_bytes,
        ratio: cell.ratio(),
        compress_s: compress.median_s,
        decompress_s: decompress.median_s,
        compress_span: span(cell.cell.compress.as_ref(), compress.median_s),
        decompress_span: span(cell.cell.decompress.as_ref(), decompress.median_s),
    })
}
