//! The shared [`Document`] as HTML: headings, real `<table>`s that sort by any column,
//! notes as lists. Verdicts keep their word and gain a colour.

use maud::{html, Markup};

use crate::export::text::document::{Block, Document, Table};

/// Columns the page's style can right-align, `n1` to `n16`.
const MAX_ALIGNED: usize = 16;

/// `document` as HTML; its level-1 headings become the page's sections.
pub(crate) fn markup(document: &Document) -> Markup {
    html! {
        @for block in &document.blocks {
            @match block {
                Block::Heading { level: 1, text } => h2 { (text) },
                Block::Heading { text, .. } => h3 { (text) },
                Block::Title(text) => p.title { strong { (text) } },
                Block::Table(table) => (self::table(table)),
                Block::Notes(lines) | Block::Prose(lines) => (notes(lines)),
                Block::Paragraph(text) => p { (text) },
                Block::Gap => {},
            }
        }
    }
}

/// Notes as a list; an indented line belongs to the one before it, as a nested item.
fn notes(lines: &[String]) -> Markup {
    let mut items: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in lines {
        match (line.strip_prefix("  "), items.last_mut()) {
            (Some(nested), Some((_, under))) => under.push(nested.trim_start()),
            _ => items.push((line.trim_start(), Vec::new())),
        }
    }
    html! {
        ul.notes {
            @for (line, under) in &items {
                li {
                    (line)
                    @if !under.is_empty() { ul { @for n in under { li { (n) } } } }
                }
            }
        }
    }
}

/// A table whose header sorts it (with the page's script); `(none)` without rows. Its
/// figure columns are right-aligned by classes on the table, not a class per cell: a
/// large matrix has tens of thousands of cells.
pub(crate) fn table(table: &Table) -> Markup {
    if table.rows.is_empty() {
        return html! { p { "(none)" } };
    }
    // `n3` right-aligns the third column: the page's style has a rule per column.
    let classes: Vec<String> = std::iter::once("sortable".to_string())
        .chain(
            (0..table.header.len().min(MAX_ALIGNED))
                .filter(|&i| table.numeric.get(i).copied().unwrap_or(false))
                .map(|i| format!("n{}", i + 1)),
        )
        .collect();
    // On a narrow screen the table scrolls inside its box, not the page sideways.
    html! {
        div.scroll { table class=(classes.join(" ")) {
            thead { tr {
                @for title in &table.header {
                    th scope="col" { (title.replace('\n', " ")) }
                }
            } }
            tbody {
                @for row in &table.rows {
                    tr {
                        @for text in row {
                            td class=[verdict_class(text)] { (text) }
                        }
                    }
                }
            }
        } }
    }
}

/// The class a cell's verdict word gives it, if it has one: `compare`'s words within a
/// figure, `reproduce`'s as the whole cell.
fn verdict_class(text: &str) -> Option<&'static str> {
    let whole = match text {
        "does not hold" => Some("regressed"),
        "partly" => Some("inconclusive"),
        _ => None,
    };
    whole.or_else(|| {
        [
            ("REGRESSED", "regressed"),
            ("SLOWER", "regressed"),
            ("FAILED", "failed"),
            ("DRIFT", "drift"),
            ("inconclusive", "inconclusive"),
            ("improved", "improved"),
        ]
        .into_iter()
        .find(|(word, _)| text.contains(word))
        .map(|(_, class)| class)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_keep_their_word_and_gain_a_class() {
        let table = Table::new(
            &["setting", "speed"],
            &[false, true],
            vec![vec!["gzip 1 <b>".into(), "+20.0% REGRESSED".into()]],
        );
        let html = super::table(&table).into_string();
        assert!(
            html.contains(r#"<td class="regressed">+20.0% REGRESSED</td>"#),
            "{html}"
        );
        assert!(html.contains(r#"<table class="sortable n2">"#), "{html}");
        assert!(html.contains("gzip 1 &lt;b&gt;"), "escaped: {html}");
    }
}
