//! The terminal renderer: comfy-table tables, headings as `== text ==`, notes as plain
//! lines. No colours or terminal probing, so the bytes are the same whether stdout is a
//! tty or a pipe: tables fit `$COLUMNS` when it is set, else 100 columns, wrapping text
//! cells where they must.

use comfy_table::{
    presets::UTF8_FULL_CONDENSED, CellAlignment, ColumnConstraint, ContentArrangement,
};

/// The width tables fit when `$COLUMNS` does not say.
pub const DEFAULT_WIDTH: u16 = 100;

/// The width to fit: `$COLUMNS` if it holds a usable width, else [`DEFAULT_WIDTH`].
pub fn width() -> u16 {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<u16>().ok())
        .filter(|&w| w >= 40)
        .unwrap_or(DEFAULT_WIDTH)
}

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
    drawn
        .force_no_tty()
        .load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width());
    drawn.set_header(table.header.clone());
    drawn.add_rows(table.rows.iter().cloned());
    for (index, (column, &right)) in drawn.column_iter_mut().zip(&table.numeric).enumerate() {
        if right {
            column.set_cell_alignment(CellAlignment::Right);
        }
        // Figures never wrap, so text columns (and verdict words) give way instead.
        let words = table.rows.iter().any(|row| {
            row.get(index)
                .is_some_and(|cell| cell.chars().any(char::is_alphabetic))
        });
        if right && !words {
            column.set_constraint(ColumnConstraint::ContentWidth);
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
