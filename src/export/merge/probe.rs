//! Rendering merged probes: a row per URL and `Accept-Encoding`, a column per probe.

use crate::analysis::merge::Merged;
use crate::export::merge::parts::{long_csv, ratio_text, Speeds};
use crate::export::run::csv::{csv_figure, csv_ratio};
use crate::export::text::document::Table;
use crate::format::{significant, thousands};

/// One probe table: per probe, what the server sent (`br 41,132 B / 1.23 ms`), or the
/// identity request's p50 ÷ this p50.
pub(super) fn table(merged: &Merged, speeds: Speeds) -> Table {
    // One URL is named once, in a note, rather than on every row.
    let many_urls = merged
        .probe_rows
        .iter()
        .any(|r| r.url != merged.probe_rows[0].url);
    let mut header: Vec<String> = ["url", "Accept-Encoding", "ratio"]
        .map(String::from)
        .to_vec();
    let mut numeric = vec![false, false, true];
    if !many_urls {
        header.remove(0);
        numeric.remove(0);
    }
    header.extend(merged.labels.iter().cloned());
    numeric.extend(merged.labels.iter().map(|_| true));
    let rows = merged
        .probe_rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.url.clone(),
                crate::export::probe::accept_label(&row.accept_encoding),
                ratio_text(row.ratio, row.sizes_agree),
            ];
            if !many_urls {
                cells.remove(0);
            }
            cells.extend(row.runs.iter().map(|run| {
                match (run, speeds) {
                    (None, _) => String::new(),
                    (Some(f), Speeds::Raw) => format!(
                        "{} {} B / {} ms",
                        f.encoding,
                        thousands(f.body_bytes),
                        significant(f.p50_ms, 3)
                    ),
                    (Some(f), Speeds::Normalized) => f
                        .speed_normalized
                        .map(|v| significant(v, 3))
                        .unwrap_or("-".to_string()),
                }
            }));
            cells
        })
        .collect();
    Table::new(&header, &numeric, rows)
}

/// The notes under the probe tables: the URL when there is one, and the browser's
/// `Accept-Encoding` that `browser*` stands for.
pub(super) fn notes(merged: &Merged) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(first) = merged.probe_rows.first() else {
        return notes;
    };
    if merged.probe_rows.iter().all(|r| r.url == first.url) {
        notes.push(format!("URL: {}", first.url));
    }
    if let Some(row) = merged
        .probe_rows
        .iter()
        .find(|r| r.accept_encoding.contains(','))
    {
        notes.push(format!(
            "* browser: Accept-Encoding: {}",
            row.accept_encoding
        ));
    }
    notes
}

/// The merged probes as long-format CSV: one row per URL, `Accept-Encoding` and probe.
pub(crate) fn render_csv(merged: &Merged) -> Vec<u8> {
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
        &merged.probe_rows,
        |row| {
            vec![
                row.url.clone(),
                row.accept_encoding.clone(),
                csv_ratio(Some(row.ratio)),
            ]
        },
        |row| &row.runs,
        |f| {
            vec![
                f.encoding.clone(),
                f.body_bytes.to_string(),
                format!("{:.0}", f.wire_bytes),
                csv_figure(Some(f.p50_ms)),
                csv_figure(f.speed_normalized),
            ]
        },
    )
}
