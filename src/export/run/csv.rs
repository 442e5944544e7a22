//! CSV: one row per payload × codec × level.

use crate::export::csv;
use crate::results::columns;
use crate::results::run::{CellResult, PayloadResult, RunReport};
use crate::stats::Summary;

/// The header line.
pub(crate) fn header() -> Vec<u8> {
    csv::records([columns::run::ALL.map(String::from)])
}

/// One cell's row, header excluded, so rows can be appended as cells finish.
pub(crate) fn row(payload: &PayloadResult, cell: &CellResult) -> Vec<u8> {
    csv::records([fields(payload, cell)])
}

/// A whole report: header and every row.
#[cfg(test)]
pub(crate) fn render(report: &RunReport) -> Vec<u8> {
    render_with(report, None)
}

/// As [`render`], with `in_progress` (a payload still being measured) after the
/// finished ones, without copying the report.
pub(crate) fn render_with(report: &RunReport, in_progress: Option<&PayloadResult>) -> Vec<u8> {
    let mut out = header();
    for payload in report.payloads.iter().chain(in_progress) {
        for cell in &payload.cells {
            out.extend(row(payload, cell));
        }
    }
    out
}

/// One cell's row, in [`columns::run::ALL`] order.
fn fields(payload: &PayloadResult, cell: &CellResult) -> [String; 42] {
    let input = payload.input_bytes;
    let mut row = vec![
        payload.payload.clone(),
        input.to_string(),
        cell.id.codec.to_string(),
        cell.id.library.to_string(),
        cell.id.variant.to_string(),
        // `v1.5.7`: spreadsheets read a bare `1.5.7` as a date (2007-01-05).
        format!("v{}", cell.version),
        cell.id.level.to_string(),
        cell.dotnet_level.clone().unwrap_or_default(),
        cell.compressed_bytes.to_string(),
        csv::ratio(cell.ratio(input)),
        csv::figure(cell.compress_mb_s(input)),
        csv::figure(cell.decompress_mb_s(input)),
        payload.warmup.to_string(),
        payload.rounds.to_string(),
    ];
    row.extend(timing_fields(cell.compress.as_ref()));
    row.extend(timing_fields(cell.decompress.as_ref()));
    row.extend(cpu_fields(cell.compress.as_ref()));
    row.extend(cpu_fields(cell.decompress.as_ref()));
    row.extend([
        cell.encoder_bytes
            .map(|b| b.to_string())
            .unwrap_or_default(),
        cell.compress_instructions
            .map(|n| n.to_string())
            .unwrap_or_default(),
        cell.decompress_instructions
            .map(|n| n.to_string())
            .unwrap_or_default(),
        match cell.precision_met {
            Some(true) => "yes".to_string(),
            Some(false) => "no".to_string(),
            None => String::new(),
        },
        cell.status.name().to_string(),
        cell.failure.clone().unwrap_or_default(),
    ]);
    row.try_into().expect("one field per column")
}

/// One direction's nine columns: iterations, then median, min, max, mean, standard
/// deviation, MAD and the 95% interval of the median in ms, to 4 significant digits;
/// empty for a failed cell, and the two spreads empty for one sample, whose spread is
/// undefined rather than 0.
fn timing_fields(summary: Option<&Summary>) -> [String; 9] {
    let ms =
        |pick: fn(&Summary) -> Option<f64>| csv::figure(summary.and_then(pick).map(|s| s * 1e3));
    // A spread of one sample is undefined, not 0.
    fn spread(s: &Summary, value: f64) -> Option<f64> {
        (s.samples_s.len() > 1).then_some(value)
    }
    [
        summary
            .map(|s| s.samples_s.len().to_string())
            .unwrap_or_default(),
        ms(|s| Some(s.median_s)),
        ms(|s| Some(s.min_s)),
        ms(|s| Some(s.max_s)),
        ms(|s| Some(s.mean_s)),
        ms(|s| spread(s, s.stddev_s)),
        ms(|s| spread(s, s.mad_s)),
        ms(|s| s.median_ci95_low_s),
        ms(|s| s.median_ci95_high_s),
    ]
}

/// One direction's CPU time columns: the median and least, in ms; empty where it was
/// not measured.
fn cpu_fields(summary: Option<&Summary>) -> [String; 2] {
    let cpu = summary.and_then(|s| s.cpu.as_ref());
    [
        csv::figure(cpu.map(|c| c.median_s * 1e3)),
        csv::figure(cpu.map(|c| c.min_s * 1e3)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    #[test]
    fn csv_snapshot() {
        let csv = String::from_utf8(render(&fixtures::report())).unwrap();
        insta::assert_snapshot!(csv);
    }

    #[test]
    fn ratio_is_input_over_compressed_to_4_decimals() {
        let report = fixtures::report();
        let csv = render(&report);
        let mut reader = ::csv::Reader::from_reader(csv.as_slice());
        for record in reader.records() {
            let record = record.unwrap();
            let input: f64 = record[1].parse().unwrap();
            let compressed: f64 = record[8].parse().unwrap();
            let ratio: f64 = record[9].parse().unwrap();
            assert!((ratio - input / compressed).abs() <= 5e-5, "{ratio}");
            assert!(record[9].split('.').nth(1).is_some_and(|d| d.len() == 4));
        }
    }
}
