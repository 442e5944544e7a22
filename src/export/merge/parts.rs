//! What the merged tables and CSVs of every kind share.

use crate::analysis::merge::{Merged, MergedRow};
use crate::export::csv;
use crate::results::defused_csv_field;

/// Which figures a merged table shows per run.
#[derive(Clone, Copy)]
pub(super) enum Speeds {
    /// MB/s.
    Raw,
    /// ÷ the reference cell of the same run.
    Normalized,
}

/// The ratio, marked where the runs disagree on the size.
pub(super) fn ratio_text(ratio: f64, sizes_agree: bool) -> String {
    format!(
        "{ratio:.2}{}",
        if sizes_agree { "" } else { " (sizes differ)" }
    )
}

/// A figure to 3 significant digits, or `-` where the run has none (a speed against a
/// reference the run lacks).
pub(super) fn figure_text(value: Option<f64>) -> String {
    value
        .map(|v| crate::format::significant(v, 3))
        .unwrap_or_else(|| "-".to_string())
}

/// A long-format CSV: `header`, then for each row and each run that has it, the row's
/// key fields and ratio, the run's label and machine, and the run's figures.
pub(super) fn long_csv<K, F>(
    merged: &Merged,
    header: &[&str],
    rows: &[MergedRow<K, F>],
    fields: impl Fn(&K) -> Vec<String>,
    figure_fields: impl Fn(&F) -> Vec<String>,
) -> Vec<u8> {
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    writer.write_record(header).expect("CSV into memory");
    for row in rows {
        let runs = merged.labels.iter().zip(&merged.machines);
        for ((label, machine), found) in runs.zip(&row.runs) {
            let Some(found) = found else { continue };
            let mut record = fields(&row.key);
            record.push(csv::ratio(Some(row.ratio)));
            record.push(label.clone());
            record.push(machine.clone().unwrap_or_default());
            record.extend(figure_fields(found));
            let record = record.iter().map(|f| defused_csv_field(f).into_owned());
            writer.write_record(record).expect("CSV into memory");
        }
    }
    writer.into_inner().expect("CSV into memory")
}
