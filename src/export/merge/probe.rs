//! Rendering merged probes: a row per URL and `Accept-Encoding`, a column per probe.

use crate::analysis::merge::{Merged, MergedRow, ProbeFigures};
use crate::export::csv;
use crate::export::merge::parts::{figure_text, long_csv, ratio_text, Speeds};
use crate::export::text::document::Table;
use crate::format::{significant, thousands};
use crate::results::probe::ProbeKey;

/// One probe table: per probe, what the server sent (`br 41,132 B / 1.23 ms`), or the
/// identity request's p50 ÷ this p50.
pub(super) fn table(
    labels: &[String],
    rows: &[MergedRow<ProbeKey, ProbeFigures>],
    speeds: Speeds,
) -> Table {
    // One URL is named once, in a note, rather than on every row.
    let many_urls = rows.iter().any(|r| r.key.url != rows[0].key.url);
    let mut header: Vec<String> = ["url", "Accept-Encoding", "ratio"]
        .map(String::from)
        .to_vec();
    let mut numeric = vec![false, false, true];
    if !many_urls {
        header.remove(0);
        numeric.remove(0);
    }
    header.extend(labels.iter().cloned());
    numeric.extend(labels.iter().map(|_| true));
    let rows = rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.key.url.clone(),
                crate::export::probe::accept_label(&row.key.accept_encoding),
                ratio_text(row.ratio, row.sizes_agree),
            ];
            if !many_urls {
                cells.remove(0);
            }
            cells.extend(row.runs.iter().map(|run| match (run, speeds) {
                (None, _) => String::new(),
                (Some(f), Speeds::Raw) => format!(
                    "{} {} B / {} ms",
                    f.encoding,
                    thousands(f.body_bytes),
                    significant(f.p50_ms, 3)
                ),
                (Some(f), Speeds::Normalized) => figure_text(f.speed_normalized),
            }));
            cells
        })
        .collect();
    Table::new(&header, &numeric, rows)
}

/// The notes under the probe tables: the URL when there is one, and the browser's
/// `Accept-Encoding` that `browser*` stands for.
pub(super) fn notes(rows: &[MergedRow<ProbeKey, ProbeFigures>]) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(first) = rows.first() else {
        return notes;
    };
    if rows.iter().all(|r| r.key.url == first.key.url) {
        notes.push(format!("URL: {}", first.key.url));
    }
    if let Some(row) = rows.iter().find(|r| r.key.accept_encoding.contains(',')) {
        notes.push(format!(
            "* browser: Accept-Encoding: {}",
            row.key.accept_encoding
        ));
    }
    notes
}

/// The merged probes as long-format CSV: one row per URL, `Accept-Encoding` and probe.
pub(super) fn render_csv(merged: &Merged, rows: &[MergedRow<ProbeKey, ProbeFigures>]) -> Vec<u8> {
    long_csv(
        merged,
        &[
            "url",
            "accept_encoding",
            "ratio",
            "run",
            "machine",
            "encoding",
            "body_bytes",
            "wire_bytes",
            "total_p50_ms",
            "speed_normalized",
        ],
        rows,
        |key| vec![key.url.clone(), key.accept_encoding.clone()],
        |f| {
            vec![
                f.encoding.clone(),
                f.body_bytes.to_string(),
                format!("{:.0}", f.wire_bytes),
                csv::figure(Some(f.p50_ms)),
                csv::figure(f.speed_normalized),
            ]
        },
    )
}
