//! CSV for every export: records with each text field defused against spreadsheet
//! formulas, and measured figures written alike in every file.

use crate::results::defused_csv_field;

/// CSV records, each text field defused against spreadsheet formulas.
pub(crate) fn records<const N: usize>(records: impl IntoIterator<Item = [String; N]>) -> Vec<u8> {
    let mut writer = ::csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for record in records {
        // Text from outside (payload names, URLs, a server's headers) is defused.
        let fields = record.iter().map(|f| defused_csv_field(f).into_owned());
        // Writing to a Vec cannot fail.
        writer.write_record(fields).expect("CSV into memory");
    }
    writer.into_inner().expect("CSV into memory")
}

/// A measured figure for CSV: 4 significant digits (more digits than the noise allows
/// would be float noise, e.g. `32.401475999999995`), empty when absent.
pub(crate) fn figure(value: Option<f64>) -> String {
    value
        .map(|v| {
            let text = crate::format::significant(v, 4);
            // A decimal point always, so that a column of `1347` or `0` is not read as
            // integers in one file and as floats in the next (pandas, spreadsheets).
            match text.contains(['.', 'e', 'N', 'i']) {
                true => text,
                false => text + ".0",
            }
        })
        .unwrap_or_default()
}

/// A compression ratio for CSV: 4 decimals.
pub(crate) fn ratio(value: Option<f64>) -> String {
    value.map(|v| format!("{v:.4}")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_figures_keep_four_significant_digits() {
        assert_eq!(figure(Some(32.401475999999995)), "32.40");
        assert_eq!(figure(None), "");
        assert_eq!(figure(Some(1347.2)), "1347.0");
        assert_eq!(figure(Some(0.0)), "0.0");
    }
}
