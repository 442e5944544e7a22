//! Level lists: `1,3,19` or `-5..-1,1..19`, checked against a codec's range before
//! anything is expanded, once for every command that takes levels.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use anyhow::{bail, Context, Result};

/// Parses `text` for the option `option` and checks every level against `range`, which
/// `library` accepts for `codec`; a range's ends are checked before it is expanded.
pub(crate) fn checked_levels(
    text: &str,
    option: &str,
    codec: &str,
    range: RangeInclusive<i32>,
    library: &str,
) -> Result<Vec<i32>> {
    let levels = parse_levels_within(text, &range, &format!("{codec}|{library}"))
        .with_context(|| format!("invalid {option} '{text}'"))?;
    Ok(levels)
}

/// Parses a level list: comma-separated integers and inclusive ranges `A..B`, e.g.
/// `-5..-1,1..19`, each within `range`. Duplicates are dropped and the order kept.
/// `names` is `CODEC|LIBRARY`, for the message.
fn parse_levels_within(text: &str, range: &RangeInclusive<i32>, names: &str) -> Result<Vec<i32>> {
    let mut levels = Vec::new();
    let mut seen = HashSet::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            bail!("empty item");
        }
        let (first, last) = match item.split_once("..") {
            Some((a, b)) => (parse_level(a)?, parse_level(b)?),
            None => {
                let level = parse_level(item)?;
                (level, level)
            }
        };
        if first > last {
            bail!("range {item} is empty: it must go from low to high");
        }
        for end in [first, last] {
            if !range.contains(&end) {
                let (codec, library) = names.split_once('|').unwrap_or(("", names));
                bail!(
                    "{codec} level {end} is out of range: {library} accepts {}..={}",
                    range.start(),
                    range.end()
                );
            }
        }
        for level in first..=last {
            if seen.insert(level) {
                levels.push(level);
            }
        }
    }
    Ok(levels)
}

fn parse_level(text: &str) -> Result<i32> {
    let text = text.trim().trim_start_matches('=');
    text.parse()
        .with_context(|| format!("'{text}' is not an integer level"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_levels(text: &str) -> Result<Vec<i32>> {
        parse_levels_within(text, &(-1000..=1000), "level|codecbench")
    }

    #[test]
    fn level_lists_and_ranges() {
        assert_eq!(parse_levels("1,3,19").unwrap(), vec![1, 3, 19]);
        assert_eq!(
            parse_levels("-5..-1,1..3").unwrap(),
            vec![-5, -4, -3, -2, -1, 1, 2, 3]
        );
        assert_eq!(parse_levels("3, 1..=3").unwrap(), vec![3, 1, 2]);
        assert_eq!(parse_levels("7").unwrap(), vec![7]);
    }

    #[test]
    fn out_of_range_ends_are_refused_before_expanding() {
        let message = format!(
            "{:#}",
            checked_levels(
                "0..100000000",
                "--brotli-levels",
                "brotli",
                0..=11,
                "libbrotli"
            )
            .unwrap_err()
        );
        assert!(
            message.contains("brotli level 100000000 is out of range"),
            "{message}"
        );
        assert_eq!(
            checked_levels("1,3,1,2..3", "--x", "x", 0..=11, "x").unwrap(),
            [1, 3, 2]
        );
    }

    #[test]
    fn bad_level_lists_are_errors() {
        for bad in ["", "1,,2", "x", "3..1", "1..", "1.5"] {
            assert!(parse_levels(bad).is_err(), "{bad:?}");
        }
    }
}
