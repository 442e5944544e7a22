//! The warning after a payload whose medians are less precise than `compare` needs
//! (see [`Noise`]: their 95% interval too wide, or a slow start): a line per payload
//! naming the worst timing, a line with only the remedies not already in use, and a
//! line per timing with `--verbose`.

use crate::results::run::PayloadResult;
use crate::stats::Noise;

/// The warning for one payload, ending in a newline; `None` when every timing is
/// precise. `remedies` are the options worth trying, in the order to try them.
pub(crate) fn warning(
    payload: &PayloadResult,
    remedies: &[String],
    verbose: bool,
) -> Option<String> {
    let noisy = noisy(payload);
    let summary = summary_of(payload, &noisy)?;
    // Two short lines rather than one of 150 columns: what is wrong, then what to do.
    let mut text = format!(
        "codecbench: warning: {}\n",
        crate::format::one_line(&summary)
    );
    let mut next = Vec::new();
    if !remedies.is_empty() {
        next.push(format!("try {}", remedies.join(", ")));
    }
    if !verbose {
        next.push("-v lists them".to_string());
    }
    if !next.is_empty() {
        text.push_str(&format!("  {}\n", next.join("; ")));
    }
    if verbose {
        for (timing, noise) in &noisy {
            text.push_str(&format!("  {timing}: {noise}\n"));
        }
    }
    Some(text)
}

/// How many of the payload's medians are imprecise, and the worst: the warning's
/// sentence alone, for a page that lists every interval anyway.
pub(crate) fn summary(payload: &PayloadResult) -> Option<String> {
    summary_of(payload, &noisy(payload))
}

fn summary_of(payload: &PayloadResult, noisy: &[(String, Noise)]) -> Option<String> {
    let (worst, worst_noise) = noisy
        .iter()
        .max_by(|a, b| severity(a.1).total_cmp(&severity(b.1)))?;
    Some(format!(
        "{}: {} of {} medians imprecise, worst {worst} {worst_noise}",
        payload.payload,
        noisy.len(),
        2 * payload.cells.len()
    ))
}

/// Each imprecise timing, named `zstd 1 (libzstd) decompress`, with its noise.
fn noisy(payload: &PayloadResult) -> Vec<(String, Noise)> {
    payload
        .cells
        .iter()
        .flat_map(|cell| {
            [
                ("compress", &cell.compress),
                ("decompress", &cell.decompress),
            ]
            .into_iter()
            .filter_map(move |(direction, summary)| {
                let noise = summary.as_ref()?.noise()?;
                Some((format!("{} {direction}", cell.id), noise))
            })
        })
        .collect()
}

/// How bad a noise is, to pick the worst: the interval's half-width, or for a slow start
/// the excess of the first iterations.
fn severity(noise: Noise) -> f64 {
    match noise {
        Noise::Imprecise(ratio) => ratio,
        Noise::SlowStart(ratio) => ratio - 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fixtures;
    use crate::stats::Summary;

    #[test]
    fn two_short_lines_name_the_worst_and_the_remedies_and_verbose_lists_each() {
        let mut payload = fixtures::report().payloads[0].clone();
        // Five samples spread ±10–30%: an imprecise median.
        payload.cells[0].compress = Summary::from_seconds(vec![0.9, 1.1, 1.0, 1.2, 0.7]);
        let remedies = ["--precision 5".to_string(), "--pin CPU".to_string()];
        let short = warning(&payload, &remedies, false).unwrap();
        assert_eq!(short.lines().count(), 2, "{short}");
        assert!(short.lines().all(|l| l.chars().count() <= 100), "{short}");
        insta::assert_snapshot!(short);
        let long = warning(&payload, &[], true).unwrap();
        assert!(long.lines().count() > 1, "{long}");
        assert!(!long.contains("try "), "{long}");
        assert!(
            long.contains("  zstd 1 (libzstd) compress: ±16% at 95%"),
            "{long}"
        );
    }

    #[test]
    fn precise_medians_give_no_warning() {
        let mut payload = fixtures::report().payloads[0].clone();
        payload.cells.retain(|c| c.failure.is_some());
        assert_eq!(warning(&payload, &[], true), None);
    }
}
