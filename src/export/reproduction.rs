//! Rendering `reproduce`: a row per claim of the article, as a terminal table or as the
//! Markdown of results/REPRODUCTION.md.

use super::{markdown_table, text_table};
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

/// The terminal table and a tally.
pub fn render_table(claims: &[Claim]) -> Vec<u8> {
    let mut out = text_table(&HEADER, &rows(claims), &NUMERIC);
    out.push_str(&tally(claims));
    out.push('\n');
    out.into_bytes()
}

/// results/REPRODUCTION.md: what was run, where, and the table.
pub fn render_markdown(claims: &[Claim], source: &str, machine: Option<&str>) -> Vec<u8> {
    let mut out = String::from("# Reproducing the article\n\n");
    out.push_str(&format!(
        "Written by `codecbench reproduce` from {source}{}.\n\n",
        machine
            .map(|m| format!(", measured on {m}"))
            .unwrap_or_default()
    ));
    out.push_str(
        "Sizes must match to the byte and ratios to two decimals. Speeds were measured on \
         another machine than the article's, so only their shape is checked; the rule for \
         each is in `src/reproduce.rs`. Brotli figures are Google's C library where the run \
         has it.\n\n",
    );
    out.push_str(&markdown_table(&HEADER, &rows(claims), &NUMERIC));
    out.push('\n');
    out.push_str(&tally(claims));
    out.push_str(".\n");
    out.into_bytes()
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
            String::from_utf8(render_markdown(&claims, "run.json", Some("Test CPU"))).unwrap();
        insta::assert_snapshot!(text);
    }
}
