//! The shared [`Document`] as HTML: headings, real `<table>`s that sort by any column,
//! notes as lists. Verdicts keep their word and gain a colour.

use maud::{html, Markup};

use crate::export::text::document::{Block, Document, Table};

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

/// A table whose header sorts it (with the page's script); `(none)` without rows.
pub(crate) fn table(table: &Table) -> Markup {
    if table.rows.is_empty() {
        return html! { p { "(none)" } };
    }
    let numeric = |i: usize| table.numeric.get(i).copied().unwrap_or(false);
    html! {
        table.sortable {
            thead { tr {
                @for (i, title) in table.header.iter().enumerate() {
                    th class=[numeric(i).then_some("num")] scope="col" { (title.replace('\n', " ")) }
                }
            } }
            tbody {
                @for row in &table.rows {
                    tr {
                        @for (i, text) in row.iter().enumerate() {
                            td class=[classes(numeric(i), text)]
                                data-v=[numeric(i).then(|| sort_value(text)).flatten()] { (text) }
                        }
                    }
                }
            }
        }
    }
}

/// A cell's classes: `num` for a figure, and its verdict's.
fn classes(numeric: bool, text: &str) -> Option<String> {
    let names: Vec<&str> = numeric
        .then_some("num")
        .into_iter()
        .chain(verdict_class(text))
        .collect();
    (!names.is_empty()).then(|| names.join(" "))
}

/// The class a cell's verdict word gives it, if it has one.
fn verdict_class(text: &str) -> Option<&'static str> {
    [
        ("REGRESSED", "regressed"),
        ("FAILED", "failed"),
        ("DRIFT", "drift"),
        ("inconclusive", "inconclusive"),
        ("improved", "improved"),
    ]
    .into_iter()
    .find(|(word, _)| text.contains(word))
    .map(|(_, class)| class)
}

/// The number a numeric cell sorts by: its leading figure (`41,132`, `+2.0%`, `6.84`),
/// without thousands separators; `None` for a cell that starts with none.
fn sort_value(text: &str) -> Option<String> {
    let text = text.trim_start();
    let figure: String = text
        .char_indices()
        .take_while(|&(i, c)| {
            c.is_ascii_digit() || c == '.' || c == ',' || (i == 0 && "+-−".contains(c))
        })
        .map(|(_, c)| if c == '−' { '-' } else { c })
        .filter(|&c| c != ',')
        .collect();
    figure.parse::<f64>().ok().map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_cells_sort_by_their_leading_figure() {
        assert_eq!(sort_value("41,132").as_deref(), Some("41132"));
        assert_eq!(sort_value("+2.0% ±1.0% REGRESSED").as_deref(), Some("2"));
        assert_eq!(sort_value("−3.5%").as_deref(), Some("-3.5"));
        assert_eq!(sort_value("6.84").as_deref(), Some("6.84"));
        assert_eq!(sort_value("n/a"), None);
        assert_eq!(sort_value(""), None);
    }

    #[test]
    fn verdicts_keep_their_word_and_gain_a_class() {
        let table = Table::new(
            &["setting", "speed"],
            &[false, true],
            vec![vec!["gzip 1 <b>".into(), "+20.0% REGRESSED".into()]],
        );
        let html = super::table(&table).into_string();
        assert!(
            html.contains(r#"<td class="num regressed" data-v="20">+20.0% REGRESSED</td>"#),
            "{html}"
        );
        assert!(html.contains("gzip 1 &lt;b&gt;"), "escaped: {html}");
    }
}
