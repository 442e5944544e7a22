//! Words several reports share about a cell or a payload: its library, how its
//! iterations ran, and what a server's own encoder rests on.

use crate::results::run::PayloadResult;

/// The library, with the variant when it is not a fresh encoder: `libzstd, reused`.
pub(crate) fn library_text(id: &crate::vocab::CellId) -> String {
    match id.variant {
        crate::vocab::Variant::Fresh => id.library.to_string(),
        variant => format!("{}, {variant}", id.library),
    }
}

/// What the rows of a server's own encoders rest on, for each such variant among
/// `variants`: a model of its source, or a model checked against the live server.
pub(crate) fn server_notes(
    variants: impl IntoIterator<Item = crate::vocab::Variant>,
) -> Vec<String> {
    use crate::vocab::Variant;
    let (mut aspnetcore, mut nginx, mut apache) = (false, false, false);
    let mut served = Vec::new();
    for variant in variants {
        if let Variant::Served { server } = variant {
            if !served.contains(&server) {
                served.push(server);
            }
        }
        aspnetcore |= matches!(variant, Variant::Aspnetcore { .. });
        nginx |= variant == Variant::Nginx;
        apache |= variant == Variant::Apache;
    }
    let mut notes = Vec::new();
    if aspnetcore {
        notes.push(
            "aspnetcore: modelled from ASP.NET Core's source (docs/servers.md), not measured against a live Kestrel"
                .to_string(),
        );
    }
    if nginx {
        notes.push(
            "nginx: predicted, and checked to the byte against a live nginx (tests/nginx.rs)"
                .to_string(),
        );
    }
    for server in served {
        notes.push(format!(
            "served by {server}: measured through a live {server} (codecbench lab): the bytes it sent; as compress time, the CPU its process spent per response beyond an identity response's; as decompress time, codecbench decoding what it sent"
        ));
    }
    if apache {
        notes.push(
            "apache: predicted, and checked to the byte against a live Apache httpd (tests/apache.rs)"
                .to_string(),
        );
    }
    notes
}

/// How many iterations each cell ran, e.g. `60 timed iterations after 3 warm-up, in 5
/// rounds`, or the time budget that sized them.
pub(crate) fn iteration_text(payload: &PayloadResult) -> String {
    let count = match (payload.iterations, payload.min_time_s) {
        (Some(n), _) => format!("{n} timed iterations"),
        (None, Some(t)) => format!("at least {t} s of timed iterations"),
        (None, None) => "the timed iterations".to_string(),
    };
    let (warmup, rounds) = (payload.warmup, payload.rounds);
    let rounds_text = crate::format::count(u64::from(rounds), "round");
    // Later rounds re-warm with one, and long first runs skip it: not repeated here.
    match payload.processes {
        1 => format!("{count} after {warmup} warm-up, in {rounds_text}"),
        n => format!("{count} across {n} processes of {rounds_text}, after {warmup} warm-up"),
    }
}
