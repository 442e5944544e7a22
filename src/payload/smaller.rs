//! Smaller bodies cut from a payload, for placing the minimum body size between the
//! sizes measured: the leading records of a JSON array (closed again as an array, so each
//! is still valid JSON of the same shape), or a prefix of other text, cut at a character
//! boundary.

use super::Payload;

/// The largest cut of `payload` of at most `limit` bytes, smaller than the payload: its
/// leading records, or where no whole record fits, its leading text; `None` for a body
/// that is not UTF-8 text.
pub(crate) fn cut_at(payload: &Payload, limit: usize) -> Option<Payload> {
    let body = &payload.bytes;
    let records = super::change::records(body).ok();
    let fit = records.as_deref().map_or(0, |spans| {
        spans.iter().take_while(|(_, end)| *end < limit).count()
    });
    let (bytes, name) = match (records, fit) {
        // Each cut ends with the `]` that closes it again.
        (Some(spans), count @ 1..) => {
            let end = spans[count - 1].1;
            let mut bytes = body[..end].to_vec();
            bytes.push(b']');
            let noun = if count == 1 { "record" } else { "records" };
            (bytes, format!("{} ({count} {noun})", payload.name))
        }
        // No whole record fits, or no records: the leading text, of the same content.
        _ => return prefix_at(payload, limit),
    };
    smaller(payload, bytes, name)
}

/// A cut of `payload` of at most `limit` bytes whose size `wanted` accepts: whole records
/// where a count of them does, else the leading text; `None` when neither does.
pub(crate) fn cut_wanted(
    payload: &Payload,
    limit: usize,
    wanted: &dyn Fn(usize) -> bool,
) -> Option<Payload> {
    let lands = |body: &Payload| wanted(body.bytes.len());
    cut_at(payload, limit)
        .filter(lands)
        .or_else(|| prefix_at(payload, limit).filter(lands))
}

/// The leading text of `payload`, at most `limit` bytes, cut at a character boundary;
/// `None` for a body that is not UTF-8 text.
fn prefix_at(payload: &Payload, limit: usize) -> Option<Payload> {
    let text = std::str::from_utf8(&payload.bytes).ok()?;
    let mut end = limit.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let name = format!("{} (first {end} bytes)", payload.name);
    smaller(payload, payload.bytes[..end].to_vec(), name)
}

/// `bytes` as a body named `name` of `payload`'s content type, if smaller than it.
fn smaller(payload: &Payload, bytes: Vec<u8>, name: String) -> Option<Payload> {
    (!bytes.is_empty() && bytes.len() < payload.bytes.len()).then(|| Payload {
        name,
        bytes,
        content_type: payload.content_type.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(name: &str, bytes: Vec<u8>) -> Payload {
        Payload {
            name: name.into(),
            bytes,
            content_type: None,
        }
    }

    #[test]
    fn json_arrays_are_cut_at_records_and_stay_json() {
        let small = super::super::generate(1000, 42, super::super::RngKind::Dotnet);
        let source = payload("small", small.clone());
        // One record is 290 bytes: under it, the leading text.
        assert_eq!(
            cut_at(&source, 256).unwrap().name,
            "small (first 256 bytes)"
        );
        let one = cut_at(&source, 300).unwrap();
        assert_eq!(one.name, "small (1 record)");
        assert_eq!(
            one.bytes,
            super::super::generate(1, 42, super::super::RngKind::Dotnet)
        );
        for limit in [300, 1_000, 10_000, 100_000] {
            let body = cut_at(&source, limit).unwrap();
            let value: serde_json::Value = serde_json::from_slice(&body.bytes).unwrap();
            assert!(value.is_array() && body.bytes.len() <= limit);
            assert!(small.starts_with(&body.bytes[..body.bytes.len() - 1]));
        }
    }

    #[test]
    fn between_two_counts_of_records_the_cut_is_leading_text() {
        let small = super::super::generate(1000, 42, super::super::RngKind::Dotnet);
        let source = payload("small", small);
        // Two records are 592 bytes: above 600 takes text, above 500 the records.
        let text = cut_wanted(&source, 738, &|n| n > 600).unwrap();
        assert_eq!(text.name, "small (first 738 bytes)");
        let records = cut_wanted(&source, 738, &|n| n > 500).unwrap();
        assert_eq!(records.name, "small (2 records)");
    }

    #[test]
    fn other_text_is_cut_at_a_character_and_binary_is_not_cut() {
        let text = "é".repeat(1000).into_bytes();
        let body = cut_at(&payload("page.html", text), 129).unwrap();
        assert_eq!(body.bytes.len(), 128);
        assert!(std::str::from_utf8(&body.bytes).is_ok());
        assert!(cut_at(&payload("blob", vec![0xff; 5000]), 128).is_none());
        assert!(cut_at(&payload("tiny", b"[]".to_vec()), 128).is_none());
    }
}
