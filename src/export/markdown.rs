//! Markdown: one GitHub-flavoured table per payload, for READMEs and CI summaries.

use super::{
    failure_lines, markdown_table, matrix_rows, matrix_title, MATRIX_HEADER, MATRIX_NUMERIC,
};
use crate::results::codec::PayloadResult;

/// One payload's section: a heading line, the table, and any failures.
pub fn render_payload(payload: &PayloadResult) -> Vec<u8> {
    let mut out = format!("**{}**\n\n", matrix_title(payload));
    out.push_str(&markdown_table(
        &MATRIX_HEADER,
        &matrix_rows(payload),
        &MATRIX_NUMERIC,
    ));
    for line in failure_lines(payload) {
        out.push_str(&format!("\n{line}\n"));
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;

    #[test]
    fn markdown_snapshot() {
        let text = String::from_utf8(render_payload(&fixtures::report().payloads[0])).unwrap();
        insta::assert_snapshot!(text);
    }
}
