//! Rendering `zstd-params`: one table per source size, each value the article lists
//! beside what libzstd selects, marked where they differ.

use super::text::document::{Document, Table};
use crate::analysis::zstd_params::{article_row, LevelParams};
use crate::format::thousands;

/// The levels of one source size: `None` for a stream of unknown size.
pub(crate) struct ParamsTable {
    /// Payload name and size, or `None` for the unknown-size table.
    pub source: Option<(String, u64)>,
    /// One entry per level.
    pub levels: Vec<LevelParams>,
}

const HEADER: [&str; 8] = [
    "level",
    "strategy",
    "windowLog",
    "chainLog",
    "hashLog",
    "searchLog",
    "minMatch",
    "targetLength",
];
const NUMERIC: [bool; 8] = [true, false, true, true, true, true, true, true];

/// `value`, or `value ≠ article` where the article printed something else.
fn beside<T: PartialEq + ToString>(value: T, article: Option<T>) -> String {
    match article {
        Some(a) if a != value => format!("{} ≠ {}", value.to_string(), a.to_string()),
        _ => value.to_string(),
    }
}

fn rows(table: &ParamsTable) -> Vec<Vec<String>> {
    table
        .levels
        .iter()
        .map(|p| {
            let article = article_row(p.level);
            vec![
                p.level.to_string(),
                beside(p.strategy, article.map(|a| a.1)),
                beside(p.window_log, article.map(|a| a.2)),
                beside(p.chain_log, article.map(|a| a.3)),
                beside(p.hash_log, article.map(|a| a.4)),
                p.search_log.to_string(),
                beside(p.min_match, article.map(|a| a.5)),
                p.target_length.to_string(),
            ]
        })
        .collect()
}

fn title(table: &ParamsTable) -> String {
    match &table.source {
        Some((name, bytes)) => format!(
            "{name}: {} bytes, size known (a one-shot call, or a pledged size)",
            thousands(*bytes)
        ),
        None => "size unknown (a streaming encoder with no pledged size, as codecbench and ASP.NET Core's middleware compress)".to_string(),
    }
}

const LEGEND: &str =
    "\"a ≠ b\": libzstd selects a where the article's table (levels 1 to 6) prints b.";

/// One titled table per source size, then the legend.
pub(crate) fn document(tables: &[ParamsTable]) -> Document {
    let mut document = Document::new();
    for table in tables {
        document
            .title(title(table))
            .table(Table::new(&HEADER, &NUMERIC, rows(table)))
            .gap();
    }
    document.paragraph(LEGEND);
    document
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::zstd_params::selected;

    #[test]
    fn text_snapshot() {
        let tables = [
            ParamsTable {
                source: Some(("small".into(), 298_727)),
                levels: (1..=4).map(|l| selected(l, Some(298_727))).collect(),
            },
            ParamsTable {
                source: None,
                levels: [-5, 1, 3, 19].map(|l| selected(l, None)).to_vec(),
            },
        ];
        insta::assert_snapshot!(super::super::text::table::render(&document(&tables)));
    }
}
