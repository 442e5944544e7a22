//! The terminal renderer: comfy-table tables, headings as `== text ==`, notes as plain
//! lines. No colours or terminal probing, so the bytes are the same whether stdout is a
//! tty or a pipe.

use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment};

use super::document::{Block, Document, Table};

/// Draws `document` for a terminal.
pub fn render(document: &Document) -> String {
    let mut out = String::new();
    for block in &document.blocks {
        match block {
            Block::Heading { text, .. } => out.push_str(&format!("== {text} ==\n\n")),
            Block::Title(text) | Block::Paragraph(text) => {
                out.push_str(text);
                out.push('\n');
            }
            Block::Table(table) => out.push_str(&draw(table)),
            Block::Notes(lines) => {
                for line in lines {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            Block::Gap => out.push('\n'),
        }
    }
    out
}

/// One table with its header row; numeric columns right-aligned; `(none)` without rows.
fn draw(table: &Table) -> String {
    if table.rows.is_empty() {
        return "(none)\n".to_string();
    }
    let mut drawn = comfy_table::Table::new();
    drawn.force_no_tty().load_style(UTF8_FULL_CONDENSED);
    drawn.set_header(table.header.clone());
    drawn.add_rows(table.rows.iter().cloned());
    for (column, &right) in drawn.column_iter_mut().zip(&table.numeric) {
        if right {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    format!("{drawn}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{fixtures, matrix};

    #[test]
    fn table_snapshot() {
        let text = render(&matrix::document(&fixtures::report().payloads[0]));
        insta::assert_snapshot!(text);
    }
}
