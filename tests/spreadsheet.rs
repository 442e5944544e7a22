//! Every CSV codecbench writes reads back unchanged through a real spreadsheet importer:
//! gnumeric's `ssconvert` (Debian package `gnumeric`), which reads CSV as Excel and
//! LibreOffice do, turning anything that looks like a date into one.
//!
//! A cell reads back unchanged when it is the same text, the same number however
//! written (`0.01260` and `0.0126`), or the same truth value (`false` and `FALSE`).

use crate::common;

use std::path::Path;

use common::{codecbench, ssconvert_present, succeed, through_spreadsheet};

fn same_cell(written: &str, read: &str) -> bool {
    let number = |t: &str| t.parse::<f64>().ok();
    let truth = |t: &str| t.to_ascii_lowercase().parse::<bool>().ok();
    written == read
        || number(written).is_some_and(|w| number(read) == Some(w))
        || truth(written).is_some_and(|w| truth(read) == Some(w))
}

fn assert_reads_back(csv: &Path) {
    let written = std::fs::read_to_string(csv).unwrap();
    let read = through_spreadsheet(csv);
    let rows = |text: &str| -> Vec<csv::StringRecord> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(Result::unwrap)
            .collect()
    };
    let (written, read) = (rows(&written), rows(&read));
    assert_eq!(written.len(), read.len(), "{}", csv.display());
    for (line, (w, r)) in written.iter().zip(&read).enumerate() {
        for (column, (a, b)) in w.iter().zip(r.iter()).enumerate() {
            assert!(
                same_cell(a, b),
                "{} line {} column {}: wrote {a:?}, the spreadsheet read {b:?}",
                csv.display(),
                line + 1,
                column + 1
            );
        }
    }
}

#[test]
fn every_csv_reads_back_through_a_spreadsheet() {
    if !ssconvert_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    // Every library, so every version string: libzstd 1.5.7, brotli 1.0.9 and 9.1.1.
    succeed(
        codecbench()
            .args(["run", "--payload", "single"])
            .args(crate::common::EACH_CODEC_AT_1)
            .args(["--brotli-impl", "both", "--iterations", "3", "--quiet"])
            .arg("--export-csv")
            .arg(at("run.csv"))
            .arg("--export-json")
            .arg(at("run.json")),
    );
    succeed(
        codecbench()
            .args(["http", "--payload", "single", "--requests", "2", "--quiet"])
            .args(["--encodings", "zstd:1,br:1,gzip:1,identity", "--export-csv"])
            .arg(at("http.csv")),
    );
    let merged = succeed(
        codecbench()
            .args(["merge", "--format", "csv"])
            .arg(at("run.json"))
            .arg(at("run.csv")),
    );
    std::fs::write(at("merged.csv"), merged.stdout).unwrap();
    for name in ["run.csv", "http.csv", "merged.csv"] {
        assert_reads_back(&at(name));
    }
}
