//! For a report of many payloads: a table of contents that links each payload's part,
//! and a summary across payloads, a row each, so that a page of thousands of cells can
//! be read from its top.

use maud::{html, Markup};

use super::document::table;
use crate::export::text::document::Table;
use crate::format::{significant, thousands};
use crate::results::run::PayloadResult;
use crate::results::{LoadedRun, Results};

/// From how many payloads in all a page gets its contents and summaries.
pub(crate) const MANY_PAYLOADS: usize = 4;

/// The anchor of run `run`'s payload `payload`.
pub(crate) fn anchor(run: usize, payload: usize) -> String {
    format!("payload-{run}-{payload}")
}

/// The payloads of `run`, or none for another kind of result.
fn payloads(run: &LoadedRun) -> &[PayloadResult] {
    match &run.results {
        Results::Codec { payloads, .. } => payloads,
        Results::Http { .. } | Results::Probe { .. } => &[],
    }
}

/// Whether the page of `runs` has many payloads.
pub(crate) fn many(runs: &[&LoadedRun]) -> bool {
    runs.iter().map(|r| payloads(r).len()).sum::<usize>() >= MANY_PAYLOADS
}

/// The table of contents: each run, and under it a link to each payload's part.
pub(crate) fn contents(runs: &[&LoadedRun]) -> Markup {
    html! {
        nav.toc aria-label="Contents" {
            h2 { "Contents" }
            ol {
                @for (r, run) in runs.iter().enumerate() {
                    li {
                        (run.label)
                        ol {
                            @for (p, payload) in payloads(run).iter().enumerate() {
                                li { a href=(format!("#{}", anchor(r, p))) { (payload.payload) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A row per payload of `run`: its size, its cells, the smallest output and the fastest
/// compression with their settings, and how many medians are imprecise.
pub(crate) fn summary(run: &LoadedRun) -> Markup {
    const HEADER: [&str; 6] = [
        "payload",
        "bytes",
        "cells",
        "smallest output",
        "fastest compression",
        "imprecise medians",
    ];
    const NUMERIC: [bool; 6] = [false, true, true, false, false, true];
    let rows: Vec<Vec<String>> = payloads(run).iter().map(summary_row).collect();
    if rows.is_empty() {
        return html! {};
    }
    html! {
        h3 { "Across payloads" }
        (table(&Table::new(&HEADER, &NUMERIC, rows)))
    }
}

fn summary_row(payload: &PayloadResult) -> Vec<String> {
    let measured = || payload.cells.iter().filter(|c| !c.failed());
    let smallest = measured()
        .min_by_key(|c| c.compressed_bytes)
        .map(|c| {
            let ratio = c.ratio(payload.input_bytes).unwrap_or(0.0);
            format!("{} {}: {ratio:.2}x", c.id.codec, c.id.level)
        })
        .unwrap_or_default();
    let fastest = measured()
        .filter_map(|c| {
            c.compress
                .as_ref()
                .map(|s| (c, s.median_mb_s(payload.input_bytes)))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, mb_s)| {
            let time = c.compress.as_ref().map_or(0.0, |s| s.median_s);
            format!(
                "{} {}: {} MB/s ({})",
                c.id.codec,
                c.id.level,
                significant(mb_s, 3),
                crate::format::duration_text(time)
            )
        })
        .unwrap_or_default();
    let imprecise = measured()
        .flat_map(|c| [&c.compress, &c.decompress])
        .filter(|s| s.as_ref().is_some_and(|s| s.noise().is_some()))
        .count();
    vec![
        payload.payload.clone(),
        thousands(payload.input_bytes),
        payload.cells.len().to_string(),
        smallest,
        fastest,
        imprecise.to_string(),
    ]
}
