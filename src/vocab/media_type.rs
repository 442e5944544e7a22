//! A body's content type, typed where it is read: a `type/subtype` media type (RFC 6838
//! §4.2's restricted names, less `!#$&^`, which no registered type uses and server
//! configuration reads as syntax), or codecbench's group `other text`.

/// The group a HAR capture files text bodies of no other group under.
pub(crate) const OTHER_TEXT: &str = "other text";

/// The most a name of a media type may hold (RFC 6838: 127 characters).
const MAX_NAME: usize = 127;

/// `text`'s media type, lower case and without parameters (`application/json` for
/// `Application/JSON; charset=utf-8`), or `other text`; `None` when it is neither. Each
/// parameter must be `name=value` in printable ASCII, so nothing rides in behind one.
pub(crate) fn essence(text: &str) -> Option<String> {
    if text == OTHER_TEXT {
        return Some(text.to_string());
    }
    let mut parts = text.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    let parameters_ok =
        parts.all(|p| p.contains('=') && p.bytes().all(|b| (b' '..=b'~').contains(&b)));
    let (top, sub) = essence.split_once('/')?;
    (parameters_ok && is_name(top) && is_name(sub)).then_some(essence)
}

/// A restricted name: a letter or digit, then letters, digits and `-._+`.
fn is_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    let first_ok = bytes.next().is_some_and(|b| b.is_ascii_alphanumeric());
    first_ok
        && name.len() <= MAX_NAME
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'+'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_pass_without_parameters_and_anything_else_is_refused() {
        assert_eq!(
            essence("application/json").as_deref(),
            Some("application/json")
        );
        assert_eq!(
            essence("Application/JSON; charset=utf-8").as_deref(),
            Some("application/json")
        );
        assert_eq!(essence("image/svg+xml").as_deref(), Some("image/svg+xml"));
        assert_eq!(essence("other text").as_deref(), Some("other text"));
        for bad in [
            "application/json\n}\nserver { listen 8080; }",
            "text/html {",
            "a/#",
            "a/$host",
            "application/json*",
            "json",
            "/json",
            "application/",
            "",
            "text/ html",
            "application/json;\n}\nserver {",
            "application/json; charset",
        ] {
            assert_eq!(essence(bad), None, "{bad:?}");
        }
    }
}
