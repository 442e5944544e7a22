//! Smaller bodies cut from a payload, for placing the minimum body size when every size
//! measured was already worth compressing: the leading records of a JSON array (closed
//! again as an array, so each is still valid JSON of the same shape), or a prefix of
//! other text, cut at a character boundary.

use super::Payload;

/// The sizes to cut at, at most: 128 B to 64 KiB, doubling.
pub(crate) const SIZES: [usize; 10] = [
    128, 256, 512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536,
];

/// Bodies of `payload` below its own size, each the largest cut of at most one of
/// [`SIZES`], smallest first, without repeats; none for a body that is neither a JSON
/// array of records nor UTF-8 text.
pub(crate) fn smaller_bodies(payload: &Payload) -> Vec<Payload> {
    let body = &payload.bytes;
    let cut = |limit: usize| -> Option<(Vec<u8>, String)> {
        match super::change::records(body) {
            Ok(spans) => {
                // Each cut ends with the `]` that closes it again.
                let count = spans.iter().take_while(|(_, end)| *end < limit).count();
                let end = spans.get(count.checked_sub(1)?)?.1;
                let mut bytes = body[..end].to_vec();
                bytes.push(b']');
                let noun = if count == 1 { "record" } else { "records" };
                Some((bytes, format!("{} ({count} {noun})", payload.name)))
            }
            Err(_) => {
                let text = std::str::from_utf8(body).ok()?;
                let mut end = limit.min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                (end > 0).then(|| {
                    let name = format!("{} (first {end} bytes)", payload.name);
                    (body[..end].to_vec(), name)
                })
            }
        }
    };
    let mut bodies: Vec<Payload> = Vec::new();
    for limit in SIZES.into_iter().filter(|&s| s < body.len()) {
        let Some((bytes, name)) = cut(limit) else {
            continue;
        };
        if bytes.len() < body.len() && bodies.iter().all(|b| b.bytes.len() != bytes.len()) {
            bodies.push(Payload {
                name,
                bytes,
                content_type: payload.content_type.clone(),
            });
        }
    }
    bodies
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
        let bodies = smaller_bodies(&payload("small", small.clone()));
        // One record is 290 bytes: nothing fits 128 or 256.
        assert_eq!(bodies[0].name, "small (1 record)");
        assert_eq!(
            bodies[0].bytes,
            super::super::generate(1, 42, super::super::RngKind::Dotnet)
        );
        for body in &bodies {
            let value: serde_json::Value = serde_json::from_slice(&body.bytes).unwrap();
            assert!(value.is_array() && body.bytes.len() < small.len());
            assert!(small.starts_with(&body.bytes[..body.bytes.len() - 1]));
        }
        assert!(bodies
            .windows(2)
            .all(|w| w[0].bytes.len() < w[1].bytes.len()));
        assert!(bodies.last().unwrap().bytes.len() <= 65_536);
    }

    #[test]
    fn other_text_is_cut_at_a_character_and_binary_is_not_cut() {
        let text = "é".repeat(1000).into_bytes();
        let bodies = smaller_bodies(&payload("page.html", text));
        assert_eq!(bodies[0].bytes.len(), 128);
        assert!(bodies.iter().all(|b| std::str::from_utf8(&b.bytes).is_ok()));
        assert!(smaller_bodies(&payload("blob", vec![0xff; 5000])).is_empty());
        assert!(smaller_bodies(&payload("tiny", b"[]".to_vec())).is_empty());
    }
}
