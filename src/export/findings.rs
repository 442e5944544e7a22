//! `reproduce`'s second table: the article's one-line finding body by body, zstd 1 against
//! zstd 3, br 1 and gzip 1 on size and compression speed, with a tally per comparison.

use super::text::document::{Document, Table};
use crate::analysis::reproduce::{BodyFinding, Speed, Versus, AGAINST};
use crate::format::thousands;
use crate::vocab::CodecKind;

/// `br 1`, as the table names a setting.
fn setting(codec: CodecKind, level: i32) -> String {
    format!("{} {level}", codec.content_coding())
}

/// `−12% B, 1.9x faster` or `+3% B, tie (1.02x)`.
fn cell(versus: Option<&Versus>) -> String {
    let Some(v) = versus else {
        return "not measured".into();
    };
    let bytes = format!("{:+.1}% B", (v.bytes_ratio - 1.0) * 100.0).replace('-', "−");
    let speed = match v.speed {
        Speed::Faster => format!("{:.2}x faster", v.speedup),
        Speed::Slower => format!("{:.2}x slower", 1.0 / v.speedup),
        Speed::Tie => format!("tie ({:.2}x)", v.speedup),
    };
    format!("{bytes}, {speed}")
}

/// One line per comparison: on how many bodies zstd 1 is smaller, and faster.
fn tally(findings: &[BodyFinding]) -> Vec<String> {
    AGAINST
        .iter()
        .enumerate()
        .map(|(i, &(codec, level))| {
            let measured: Vec<_> = findings.iter().filter_map(|f| f.versus[i]).collect();
            let smaller = measured.iter().filter(|v| v.bytes_ratio < 1.0).count();
            let count = |speed: Speed| measured.iter().filter(|v| v.speed == speed).count();
            format!(
                "zstd 1 against {}: smaller on {smaller} of {n} bodies; faster on {}, tied on {}, slower on {}.",
                setting(codec, level),
                count(Speed::Faster),
                count(Speed::Tie),
                count(Speed::Slower),
                n = measured.len(),
            )
        })
        .collect()
}

/// The section: a heading, the table, the tally. Nothing when no body has zstd 1.
pub(crate) fn add(document: &mut Document, findings: &[BodyFinding]) {
    if findings.is_empty() {
        return;
    }
    let mut header = vec!["body".to_string(), "bytes".to_string()];
    header.extend(
        AGAINST
            .iter()
            .map(|&(c, l)| format!("zstd 1 vs {}", setting(c, l))),
    );
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let rows = findings
        .iter()
        .map(|f| {
            let mut row = vec![f.payload.clone(), thousands(f.input_bytes)];
            row.extend(f.versus.iter().map(|v| cell(v.as_ref())));
            row
        })
        .collect();
    document
        .heading("The one-line finding, body by body")
        .paragraph(
            "zstd 1's bytes against each setting's, and its compression speed: faster or slower \
             where the times' 95% intervals, widened by the change between runs (10%), do not \
             overlap; a tie where they do.",
        )
        .gap()
        .table(Table::new(
            &header,
            &[false, true, false, false, false],
            rows,
        ))
        .gap()
        .prose(tally(findings));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_snapshot() {
        let versus = |bytes_ratio, speedup, speed| {
            Some(Versus {
                bytes_ratio,
                speedup,
                speed,
            })
        };
        let findings = vec![
            BodyFinding {
                payload: "small".into(),
                input_bytes: 298_727,
                versus: vec![
                    versus(41_132.0 / 43_644.0, 1.5, Speed::Faster),
                    versus(41_132.0 / 44_606.0, 1.02, Speed::Tie),
                    None,
                ],
            },
            BodyFinding {
                payload: "real-json/twitter.json".into(),
                input_bytes: 631_515,
                versus: vec![versus(1.08, 0.6, Speed::Slower), None, None],
            },
        ];
        let mut document = Document::new();
        add(&mut document, &findings);
        insta::assert_snapshot!(super::super::text::markdown::render(&document));
    }
}
