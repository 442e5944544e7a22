//! The Markdown renderer: GitHub-flavoured tables, `#` headings, bold titles, notes as a
//! bullet list; for READMEs and CI job summaries.

use crate::export::text::document::{Block, Document, Table};

/// Draws `document` as Markdown.
pub(crate) fn render(document: &Document) -> String {
    let mut out = String::new();
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                let text = inline(text);
                out.push_str(&format!("{} {text}\n\n", "#".repeat(usize::from(*level))));
            }
            Block::Title(text) => out.push_str(&format!("**{}**\n\n", inline(text))),
            Block::Table(table) => out.push_str(&draw(table)),
            Block::Notes(lines) | Block::Prose(lines) => {
                out.push('\n');
                for line in lines {
                    // An indented line belongs to the one before: a nested item.
                    match line.strip_prefix("  ") {
                        Some(nested) => out.push_str(&format!("  - {}\n", inline(nested))),
                        None => out.push_str(&format!("- {}\n", inline(line))),
                    }
                }
            }
            Block::Paragraph(text) => {
                out.push_str(&inline(text));
                out.push('\n');
            }
            Block::Gap => out.push('\n'),
        }
    }
    out
}

/// One table; numeric columns right-aligned; `(none)` without rows.
fn draw(table: &Table) -> String {
    if table.rows.is_empty() {
        return "(none)\n".to_string();
    }
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    // A header's line break is ours, for the terminal's two-line headers: a space here.
    let mut out = line(
        table
            .header
            .iter()
            .map(|h| cell_text(&h.replace('\n', " ")))
            .collect(),
    );
    let alignment = (0..table.header.len())
        .map(|i| match table.numeric.get(i) {
            Some(true) => "---:".to_string(),
            _ => "---".to_string(),
        })
        .collect();
    out.push_str(&line(alignment));
    for row in &table.rows {
        out.push_str(&line(row.iter().map(|c| cell_text(c)).collect()));
    }
    out
}

/// A cell as Markdown: one line, with the characters Markdown would read as syntax
/// (`|` ends a cell, `*` starts emphasis) escaped.
fn cell_text(text: &str) -> String {
    inline(text).replace('|', "\\|").replace('*', "\\*")
}

/// Text as Markdown that renders as it reads, whatever a saved run holds: one line (a
/// line break shown as `\n`, as the terminal shows it, so it cannot start a heading or
/// a table), no raw HTML (`<` and `>` as entities) and no links or images (`[` and `]`
/// escaped).
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if crate::format::breaks_line(c) => {
                out.push_str(&crate::format::breaks_shown(c.encode_utf8(&mut [0; 4])))
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{fixtures, run::matrix};

    #[test]
    fn markdown_snapshot() {
        let text = render(&matrix::document(&fixtures::report().payloads[0]));
        insta::assert_snapshot!(text);
    }
}
