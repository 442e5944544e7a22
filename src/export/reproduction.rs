//! Rendering `reproduce`: a row per claim of the article, as a terminal table or as the
//! Markdown of results/REPRODUCTION.md.

use super::document::{Block, Document, Table};
use crate::analysis::reproduce::{Claim, Verdict};

const HEADER: [&str; 4] = ["claim", "article", "measured here", "verdict"];
const NUMERIC: [bool; 4] = [false, false, false, false];

fn rows(claims: &[Claim]) -> Vec<Vec<String>> {
    claims
        .iter()
        .map(|c| {
            vec![
                c.claim.clone(),
                c.article.clone(),
                c.measured.clone(),
                c.verdict.word().to_string(),
            ]
        })
        .collect()
}

/// `12 of 24 claims hold, 3 partly, …`.
fn tally(claims: &[Claim]) -> String {
    let count = |v: Verdict| claims.iter().filter(|c| c.verdict == v).count();
    format!(
        "{} claims: {} hold, {} partly, {} do not hold, {} not measured",
        claims.len(),
        count(Verdict::Holds),
        count(Verdict::Partly),
        count(Verdict::Fails),
        count(Verdict::Unmeasured)
    )
}

/// The claims' table and a tally, for the terminal.
pub fn document(claims: &[Claim]) -> Document {
    let mut document = Document::new();
    document
        .table(Table::new(&HEADER, &NUMERIC, rows(claims)))
        .paragraph(tally(claims));
    document
}

/// results/REPRODUCTION.md: what was run, where, and the table.
pub fn file_document(claims: &[Claim], source: &str, machine: Option<&str>) -> Document {
    let mut document = Document::new();
    document
        .push(Block::Heading {
            level: 1,
            text: "Reproducing the article".into(),
        })
        .paragraph(format!(
            "Written by `codecbench reproduce` from {source}{}.",
            machine
                .map(|m| format!(", measured on {m}"))
                .unwrap_or_default()
        ))
        .gap()
        .paragraph(
            "Sizes must match to the byte and ratios to two decimals. Speeds were measured on \
             another machine than the article's, so only their shape is checked; the rule for \
             each is in `src/analysis/reproduce/claims.rs`. Brotli figures are Google's C \
             library where the run has it.",
        )
        .gap()
        .table(Table::new(&HEADER, &NUMERIC, rows(claims)))
        .gap()
        .paragraph(format!("{}.", tally(claims)));
    document
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_snapshot() {
        let claims = vec![
            Claim {
                claim: "small, zstd 1 (streaming)".into(),
                article: "41,132 B".into(),
                measured: "41,132 B".into(),
                verdict: Verdict::Holds,
            },
            Claim {
                claim: "large: the first zstd level to beat level 1's ratio again".into(),
                article: "level 9".into(),
                measured: "level 16".into(),
                verdict: Verdict::Fails,
            },
        ];
        let text =
            super::super::markdown::render(&file_document(&claims, "run.json", Some("Test CPU")));
        insta::assert_snapshot!(text);
    }
}
