//! `recommend --weights FILE`: how often each body is served, so that the answer weighs a
//! body by its share of the traffic. A CSV of `payload,weight` rows, the payload named as
//! codecbench names it (`real-json/twitter.json`, `bodies/a.json`); a body the file does
//! not name weighs 1, as every body of a directory does by default.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The most bytes a weights file may hold: 16 MiB, 10,000 long names.
const MAX_WEIGHTS_BYTES: u64 = 16 * 1024 * 1024;

/// The weights `path` gives, checked: each row a payload name and a finite number above
/// 0, no name twice.
pub(crate) fn read(path: &Path) -> Result<Vec<(String, f64)>> {
    let bytes = crate::payload::read_limited(path, MAX_WEIGHTS_BYTES, "weights file")?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(&bytes[..]);
    let shown = path.display();
    let headers = reader
        .headers()
        .with_context(|| format!("weights file {shown} is not CSV"))?;
    if headers.iter().collect::<Vec<_>>() != ["payload", "weight"] {
        bail!("weights file {shown} must start with the header line payload,weight");
    }
    let mut weights: Vec<(String, f64)> = Vec::new();
    for (index, row) in reader.records().enumerate() {
        let line = index + 2;
        let row = row.with_context(|| format!("weights file {shown} line {line} is not CSV"))?;
        let (Some(name), Some(text), 2) = (row.get(0), row.get(1), row.len()) else {
            bail!("weights file {shown} line {line} must hold a payload and a weight");
        };
        let weight: f64 = text
            .trim()
            .parse()
            .ok()
            .filter(|w: &f64| w.is_finite() && *w > 0.0)
            .with_context(|| {
                format!("weights file {shown} line {line}: weight {text:?} is not a number above 0")
            })?;
        if weights.iter().any(|(n, _)| n == name) {
            bail!("weights file {shown} line {line} names {name:?} a second time");
        }
        weights.push((name.to_string(), weight));
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<Vec<(String, f64)>> {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text).unwrap();
        read(file.path())
    }

    #[test]
    fn rows_of_names_and_weights_are_read() {
        let weights = read_text("payload,weight\nbodies/a.json,90\n\"b, c.json\",0.5\n").unwrap();
        assert_eq!(
            weights,
            [("bodies/a.json".into(), 90.0), ("b, c.json".into(), 0.5)]
        );
    }

    #[test]
    fn a_bad_weight_header_or_repeat_is_one_line_naming_it() {
        let error = |text: &str| read_text(text).unwrap_err().to_string();
        assert!(error("name,w\na,1\n").contains("header line payload,weight"));
        assert!(error("payload,weight\na,-1\n")
            .contains("line 2: weight \"-1\" is not a number above 0"));
        assert!(error("payload,weight\na,NaN\n").contains("is not a number above 0"));
        assert!(error("payload,weight\na,1\na,2\n").contains("line 3 names \"a\" a second time"));
        assert!(error("payload,weight\na,1,2\n").contains("line 2"));
        assert!(error("payload,weight\na,\x1b[31m\n").contains("\\u{1b}"));
    }
}
