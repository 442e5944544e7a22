//! What `compare` needs of a result, written once for every kind: a codec cell, an
//! HTTP encoding and a probe row are each an [`Entry`]; [`super::matching`] pairs them.

use super::direction::Direction;
use super::row::RowKey;
use crate::results::probe::ProbeCell;
use crate::results::{Cursor, HttpCell, Instructions, RunCell, Timing};
use crate::vocab::CellId;
use crate::vocab::CodecKind;
use crate::vocab::Encoding;

/// What `compare` needs of one result beyond what every analysis reads ([`Cursor`]).
pub(super) trait Entry: Cursor {
    /// What it measures apart from its payload and load: what the reference is.
    type Id: PartialEq + Copy + std::fmt::Display;

    /// Whether its times are judged by their low quantile when there are samples enough
    /// (codec cells), or always by the median (HTTP latencies, whose first response on a
    /// shaped link rides the token bucket's full burst and is no guide to the rest).
    const LOW_QUANTILE: bool;

    /// The reference's identity for `--normalize-to CODEC:LEVEL`.
    fn reference_id(codec: CodecKind, level: i32) -> Self::Id;
    /// Its identity.
    fn id(&self) -> Self::Id;
    /// Its key, for rows and messages.
    fn row_key(&self) -> RowKey;
    /// Whether `other` is the same result in another run.
    fn same(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
    /// What it ran: the library's version for cells, the `Content-Encoding` sent for
    /// probe rows.
    fn version(&self) -> Option<&str>;
    /// Its timings, by direction.
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)>;
    /// Its instructions per call, where counted (codec cells only).
    fn instructions(&self) -> Option<Instructions<'_>> {
        None
    }
}

impl Entry for RunCell<'_> {
    type Id = CellId;
    const LOW_QUANTILE: bool = true;

    fn reference_id(codec: CodecKind, level: i32) -> CellId {
        CellId::reference(codec, level)
    }
    fn id(&self) -> CellId {
        self.key.id
    }
    fn row_key(&self) -> RowKey {
        RowKey::Cell(self.key.clone())
    }
    fn version(&self) -> Option<&str> {
        Some(&self.cell.version)
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![
            (Direction::Compress, self.compress()),
            (Direction::Decompress, self.decompress()),
        ]
    }
    fn instructions(&self) -> Option<Instructions<'_>> {
        RunCell::instructions(self)
    }
}

impl Entry for HttpCell<'_> {
    type Id = Encoding;
    const LOW_QUANTILE: bool = false;

    fn reference_id(codec: CodecKind, level: i32) -> Encoding {
        Encoding::of(codec, level)
    }
    fn id(&self) -> Encoding {
        self.key.encoding
    }
    fn row_key(&self) -> RowKey {
        RowKey::Http(self.key.clone())
    }
    fn version(&self) -> Option<&str> {
        None
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![(Direction::HttpLatency, Some(self.latency()))]
    }
}

/// A probe row's part in normalisation: each URL's `identity` request is the reference
/// of its other rows, whatever `--normalize-to` names, as a live server need not send
/// any one coding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProbeRole {
    /// The `Accept-Encoding: identity` request.
    Identity,
    /// Any other request.
    Other,
}

impl std::fmt::Display for ProbeRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProbeRole::Identity => "identity request",
            ProbeRole::Other => "request",
        })
    }
}

impl Entry for ProbeCell<'_> {
    type Id = ProbeRole;
    const LOW_QUANTILE: bool = false;

    fn reference_id(_: CodecKind, _: i32) -> ProbeRole {
        ProbeRole::Identity
    }
    fn id(&self) -> ProbeRole {
        if self.key.is_identity() {
            ProbeRole::Identity
        } else {
            ProbeRole::Other
        }
    }
    fn row_key(&self) -> RowKey {
        RowKey::Probe(self.key.clone())
    }
    fn version(&self) -> Option<&str> {
        Some(&self.row.encoding)
    }
    fn timings(&self) -> Vec<(Direction, Option<Timing<'_>>)> {
        vec![(Direction::HttpLatency, Some(self.latency()))]
    }
}
