//! A second version of a JSON array of records, for dictionary compression against the
//! first (`http --dictionary previous --change PCT`): a share of the records is updated
//! the way a polled API's data changes, every number in them but the first (the id)
//! getting other digits.

use anyhow::{bail, Result};
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Byte ranges of the objects at the top level of a JSON array.
pub(super) fn records(body: &[u8]) -> Result<Vec<(usize, usize)>> {
    let first = body.iter().position(|b| !b.is_ascii_whitespace());
    if first.map(|i| body[i]) != Some(b'[') {
        bail!("--change needs a payload that is a JSON array of records");
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut spans, mut start) = (Vec::new(), 0);
    for (i, &byte) in body.iter().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth == 2 && byte == b'{' {
                    start = i;
                }
            }
            b'}' | b']' => {
                if depth == 2 && byte == b'}' {
                    spans.push((start, i + 1));
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    if spans.is_empty() {
        bail!("--change needs a payload that is a JSON array of records");
    }
    Ok(spans)
}

/// Gives each digit of the numbers after the first in `record` the next value (9 → 0),
/// outside strings: the same length and shape, other values.
fn update(record: &mut [u8]) {
    let (mut in_string, mut escaped, mut numbers, mut in_number) = (false, false, 0, false);
    for byte in record.iter_mut() {
        if in_string {
            match (escaped, *byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        let digit = byte.is_ascii_digit();
        if digit && !in_number {
            numbers += 1;
        }
        in_number = digit || (in_number && *byte == b'.');
        if *byte == b'"' {
            in_string = true;
        } else if digit && numbers > 1 {
            *byte = b'0' + (*byte - b'0' + 1) % 10;
        }
    }
}

/// `body` with `share` (0 to 1) of its records updated, chosen with `seed`.
pub fn change_records(body: &[u8], share: f64, seed: u64) -> Result<Vec<u8>> {
    let spans = records(body)?;
    let count = ((spans.len() as f64 * share).round() as usize).min(spans.len());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut changed = body.to_vec();
    for index in sample(&mut rng, spans.len(), count) {
        let (start, end) = spans[index];
        update(&mut changed[start..end]);
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_the_records_changes_and_nothing_else() {
        let body = crate::payload::generate(100, 42, crate::payload::RngKind::Dotnet);
        let changed = change_records(&body, 0.05, 7).unwrap();
        assert_eq!(changed.len(), body.len());
        let before: Vec<serde_json::Value> = serde_json::from_slice(&body).unwrap();
        let after: Vec<serde_json::Value> = serde_json::from_slice(&changed).unwrap();
        let differing: Vec<usize> = (0..100).filter(|&i| before[i] != after[i]).collect();
        assert_eq!(differing.len(), 5);
        for i in differing {
            // The id and every string stay; the balance moves.
            assert_eq!(before[i]["id"], after[i]["id"]);
            assert_eq!(before[i]["email"], after[i]["email"]);
            assert_ne!(before[i]["balance"], after[i]["balance"]);
        }
        assert_eq!(
            change_records(&body, 0.05, 7).unwrap(),
            changed,
            "deterministic"
        );
    }

    #[test]
    fn only_json_arrays_of_records_can_change() {
        assert!(change_records(b"{\"a\": 1}", 0.1, 1).is_err());
        assert!(change_records(b"[1, 2, 3]", 0.1, 1).is_err());
        assert!(change_records(b"plain text", 0.1, 1).is_err());
    }
}
