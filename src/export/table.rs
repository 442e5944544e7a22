//! The terminal table: one matrix per payload.

use super::{failure_lines, matrix_rows, matrix_title, text_table, MATRIX_HEADER, MATRIX_NUMERIC};
use crate::results::codec::PayloadResult;

/// One payload's matrix with its title line and any failures below it.
pub fn render_payload(payload: &PayloadResult) -> Vec<u8> {
    let table = text_table(&MATRIX_HEADER, &matrix_rows(payload), &MATRIX_NUMERIC);
    let mut out = format!("{}\n{table}", matrix_title(payload));
    for line in failure_lines(payload) {
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    #[test]
    fn table_snapshot() {
        let text = String::from_utf8(render_payload(&fixtures::report().payloads[0])).unwrap();
        insta::assert_snapshot!(text);
    }
}
