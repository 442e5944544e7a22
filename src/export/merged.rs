//! Rendering merged runs: one row per setting, columns per run.

use super::document::{Document, Table};
use super::significant;
use crate::analysis::merge::Merged;

fn header(merged: &Merged) -> (Vec<String>, Vec<bool>) {
    let mut header: Vec<String> = ["payload", "codec", "library", "level", "ratio"]
        .map(String::from)
        .to_vec();
    let mut numeric = vec![false, false, false, true, true];
    for label in &merged.labels {
        for column in ["compress MB/s", "decompress MB/s"] {
            header.push(format!("{label} {column}"));
        }
        for column in ["compress", "decompress"] {
            header.push(format!("{label} {column} ÷ {}", merged.reference));
        }
        numeric.extend([true; 4]);
    }
    (header, numeric)
}

fn rows(merged: &Merged) -> Vec<Vec<String>> {
    let number = |v: Option<f64>| v.map(|v| significant(v, 3)).unwrap_or_default();
    merged
        .rows
        .iter()
        .map(|row| {
            let ratio = ratio_text(row.ratio, row.sizes_agree);
            let mut cells = vec![
                row.payload.clone(),
                row.id.codec.to_string(),
                super::library_text(&row.id),
                row.id.level.to_string(),
                ratio,
            ];
            for speeds in &row.runs {
                match speeds {
                    Some(s) => cells.extend([
                        number(s.compress_mb_s),
                        number(s.decompress_mb_s),
                        number(s.compress_normalized),
                        number(s.decompress_normalized),
                    ]),
                    None => cells.extend(std::iter::repeat_n(String::new(), 4)),
                }
            }
            cells
        })
        .collect()
}

fn http_header(merged: &Merged) -> (Vec<String>, Vec<bool>) {
    let mut header: Vec<String> = ["payload", "encoding", "load", "ratio"]
        .map(String::from)
        .to_vec();
    let mut numeric = vec![false, false, false, true];
    for label in &merged.labels {
        header.push(format!("{label} p50 ms"));
        header.push(format!("{label} req/s"));
        header.push(format!("{label} speed ÷ {}", merged.reference));
        numeric.extend([true; 3]);
    }
    (header, numeric)
}

fn http_rows(merged: &Merged) -> Vec<Vec<String>> {
    let number = |v: Option<f64>| v.map(|v| significant(v, 3)).unwrap_or_default();
    merged
        .http_rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.payload.clone(),
                row.encoding.label(),
                row.load.clone(),
                ratio_text(row.ratio, row.sizes_agree),
            ];
            for figures in &row.runs {
                match figures {
                    Some(f) => cells.extend([
                        number(Some(f.p50_ms)),
                        number(Some(f.requests_per_s)),
                        number(f.speed_normalized),
                    ]),
                    None => cells.extend(std::iter::repeat_n(String::new(), 3)),
                }
            }
            cells
        })
        .collect()
}

fn ratio_text(ratio: f64, sizes_agree: bool) -> String {
    format!(
        "{ratio:.2}{}",
        if sizes_agree { "" } else { " (sizes differ)" }
    )
}

/// The codec table if there are codec rows (or nothing at all), then the `http` table if
/// there are `http` rows, then each run's machine.
pub fn document(merged: &Merged) -> Document {
    let mut document = Document::new();
    if !merged.rows.is_empty() || merged.http_rows.is_empty() {
        let (header, numeric) = header(merged);
        document.table(Table::new(&header, &numeric, rows(merged)));
    }
    if !merged.http_rows.is_empty() {
        if !document.blocks.is_empty() {
            document.gap();
        }
        let (header, numeric) = http_header(merged);
        document.table(Table::new(&header, &numeric, http_rows(merged)));
    }
    document.notes(machine_lines(merged));
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

/// A long-format CSV: `header`, then for each row and each run that has it, the row's
/// own fields, the run's label and machine, and the run's figures.
fn long_csv<R, F>(
    merged: &Merged,
    header: &[&str],
    rows: &[R],
    fields: impl Fn(&R) -> Vec<String>,
    figures: impl Fn(&R) -> &[Option<F>],
    figure_fields: impl Fn(&F) -> Vec<String>,
) -> Vec<u8> {
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    writer.write_record(header).expect("CSV into memory");
    for row in rows {
        let runs = merged.labels.iter().zip(&merged.machines);
        for ((label, machine), found) in runs.zip(figures(row)) {
            let Some(found) = found else { continue };
            let mut record = fields(row);
            record.push(label.clone());
            record.push(machine.clone().unwrap_or_default());
            record.extend(figure_fields(found));
            writer.write_record(&record).expect("CSV into memory");
        }
    }
    writer.into_inner().expect("CSV into memory")
}

fn number(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The merged `http` runs as long-format CSV: one row per encoding and run.
pub fn render_http_csv(merged: &Merged) -> Vec<u8> {
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
        &merged.http_rows,
        |row| {
            vec![
                row.payload.clone(),
                row.encoding.label(),
                row.load.clone(),
                row.ratio.to_string(),
            ]
        },
        |row| &row.runs,
        |f| {
            vec![
                f.p50_ms.to_string(),
                f.requests_per_s.to_string(),
                f.wire_bytes.to_string(),
                number(f.speed_normalized),
            ]
        },
    )
}

/// The merged runs as long-format CSV: one row per setting and run.
pub fn render_csv(merged: &Merged) -> Vec<u8> {
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
        &merged.rows,
        |row| {
            vec![
                row.payload.clone(),
                row.id.codec.to_string(),
                super::library_text(&row.id),
                row.id.level.to_string(),
                row.ratio.to_string(),
            ]
        },
        |row| &row.runs,
        |s| {
            vec![
                number(s.compress_mb_s),
                number(s.decompress_mb_s),
                number(s.compress_normalized),
                number(s.decompress_normalized),
            ]
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::merge::merge;
    use crate::results::{CellKey, LoadedRun, RunCell, Timing};

    fn run(label: &str, machine: Option<&str>, scale: f64) -> LoadedRun {
        let cell = |codec: &str, level: i32, bytes: u64, median: f64| {
            RunCell::for_test(
                CellKey::new("small", codec, level),
                298_727,
                bytes,
                Timing::of(median * scale, vec![]),
                Timing::of(median * scale / 4.0, vec![]),
            )
        };
        LoadedRun {
            label: label.into(),
            machine: machine.map(String::from),
            results: crate::results::Results::Codec(vec![
                cell("zstd", 1, 41_132, 0.0005),
                cell("brotli", 1, 44_606, 0.0006),
            ]),
        }
    }

    fn merged() -> Merged {
        merge(
            &[
                run("epyc", Some("AMD EPYC, 2 cores, linux x86_64"), 1.0),
                run("laptop", None, 0.5),
            ],
            crate::codec::CodecKind::Zstd,
            1,
        )
    }

    #[test]
    fn merged_table_snapshot() {
        insta::assert_snapshot!(super::super::table::render(&document(&merged())));
    }

    #[test]
    fn merged_markdown_snapshot() {
        insta::assert_snapshot!(super::super::markdown::render(&document(&merged())));
    }

    fn merged_http() -> Merged {
        let report = crate::export::http::fixtures::report();
        let json = crate::export::http::render_json(&report, None);
        let csv = crate::export::http::render_csv(&report, None);
        let runs = [
            crate::results::parse(&json, "epyc.json", "epyc.json").unwrap(),
            crate::results::parse(&csv, "epyc.csv", "epyc.csv").unwrap(),
        ];
        merge(&runs, crate::codec::CodecKind::Zstd, 1)
    }

    #[test]
    fn merged_http_table_snapshot() {
        insta::assert_snapshot!(super::super::table::render(&document(&merged_http())));
    }

    #[test]
    fn merged_http_csv_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_http_csv(&merged_http())).unwrap());
    }

    #[test]
    fn merged_csv_snapshot() {
        insta::assert_snapshot!(String::from_utf8(render_csv(&merged())).unwrap());
    }
}
