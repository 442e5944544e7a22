//! The terminal renderer: comfy-table tables, headings as `== text ==`, notes as plain
//! lines. No colours or terminal probing, so the bytes are the same whether stdout is a
//! tty or a pipe: tables fit `$COLUMNS` when it is set, else 100 columns, wrapping text
//! cells where they must.

use comfy_table::{
    presets::UTF8_FULL_CONDENSED, CellAlignment, ColumnConstraint, ContentArrangement,
};

/// The width tables fit when `$COLUMNS` does not say.
pub(crate) const DEFAULT_WIDTH: u16 = 100;

/// The width to fit: `$COLUMNS` if it holds a usable width, else [`DEFAULT_WIDTH`].
pub(crate) fn width() -> u16 {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<u16>().ok())
        .filter(|&w| w >= 40)
        .unwrap_or(DEFAULT_WIDTH)
}

use crate::export::text::document::{Block, Document, Table};
use crate::format::breaks_shown;

/// Draws `document` for a terminal.
pub(crate) fn render(document: &Document) -> String {
    let mut out = String::new();
    for block in &document.blocks {
        match block {
            Block::Heading { text, .. } => {
                out.push_str(&format!("== {} ==\n\n", breaks_shown(text)))
            }
            // Sentences fit the width, as the tables do; a note's continuation hangs.
            Block::Title(text) | Block::Paragraph(text) => {
                out.push_str(&wrap_hanging(&breaks_shown(text), usize::from(width()), 0));
            }
            Block::Table(table) => out.push_str(&draw(table)),
            Block::Notes(lines) | Block::Prose(lines) => {
                for line in lines {
                    out.push_str(&wrap(&breaks_shown(line), usize::from(width())));
                }
            }
            Block::Gap => out.push('\n'),
        }
    }
    out
}

/// `line` broken at spaces to fit `width` columns, each continuation indented two
/// columns past the line's own indent; a word longer than the width stays whole.
fn wrap(line: &str, width: usize) -> String {
    wrap_hanging(line, width, 2)
}

/// `line` broken at spaces to fit `width` columns, continuations indented `hang`
/// columns past the line's own indent.
fn wrap_hanging(line: &str, width: usize, hang: usize) -> String {
    let indent = line.len() - line.trim_start().len();
    let hanging = " ".repeat(indent + hang);
    let mut out = String::new();
    let mut current = line[..indent].to_string();
    let mut empty = true;
    for word in line.split_whitespace() {
        let needed = current.chars().count() + usize::from(!empty) + word.chars().count();
        if !empty && needed > width {
            out.push_str(&current);
            out.push('\n');
            current = hanging.clone();
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    out.push_str(&current);
    out.push('\n');
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
    // A cell is one line whatever a name in it holds; a header's line break is ours.
    let rows = table.rows.iter();
    drawn.add_rows(rows.map(|row| row.iter().map(|cell| breaks_shown(cell))));
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
    #[test]
    fn long_notes_wrap_under_their_own_indent() {
        let text = super::wrap("  why: one two three four", 14);
        assert_eq!(text, "  why: one two\n    three four\n");
        assert_eq!(super::wrap("short", 80), "short\n");
        assert_eq!(
            super::wrap("averyveryverylongword x", 5),
            "averyveryverylongword\n  x\n"
        );
    }

    use super::*;
    use crate::export::{fixtures, run::matrix};

    #[test]
    fn table_snapshot() {
        let text = render(&matrix::document(&fixtures::report().payloads[0]));
        insta::assert_snapshot!(text);
    }
}
