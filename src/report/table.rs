//! The terminal table: one matrix per payload.

use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table};

use super::{failure_lines, matrix_rows, matrix_title, MATRIX_HEADER, MATRIX_NUMERIC};
use crate::bench::result::{PayloadResult, RunReport};

/// One payload's matrix with its title line and any failures below it.
pub fn render_payload(payload: &PayloadResult) -> Vec<u8> {
    let mut table = Table::new();
    // No colours or terminal probing: the same bytes whether stdout is a tty or a pipe.
    table.force_no_tty().load_style(UTF8_FULL_CONDENSED);
    table.set_header(MATRIX_HEADER);
    table.add_rows(matrix_rows(payload));
    for (column, numeric) in table.column_iter_mut().zip(MATRIX_NUMERIC) {
        if numeric {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = format!("{}\n{table}\n", matrix_title(payload));
    for line in failure_lines(payload) {
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

/// Every payload's matrix, separated by blank lines.
pub fn render(report: &RunReport) -> Vec<u8> {
    let parts: Vec<Vec<u8>> = report.payloads.iter().map(render_payload).collect();
    parts.join(&b"\n"[..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    #[test]
    fn table_snapshot() {
        let text = String::from_utf8(render(&fixtures::report())).unwrap();
        insta::assert_snapshot!(text);
    }
}
