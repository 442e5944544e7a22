//! The claims about ASP.NET Core itself: its zstd provider's default, read from the
//! upstream source rather than the article, and whether the article's conclusions
//! survive the way the middleware feeds the encoders a JSON body (minimal APIs).
//!
//! Sources (`docs/servers.md` traces every step and says how each is known to have
//! shipped):
//! - dotnet/aspnetcore#65479, merged for .NET 11 preview 3, added
//!   `ZstandardCompressionProviderOptions.CompressionOptions = new()`: quality 0, which
//!   libzstd runs as its default level, 3. The preview's API reference documents it so.
//! - A stored commit that sets quality 1 (dotnet/aspnetcore@7a9ec13) is not shown to have
//!   merged, so it is not counted.

use super::matrix::Matrix;
use super::verdict::{claim, Claim, ClaimVerdict, Measured};
use crate::results::RunCell;
use crate::vocab::CodecKind::{self, Brotli, Gzip, Zstd};
use crate::vocab::{AspnetcoreWriter, CellId, Variant};

/// The zstd provider's default quality in the newest shipped source codecbench cites.
pub(crate) const UPSTREAM_ZSTD_QUALITY: i32 = 0;

/// Where [`UPSTREAM_ZSTD_QUALITY`] is read: merged code, as the release documents it.
pub(crate) const UPSTREAM_ZSTD_SOURCE: &str = "dotnet/aspnetcore#65479 (11 preview 3)";

/// The settings `reproduce` also measures as ASP.NET Core's middleware feeds them.
pub(crate) const WIRE_SETTINGS: [(CodecKind, i32); 4] =
    [(Zstd, 1), (Zstd, 3), (Brotli, 1), (Gzip, 1)];

/// libzstd's level for a quality: 0 means its default, 3.
fn libzstd_level(quality: i32) -> i32 {
    if quality == 0 {
        3
    } else {
        quality
    }
}

/// The default-level claim, and the conclusions on the wire for each payload.
pub(super) fn claims(m: &Matrix, claims: &mut Vec<Claim>) {
    let level = libzstd_level(UPSTREAM_ZSTD_QUALITY);
    let verdict = if level == 3 {
        ClaimVerdict::Holds
    } else {
        ClaimVerdict::ChangedUpstream
    };
    claims.push(claim(
        "ASP.NET Core 11's zstd provider runs level 3 unless told otherwise",
        "quality 0 (libzstd's 3)",
        Some((
            Measured::Source {
                text: format!("quality {UPSTREAM_ZSTD_QUALITY} at {UPSTREAM_ZSTD_SOURCE}"),
            },
            verdict,
        )),
    ));
    for payload in ["small", "large"] {
        claims.push(claim(
            &format!(
                "{payload} as ASP.NET Core sends it (minimal APIs): zstd 1 is smaller than zstd 3"
            ),
            &one_write(m, payload, &[(Zstd, 1), (Zstd, 3)]),
            smaller_first(m, payload, &[(Zstd, 1), (Zstd, 3)]),
        ));
        let others = [(Zstd, 1), (Brotli, 1), (Gzip, 1)];
        claims.push(claim(
            &format!("{payload} as ASP.NET Core sends it: zstd 1 is smaller than brotli and gzip Fastest"),
            &one_write(m, payload, &others),
            smaller_first(m, payload, &others),
        ));
    }
}

/// The cell of `codec` at `level` fed as a minimal API (and, since .NET 9, MVC) feeds it,
/// if the run has it.
fn wire<'a>(m: &Matrix<'a>, payload: &str, codec: CodecKind, level: i32) -> Option<RunCell<'a>> {
    let id = CellId {
        variant: Variant::Aspnetcore {
            writer: AspnetcoreWriter::Minimal,
        },
        ..CellId::reference(codec, level)
    };
    m.run.cell_on(payload, &id)
}

/// The sizes of `settings` in one write, as the article measured them: `41,132 vs
/// 43,644 B in one write`.
fn one_write(m: &Matrix, payload: &str, settings: &[(CodecKind, i32)]) -> String {
    let sizes: Option<Vec<u64>> = settings
        .iter()
        .map(|&(codec, level)| m.bytes(payload, codec, level))
        .collect();
    match sizes {
        Some(sizes) => format!("{} in one write", Measured::Sizes { sizes }.sizes_text()),
        None => "one write: not measured".to_string(),
    }
}

/// The sizes on the wire; holds when the first is the smallest.
fn smaller_first(
    m: &Matrix,
    payload: &str,
    settings: &[(CodecKind, i32)],
) -> Option<(Measured, ClaimVerdict)> {
    let sizes: Vec<u64> = settings
        .iter()
        .map(|&(codec, level)| wire(m, payload, codec, level).map(|c| c.cell.compressed_bytes))
        .collect::<Option<_>>()?;
    let verdict = if sizes[1..].iter().all(|&other| sizes[0] < other) {
        ClaimVerdict::Holds
    } else {
        ClaimVerdict::Fails
    };
    Some((Measured::Sizes { sizes }, verdict))
}
