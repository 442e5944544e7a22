//! What placed an answer's minimum body sizes: the smaller bodies cut from payloads
//! and the settings measured on each of them (see `bracket` for how they are chosen).

use serde::Serialize;

use super::body::Body;
use crate::vocab::CellId;

/// The bodies cut from payloads to place the minimum body sizes, and the settings
/// measured on them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct PlacedBy {
    /// The payloads they were cut from, by name.
    pub cut_from: Vec<String>,
    /// Their sizes in bytes, smallest first.
    pub sizes: Vec<u64>,
    /// The settings measured on every one of them.
    pub settings: Vec<CellId>,
}

/// What the cut bodies among `bodies` placed, if there are any.
pub(super) fn placed_by(bodies: &[&Body]) -> Option<PlacedBy> {
    let cuts: Vec<&&Body> = bodies.iter().filter(|b| b.cut_from.is_some()).collect();
    let first = cuts.first()?;
    let mut sizes: Vec<u64> = cuts.iter().map(|b| b.input_bytes).collect();
    sizes.sort_unstable();
    let mut settings: Vec<CellId> = first.settings.iter().map(|s| s.key.id).collect();
    settings.retain(|id| {
        cuts.iter()
            .all(|b| b.settings.iter().any(|s| s.key.id == *id))
    });
    settings.sort();
    Some(PlacedBy {
        cut_from: {
            let mut names: Vec<String> = cuts.iter().filter_map(|b| b.cut_from.clone()).collect();
            names.sort();
            names.dedup();
            names
        },
        sizes,
        settings,
    })
}
