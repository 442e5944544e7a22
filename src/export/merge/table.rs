//! Rendering merged runs: one row per setting, columns per run.

use crate::analysis::merge::{HttpFigures, Merged, MergedRow, MergedTable, RunSpeeds};
use crate::export::csv;
use crate::export::merge::parts::{figure_text, long_csv, ratio_text, Speeds};
use crate::export::text::document::{Document, Table};
use crate::format::significant;
use crate::results::{CellKey, HttpKey};

/// One codec table: a row per setting, one `compress / decompress` column per run, so
/// that two runs fit 100 columns.
fn codec_table(labels: &[String], rows: &[MergedRow<CellKey, RunSpeeds>], speeds: Speeds) -> Table {
    let mut header: Vec<String> = ["payload", "setting", "ratio"].map(String::from).to_vec();
    header.extend(labels.iter().cloned());
    let mut numeric = vec![false, false, true];
    numeric.extend(labels.iter().map(|_| true));
    let rows = rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.key.payload.clone(),
                row.key.id.to_string(),
                ratio_text(row.ratio, row.sizes_agree),
            ];
            cells.extend(row.runs.iter().map(|run| match (run, speeds) {
                (None, _) => String::new(),
                (Some(s), Speeds::Raw) => {
                    format!(
                        "{} / {}",
                        figure_text(s.compress_mb_s),
                        figure_text(s.decompress_mb_s)
                    )
                }
                (Some(s), Speeds::Normalized) => format!(
                    "{} / {}",
                    figure_text(s.compress_normalized),
                    figure_text(s.decompress_normalized)
                ),
            }));
            cells
        })
        .collect();
    Table::new(&header, &numeric, rows)
}

/// One `http` table: a row per encoding and load, one column per run holding
/// `p50 ms / req/s`, or the speed ÷ the reference encoding.
fn http_table(
    labels: &[String],
    rows: &[MergedRow<HttpKey, HttpFigures>],
    speeds: Speeds,
) -> Table {
    let mut header: Vec<String> = ["payload", "encoding", "load", "ratio"]
        .map(String::from)
        .to_vec();
    header.extend(labels.iter().cloned());
    let mut numeric = vec![false, false, false, true];
    numeric.extend(labels.iter().map(|_| true));
    let rows = rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.key.payload.clone(),
                row.key.encoding.label(),
                row.key.load.clone(),
                ratio_text(row.ratio, row.sizes_agree),
            ];
            cells.extend(row.runs.iter().map(|run| match (run, speeds) {
                (None, _) => String::new(),
                (Some(f), Speeds::Raw) => format!(
                    "{} / {}",
                    significant(f.p50_ms, 3),
                    significant(f.requests_per_s, 3)
                ),
                (Some(f), Speeds::Normalized) => figure_text(f.speed_normalized),
            }));
            cells
        })
        .collect();
    Table::new(&header, &numeric, rows)
}

/// The titles of a kind's raw and normalised tables, against `reference`.
fn titles(table: &MergedTable, reference: &str) -> [String; 2] {
    match table {
        MergedTable::Codec(_) => [
            "Compress / decompress MB/s, per run:".to_string(),
            format!("Compress / decompress speed ÷ {reference} of each run (above 1: faster):"),
        ],
        MergedTable::Http(_) => [
            "HTTP: p50 ms / requests per second, per run:".to_string(),
            format!("HTTP: {reference} p50 ÷ this p50, in each run and load (above 1: faster):"),
        ],
        MergedTable::Probe(_) => [
            "Probe: what the server sent, body bytes / p50 ms to the last byte, per probe:"
                .to_string(),
            "Probe: the identity request's p50 ÷ this p50, per URL and probe (above 1: faster):"
                .to_string(),
        ],
    }
}

/// `table` drawn with `speeds`.
fn draw(labels: &[String], table: &MergedTable, speeds: Speeds) -> Table {
    match table {
        MergedTable::Codec(rows) => codec_table(labels, rows, speeds),
        MergedTable::Http(rows) => http_table(labels, rows, speeds),
        MergedTable::Probe(rows) => crate::export::merge::probe::table(labels, rows, speeds),
    }
}

/// Each kind's tables, codec cells first, then `http`, then probes, then each run's
/// machine. Each kind has a raw table and a normalised one.
pub(crate) fn document(merged: &Merged) -> Document {
    let mut document = Document::new();
    for table in &merged.tables {
        let [raw, normalized] = titles(table, &merged.reference);
        if !document.blocks.is_empty() {
            document.gap();
        }
        let labels = &merged.labels;
        document
            .title(raw)
            .table(draw(labels, table, Speeds::Raw))
            .gap();
        let normalised = draw(labels, table, Speeds::Normalized);
        document.title(normalized).table(normalised);
    }
    let mut notes = machine_lines(merged);
    for table in &merged.tables {
        if let MergedTable::Probe(rows) = table {
            notes.extend(crate::export::merge::probe::notes(rows));
        }
    }
    document.notes(notes);
    document
}

/// Each run's label and machine, one line each.
fn machine_lines(merged: &Merged) -> Vec<String> {
    merged
        .labels
        .iter()
        .zip(&merged.machines)
        .map(|(label, machine)| {
            format!(
                "{label}: {}",
                machine.as_deref().unwrap_or("machine unknown (CSV)")
            )
        })
        .collect()
}

/// The merged runs as long-format CSV, one row per result and run: one kind of result
/// only, as one CSV has one set of columns.
pub(crate) fn render_csv(merged: &Merged) -> anyhow::Result<Vec<u8>> {
    Ok(match merged.tables.as_slice() {
        [MergedTable::Codec(rows)] => codec_csv(merged, rows),
        [MergedTable::Http(rows)] => http_csv(merged, rows),
        [MergedTable::Probe(rows)] => crate::export::merge::probe::render_csv(merged, rows),
        _ => anyhow::bail!(
            "merge --format csv takes runs of one kind: these mix `run`, `http` and `probe` results; merge each kind separately"
        ),
    })
}

/// The merged `http` runs as long-format CSV: one row per encoding and run.
fn http_csv(merged: &Merged, rows: &[MergedRow<HttpKey, HttpFigures>]) -> Vec<u8> {
    long_csv(
        merged,
        &[
            "payload",
            "http_encoding",
            "http_load",
            "http_ratio",
            "run",
            "machine",
            "http_p50_ms",
            "http_requests_per_s",
            "http_wire_bytes",
            "http_speed_normalized",
        ],
        rows,
        |key| vec![key.payload.clone(), key.encoding.label(), key.load.clone()],
        |f| {
            vec![
                csv::figure(Some(f.p50_ms)),
                csv::figure(Some(f.requests_per_s)),
                format!("{:.0}", f.wire_bytes),
                csv::figure(f.speed_normalized),
            ]
        },
    )
}

/// The merged `run` runs as long-format CSV: one row per setting and run.
fn codec_csv(merged: &Merged, rows: &[MergedRow<CellKey, RunSpeeds>]) -> Vec<u8> {
    long_csv(
        merged,
        &[
            "payload",
            "codec",
            "library",
            "level",
            "ratio",
            "run",
            "machine",
            "compress_mb_s",
            "decompress_mb_s",
            "compress_normalized",
            "decompress_normalized",
        ],
        rows,
        |key| {
            vec![
                key.payload.clone(),
                key.id.codec.to_string(),
                crate::export::labels::library_text(&key.id),
                key.id.level.to_string(),
            ]
        },
        |s| {
            vec![
                csv::figure(s.compress_mb_s),
                csv::figure(s.decompress_mb_s),
                csv::figure(s.compress_normalized),
                csv::figure(s.decompress_normalized),
            ]
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::merge::merge;
    use crate::results::environment::Environment;
    use crate::results::{CellKey, FixtureCell, LoadedRun};
    use crate::stats::Summary;

    /// A run on a machine with this CPU (2 cores, linux x86_64), or from CSV.
    fn run(label: &str, cpu: Option<&str>, scale: f64) -> LoadedRun {
        let cell = |codec: &str, level: i32, bytes: u64, median: f64| {
            FixtureCell::new(
                CellKey::new("small", codec, level),
                298_727,
                bytes,
                Summary::for_test(median * scale, vec![]),
                Summary::for_test(median * scale / 4.0, vec![]),
            )
        };
        let mut run = LoadedRun::of_cells(
            label,
            vec![
                cell("zstd", 1, 41_132, 0.0005),
                cell("brotli", 1, 44_606, 0.0006),
            ],
        );
        run.environment = cpu.map(|cpu| Environment {
            cpu: Some(cpu.into()),
            ..crate::export::fixtures::report().environment
        });
        run
    }

    fn merged() -> Merged {
        merge(
            &[run("epyc", Some("AMD EPYC"), 1.0), run("laptop", None, 0.5)],
            crate::vocab::CodecKind::Zstd,
            1,
        )
    }

    #[test]
    fn merged_table_snapshot() {
        insta::assert_snapshot!(crate::export::text::table::render(&document(&merged())));
    }

    #[test]
    fn merged_markdown_snapshot() {
        insta::assert_snapshot!(crate::export::text::markdown::render(&document(&merged())));
    }

    fn merged_http() -> Merged {
        let report = crate::export::http::fixtures::report();
        let json = crate::export::http::render_json(&report, None);
        let csv = crate::export::http::render_csv(&report, None);
        let runs = [
            crate::results::parse(&json, "epyc.json", "epyc.json").unwrap(),
            crate::results::parse(&csv, "epyc.csv", "epyc.csv").unwrap(),
        ];
        merge(&runs, crate::vocab::CodecKind::Zstd, 1)
    }

    #[test]
    fn merged_http_table_snapshot() {
        insta::assert_snapshot!(crate::export::text::table::render(
            &document(&merged_http())
        ));
    }

    #[test]
    fn merged_http_csv_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_csv(&merged_http()).unwrap()).unwrap());
    }

    #[test]
    fn merged_csv_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_csv(&merged()).unwrap()).unwrap());
    }
}
