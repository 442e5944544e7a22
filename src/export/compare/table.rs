//! Rendering a comparison of two runs: table, Markdown or JSON.

use crate::analysis::compare::{Comparison, Direction, Row, RowKey, Verdict};
use crate::export::compare::notes::{one_url, speed_text, summary_lines};
use crate::export::text::document::{Document, Table};
use crate::format::thousands;
use crate::results::probe::ProbeKey;
use crate::results::{CellKey, HttpKey};

/// Changes in time, as every page writes them: `+` is slower.
const HEADER: [&str; 5] = [
    "payload",
    "setting",
    "bytes",
    "compress time\n(+ slower)",
    "decompress time\n(+ slower)",
];
const NUMERIC: [bool; 5] = [false, false, true, true, true];

const HTTP_HEADER: [&str; 5] = [
    "payload",
    "encoding",
    "load",
    "body bytes",
    "time\n(+ slower)",
];
const HTTP_NUMERIC: [bool; 5] = [false, false, false, true, true];

/// `a → b DRIFT` when two sizes differ, else the size.
fn bytes_text(baseline: u64, candidate: u64) -> String {
    if baseline == candidate {
        thousands(baseline)
    } else {
        format!("{} → {} DRIFT", thousands(baseline), thousands(candidate))
    }
}

/// The cells' table: payload, setting (`zstd 1 (libzstd) ref` for the reference),
/// bytes, speeds.
fn cell_row(row: &Row, key: &CellKey) -> Vec<String> {
    let mut setting = key.id.to_string();
    if row.is_reference {
        setting.push_str(" ref");
    }
    vec![
        key.payload.clone(),
        setting,
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::Compress).cloned()),
        speed_text(&row.speed(Direction::Decompress).cloned()),
    ]
}

/// The encodings' table: payload, encoding, load, body bytes, delivered speed.
fn http_row(row: &Row, key: &HttpKey) -> Vec<String> {
    vec![
        key.payload.clone(),
        key.encoding.label(),
        key.load.clone(),
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::HttpLatency).cloned()),
    ]
}

const PROBE_HEADER: [&str; 5] = [
    "url",
    "Accept-Encoding",
    "sent",
    "body bytes",
    "time\n(+ slower)",
];
const PROBE_NUMERIC: [bool; 5] = [false, false, false, true, true];

/// The probe rows' table: URL, Accept-Encoding, what the server sent (`br → gzip` when
/// it changed), body bytes, delivered speed.
fn probe_row(row: &Row, key: &ProbeKey) -> Vec<String> {
    let sent = match &row.versions {
        Some((before, after)) if before != after => format!("{before} → {after} DRIFT"),
        Some((before, _)) => before.clone(),
        None => String::new(),
    };
    vec![
        key.url.clone(),
        crate::export::probe::accept_label(&key.accept_encoding),
        sent,
        bytes_text(row.baseline_bytes, row.candidate_bytes),
        speed_text(&row.speed(Direction::HttpLatency).cloned()),
    ]
}

/// Whether a row fails the comparison or moved beyond its band: shown first, and
/// never folded away on a page.
pub(crate) fn stands_out(row: &Row) -> bool {
    row.regressed()
        || row.instructions_regressed()
        || row.size_drift()
        || row.has_verdict(Verdict::Improved)
}

/// Regressions and size drifts first (and improvements), then inconclusive rows, then
/// the rest, each in run order.
fn ordered_rows(comparison: &Comparison) -> Vec<&Row> {
    let mut ordered: Vec<&Row> = comparison.rows.iter().collect();
    ordered.sort_by_key(|row| {
        if stands_out(row) {
            0
        } else if row.has_verdict(Verdict::Inconclusive) {
            1
        } else {
            2
        }
    });
    ordered
}

/// `+0.00% / +2.00% MORE`: each direction's change in instructions per byte.
fn instructions_text(row: &Row) -> String {
    if row.instructions.is_empty() {
        return if row.instructions_not_judged.is_some() {
            "not judged".to_string()
        } else {
            String::new()
        };
    }
    let text: Vec<String> = row
        .instructions
        .iter()
        .map(|(_, c)| format!("{:+.2}%", c.change * 100.0))
        .collect();
    let mut text = text.join(" / ");
    if row.instructions_regressed() {
        text.push_str(" MORE");
    }
    text
}

/// The comparison's table, of cells or of encodings, and its summary below.
pub(crate) fn document(comparison: &Comparison) -> Document {
    let mut document = Document::new();
    document
        .table(rows_table(comparison, &ordered_rows(comparison)))
        .notes(summary_lines(comparison));
    document
}

/// The rows that stand out (see [`stands_out`]) and the rest, each in the order the text
/// table has them.
pub(crate) fn split_rows(comparison: &Comparison) -> (Vec<&Row>, Vec<&Row>) {
    ordered_rows(comparison)
        .into_iter()
        .partition(|row| stands_out(row))
}

/// `rows` as the comparison's kind of table.
pub(crate) fn rows_table(comparison: &Comparison, rows: &[&Row]) -> Table {
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|row| match &row.key {
            RowKey::Cell(key) => cell_row(row, key),
            RowKey::Http(key) => http_row(row, key),
            RowKey::Probe(key) => probe_row(row, key),
        })
        .collect();
    let counted = comparison.rows.iter().any(|r| !r.instructions.is_empty());
    match comparison.kind {
        "run" if counted => {
            // One more column: each direction's change in instructions per byte.
            let mut header = HEADER.to_vec();
            header.push("instructions c / d");
            let mut numeric = NUMERIC.to_vec();
            numeric.push(true);
            let texts = texts
                .into_iter()
                .zip(rows)
                .map(|(mut cells, row)| {
                    cells.push(instructions_text(row));
                    cells
                })
                .collect();
            Table::new(&header, &numeric, texts)
        }
        "http" => Table::new(&HTTP_HEADER, &HTTP_NUMERIC, texts),
        "probe" if one_url(comparison).is_some() => {
            // One URL is named once, under the table, rather than on every row.
            let texts = texts.into_iter().map(|r| r[1..].to_vec()).collect();
            Table::new(&PROBE_HEADER[1..], &PROBE_NUMERIC[1..], texts)
        }
        "probe" => Table::new(&PROBE_HEADER, &PROBE_NUMERIC, texts),
        _ => Table::new(&HEADER, &NUMERIC, texts),
    }
}

/// The comparison as pretty JSON.
pub(crate) fn render_json(comparison: &Comparison) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(comparison).expect("comparison serialises");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{compare, CompareOptions};
    use crate::results::{CellKey, FixtureCell, LoadedRun};
    use crate::stats::Summary;

    fn run(label: &str, gzip_seconds: f64, gzip_bytes: u64) -> LoadedRun {
        let cell = |codec: &str, level: i32, bytes: u64, median: f64| {
            let samples = (0..9).map(|i| median * (1.0 + 0.002 * i as f64)).collect();
            let timing = Summary::for_test(median, samples);
            let key = CellKey::new("small", codec, level);
            FixtureCell::new(key, 298_727, bytes, timing.clone(), timing)
        };
        LoadedRun::of_cells(
            label,
            vec![
                cell("zstd", 1, 41_132, 0.0005),
                cell("gzip", 1, gzip_bytes, gzip_seconds),
            ],
        )
    }

    /// Normalised to zstd:1 with a 10% threshold.
    fn options() -> CompareOptions {
        CompareOptions::default()
    }

    fn comparison() -> Comparison {
        compare(
            &run("base", 0.001, 69_832),
            &run("cand", 0.00125, 69_833),
            &options(),
        )
        .unwrap()
    }

    #[test]
    fn comparison_table_snapshot() {
        insta::assert_snapshot!(crate::export::text::table::render(&document(&comparison())));
    }

    #[test]
    fn comparison_markdown_snapshot() {
        insta::assert_snapshot!(crate::export::text::markdown::render(&document(
            &comparison()
        )));
    }

    /// The HTTP fixture against itself with gzip:1's body 7 bytes larger and its
    /// latency doubled.
    fn http_comparison() -> Comparison {
        let report = crate::export::http::fixtures::report();
        let load = |report: &crate::results::http::HttpReport, label: &str| {
            let json = crate::export::http::render_json(report, None);
            crate::results::parse(&json, label, label).unwrap()
        };
        let mut slower = report.clone();
        let gzip = &mut slower.payloads[0].encodings[1];
        gzip.body_bytes += 7.0;
        gzip.p50_ms *= 2.0;
        gzip.latencies_ms.iter_mut().for_each(|ms| *ms *= 2.0);
        compare(
            &load(&report, "base.json"),
            &load(&slower, "cand.json"),
            &options(),
        )
        .unwrap()
    }

    #[test]
    fn http_comparison_table_snapshot() {
        let comparison = http_comparison();
        assert!(comparison.failed());
        insta::assert_snapshot!(crate::export::text::table::render(&document(&comparison)));
    }

    /// The regression of [`comparison`], its timings from `processes` processes each.
    fn in_processes(processes: u32) -> Vec<String> {
        let runs = ["base", "cand"].map(|label| {
            let mut run = run(label, if label == "base" { 0.001 } else { 0.00125 }, 69_832);
            // Only a JSON run, which has an environment, says how many processes.
            run.environment = Some(crate::export::fixtures::report().environment);
            for payload in run.payloads_mut() {
                payload.processes = processes;
            }
            run
        });
        summary_lines(&compare(&runs[0], &runs[1], &options()).unwrap())
    }

    #[test]
    fn a_regression_in_one_process_says_what_else_it_can_be() {
        let one = in_processes(1);
        assert!(
            one.iter()
                .any(|l| l == "regression: small gzip 1 (zlib-rs)"),
            "{one:?}"
        );
        assert!(
            one.iter()
                .any(|l| l.starts_with("measured in one process: ")),
            "{one:?}"
        );
        let many = in_processes(15);
        assert!(
            many.iter().any(|l| l.starts_with("regression: ")),
            "{many:?}"
        );
        assert!(
            !many
                .iter()
                .any(|l| l.starts_with("measured in one process")),
            "{many:?}"
        );
        // A file that does not say (CSV) gets no guess.
        let unknown = summary_lines(&comparison());
        assert!(!unknown
            .iter()
            .any(|l| l.starts_with("measured in one process")));
    }

    #[test]
    fn comparison_json_names_the_verdicts() {
        let value: serde_json::Value = serde_json::from_slice(&render_json(&comparison())).unwrap();
        assert_eq!(value["rows"][1]["speeds"][0][1]["verdict"], "regressed");
        assert_eq!(value["rows"][0]["speeds"][0][1]["verdict"], "unchanged");
        assert_eq!(value["rows"][0]["is_reference"], true);
    }
}
