//! One CSV record, its fields found by column name and checked as they are read: every
//! error names the line, the column and the field.

use std::borrow::Cow;

use anyhow::{bail, Context, Result};

/// The first characters a spreadsheet reads as a formula (OWASP, CSV injection).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text field as CSV writes it: one that a spreadsheet would read as a formula, or
/// that starts with the quote this adds, gets a leading `'` (OWASP's advice). Numbers
/// stay as they are. [`restored`] undoes it.
// NOTE: `restored` must stay this function's inverse.
pub(crate) fn defused(field: &str) -> Cow<'_, str> {
    let is_number = field.parse::<f64>().is_ok();
    match field.chars().next() {
        Some(first) if !is_number && (FORMULA_STARTS.contains(&first) || first == '\'') => {
            Cow::Owned(format!("'{field}"))
        }
        _ => Cow::Borrowed(field),
    }
}

/// A field as [`defused`] wrote it, read back: the `'` it added taken off.
pub(crate) fn restored(field: &str) -> &str {
    match field.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) || rest.starts_with('\'') => rest,
        _ => field,
    }
}

/// A CSV header, looked up by column name.
pub(super) struct Headers(pub csv::StringRecord);

impl Headers {
    /// Whether the file has column `name`.
    pub(super) fn has(&self, name: &str) -> bool {
        self.0.iter().any(|h| h == name)
    }

    fn index(&self, name: &str) -> Result<usize> {
        self.0
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("no column named {name}"))
    }
}

/// One record with its header and line number, for errors that name both.
pub(super) struct CsvRow<'a> {
    pub headers: &'a Headers,
    pub record: &'a csv::StringRecord,
    pub line: usize,
}

impl CsvRow<'_> {
    /// The field of column `name`, as it was before CSV defused it.
    pub(super) fn text(&self, name: &str) -> Result<&str> {
        Ok(restored(
            self.record.get(self.headers.index(name)?).unwrap_or(""),
        ))
    }

    /// The field of column `name`; `None` when it is empty or the file has no such
    /// column (older files lack some).
    pub(super) fn optional_text(&self, name: &str) -> Result<Option<&str>> {
        if !self.headers.has(name) {
            return Ok(None);
        }
        Ok(Some(self.text(name)?).filter(|t| !t.is_empty()))
    }

    /// The field of column `name` as a finite number.
    fn number(&self, name: &str) -> Result<f64> {
        let field = self.text(name)?;
        let line = self.line;
        let value: f64 = field
            .parse()
            .with_context(|| format!("line {line}: '{field}' in column {name} is not a number"))?;
        if !value.is_finite() {
            bail!("line {line}: '{field}' in column {name} is not finite");
        }
        Ok(value)
    }

    /// The field of column `name` as a whole number of at least `min`.
    pub(super) fn count(&self, name: &str, min: u64) -> Result<u64> {
        let value = self.number(name)?;
        // Integers above 2^53 are not exact in a double: no size gets near.
        if value.fract() != 0.0 || value < min as f64 || value > 9_007_199_254_740_992.0 {
            bail!(
                "line {}: '{}' in column {name} is not a whole number of at least {min}",
                self.line,
                self.text(name)?
            );
        }
        Ok(value as u64)
    }

    /// [`CsvRow::count`], or `None` for an empty or absent field.
    pub(super) fn optional_count(&self, name: &str, min: u64) -> Result<Option<u64>> {
        match self.optional_text(name)? {
            None => Ok(None),
            Some(_) => self.count(name, min).map(Some),
        }
    }

    /// The field of column `name` as a number above 0.
    pub(super) fn positive(&self, name: &str) -> Result<f64> {
        let value = self.number(name)?;
        if value <= 0.0 {
            bail!(
                "line {}: '{}' in column {name} must be above 0",
                self.line,
                self.text(name)?
            );
        }
        Ok(value)
    }

    /// The field of column `name` as a number of at least `min`.
    pub(super) fn at_least(&self, name: &str, min: f64) -> Result<f64> {
        let value = self.number(name)?;
        if value < min {
            bail!(
                "line {}: '{}' in column {name} must be at least {min}",
                self.line,
                self.text(name)?
            );
        }
        Ok(value)
    }

    /// [`CsvRow::at_least`], or `None` for an empty or absent field.
    pub(super) fn optional_number(&self, name: &str, min: f64) -> Result<Option<f64>> {
        match self.optional_text(name)? {
            None => Ok(None),
            Some(_) => self.at_least(name, min).map(Some),
        }
    }

    /// The field of column `name` parsed as a `T`.
    pub(super) fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        let field = self.text(name)?;
        field.parse().map_err(|e| {
            anyhow::anyhow!(
                "line {}: '{field}' in column {name} is not valid: {e}",
                self.line
            )
        })
    }

    /// [`CsvRow::parsed`], or `None` for an empty or absent field.
    pub(super) fn optional_parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        match self.optional_text(name)? {
            None => Ok(None),
            Some(_) => self.parsed(name).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_a_spreadsheet_would_run_is_defused_and_restored_exactly() {
        for (field, written) in [
            ("=SUM(2,5)", "'=SUM(2,5)"),
            ("+cmd", "'+cmd"),
            ("-2+3", "'-2+3"),
            ("@SUM(1)", "'@SUM(1)"),
            ("\tx", "'\tx"),
            ("'quoted", "''quoted"),
            ("-5", "-5"),
            ("+1.5", "+1.5"),
            ("small", "small"),
            ("", ""),
        ] {
            assert_eq!(defused(field), written, "{field:?}");
            assert_eq!(restored(&defused(field)), field, "{field:?}");
        }
    }
}
