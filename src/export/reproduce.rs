//! Rendering `reproduce`: a row per claim of the article, as a terminal table or as the
//! Markdown of results/REPRODUCTION.md.

use super::text::document::{Block, Document, Table};
use crate::analysis::reproduce::{BodyFinding, Claim, ClaimVerdict, Measured, RatioApi};
use crate::format::thousands;

const HEADER: [&str; 4] = ["claim", "article", "measured here", "verdict"];
const NUMERIC: [bool; 4] = [false, false, false, false];

fn rows(claims: &[Claim]) -> Vec<Vec<String>> {
    claims
        .iter()
        .map(|c| {
            vec![
                c.claim.clone(),
                c.article.clone(),
                measured_text(&c.measured),
                c.verdict.word().to_string(),
            ]
        })
        .collect()
}

/// A claim's measured figure as the table shows it.
pub(crate) fn measured_text(measured: &Measured) -> String {
    match measured {
        Measured::Missing => "cell missing from the run".into(),
        Measured::Bytes { bytes } => format!("{} B", thousands(*bytes)),
        Measured::Growth { input, output } => format!("{input} → {output} B"),
        Measured::Ratio { ratio, api } => {
            let text = format!("{ratio:.2}x ({ratio:.3})");
            match api {
                None => text,
                Some(RatioApi::OneShot) => format!("{text}, one-shot"),
                Some(RatioApi::Streamed) => {
                    format!("{text}, streamed (measure --api stream,oneshot for one-shot)")
                }
            }
        }
        Measured::CostAndSize { cpu, bytes } => {
            format!("{cpu:.2}x the CPU, {:+.1}% bytes", (bytes - 1.0) * 100.0)
        }
        Measured::Ratios {
            first_level,
            ratios,
        } => {
            let last = first_level + ratios.len() as i32 - 1;
            let text: Vec<String> = ratios.iter().map(|x| format!("{x:.2}")).collect();
            format!("levels {first_level}-{last}: {}", text.join(", "))
        }
        Measured::FirstLevel { level, last_level } => match level {
            Some(level) => format!("level {level}"),
            None => format!("none up to {last_level}"),
        },
        Measured::Throughputs { zstd, brotli } => {
            format!("{zstd:.0} vs {brotli:.0} MB/s ({:.2}x)", zstd / brotli)
        }
        Measured::Speedup { times } => format!("{times:.2}x"),
        Measured::Fastest {
            mb_s,
            fastest_level,
            fastest_mb_s,
        } => format!("{mb_s:.0} MB/s (fastest: level {fastest_level}, {fastest_mb_s:.0} MB/s)"),
        // In the unit the article uses for each: ms below a second, else s.
        Measured::Seconds { seconds } if *seconds < 1.0 => format!("{:.0} ms", seconds * 1e3),
        Measured::Seconds { seconds } => format!("{seconds:.2} s"),
        Measured::Sizes { .. } => measured.sizes_text(),
        Measured::Source { text } => text.clone(),
    }
}

/// `12 of 24 claims hold, 3 partly, …`.
fn tally(claims: &[Claim]) -> String {
    let count = |v: ClaimVerdict| claims.iter().filter(|c| c.verdict == v).count();
    format!(
        "{} claims: {} hold, {} partly, {} do not hold, {} changed upstream, {} not measured",
        claims.len(),
        count(ClaimVerdict::Holds),
        count(ClaimVerdict::Partly),
        count(ClaimVerdict::Fails),
        count(ClaimVerdict::ChangedUpstream),
        count(ClaimVerdict::Unmeasured)
    )
}

/// The claims' table and a tally, where the run has any of the article's cells; else
/// what it does hold (`held`, cells per payload), as a run stopped early has.
fn add_claims(document: &mut Document, claims: &[Claim], held: &[(String, usize)]) {
    // Claims read from upstream source need no cell; the rest need the article's bodies.
    let from_source = |c: &Claim| matches!(c.measured, Measured::Source { .. });
    if claims
        .iter()
        .all(|c| c.verdict == ClaimVerdict::Unmeasured || from_source(c))
    {
        let has = match held {
            [] => "it holds no cell".to_string(),
            _ => format!(
                "it holds {}",
                held.iter()
                    .map(|(payload, cells)| format!(
                        "{} on {payload}",
                        crate::format::count(*cells as u64, "cell")
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        document.paragraph(format!(
            "The article's claims need its payloads (single, small, large) at the settings \
             they name; this run has none of those cells: {has}."
        ));
        return;
    }
    // A claim the run holds no cell for is named once below, not a row of blanks.
    let (unmeasured, measured): (Vec<Claim>, Vec<Claim>) = claims
        .iter()
        .cloned()
        .partition(|c| c.verdict == ClaimVerdict::Unmeasured);
    document
        .table(Table::new(&HEADER, &NUMERIC, rows(&measured)))
        .gap()
        .paragraph(format!("{}.", tally(claims)));
    if !unmeasured.is_empty() {
        let names: Vec<&str> = unmeasured.iter().map(|c| c.claim.as_str()).collect();
        document.paragraph(format!(
            "Not measured, for want of the cells they name: {}.",
            names.join("; ")
        ));
    }
}

/// The claims and the finding body by body, for the terminal.
pub(crate) fn document(
    claims: &[Claim],
    findings: &[BodyFinding],
    held: &[(String, usize)],
) -> Document {
    let mut document = Document::new();
    add_claims(&mut document, claims, held);
    document.gap();
    super::findings::add(&mut document, findings);
    document
}

/// results/REPRODUCTION.md: what was run, where, the claims and the finding body by body.
pub(crate) fn file_document(
    claims: &[Claim],
    findings: &[BodyFinding],
    source: &str,
    machine: Option<&str>,
    held: &[(String, usize)],
) -> Document {
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
        .gap();
    add_claims(&mut document, claims, held);
    document.gap();
    super::findings::add(&mut document, findings);
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
                measured: Measured::Bytes { bytes: 41_132 },
                verdict: ClaimVerdict::Holds,
            },
            Claim {
                claim: "large: the first zstd level to beat level 1's ratio again".into(),
                article: "level 9".into(),
                measured: Measured::FirstLevel {
                    level: Some(16),
                    last_level: 19,
                },
                verdict: ClaimVerdict::Fails,
            },
        ];
        let text = super::super::text::markdown::render(&file_document(
            &claims,
            &[],
            "run.json",
            Some("Test CPU"),
            &[],
        ));
        insta::assert_snapshot!(text);
    }
}
