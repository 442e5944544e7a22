//! A dictionary a live server offers (RFC 9842 §3): a response names it in
//! `Link: <URL>; rel="compression-dictionary"`, and a client that fetches it may then
//! name it in `Available-Dictionary` and accept `dcz` and `dcb` for the URLs it is for.
//!
//! `probe` finds the link on each URL's identity response (or takes `--dictionary`),
//! fetches the dictionary once, and sends its dcz and dcb requests against it
//! (`probing.rs`).

use super::client::Target;

/// The first dictionary a `Link` header names with `rel="compression-dictionary"`.
pub(super) fn linked_dictionary(link: &str) -> Option<&str> {
    link.split(',').find_map(|entry| {
        let (uri, params) = entry.trim().strip_prefix('<')?.split_once('>')?;
        let named = params.split(';').any(|param| {
            let Some((name, value)) = param.split_once('=') else {
                return false;
            };
            name.trim().eq_ignore_ascii_case("rel")
                && value
                    .trim()
                    .trim_matches('"')
                    .split_ascii_whitespace()
                    .any(|rel| rel.eq_ignore_ascii_case("compression-dictionary"))
        });
        named.then_some(uri.trim())
    })
}

/// `reference` resolved against `page`'s URL as RFC 3986 §5.2 says: a scheme makes it
/// absolute, `//` keeps only the page's scheme (another host is another origin), `/`
/// keeps its authority, `?` its path, and a relative path joins the page's directory;
/// dot segments are removed and a fragment dropped.
pub(super) fn resolve(page: &Target, reference: &str) -> String {
    let reference = reference.split('#').next().unwrap_or_default();
    if has_scheme(reference) {
        return reference.to_string();
    }
    let scheme = if page.tls { "https" } else { "http" };
    if let Some(rest) = reference.strip_prefix("//") {
        return format!("{scheme}://{rest}");
    }
    let after_scheme = page.url.find("://").map_or(0, |i| i + 3);
    let origin_end = page.url[after_scheme..]
        .find(['/', '?', '#'])
        .map_or(page.url.len(), |i| after_scheme + i);
    let origin = &page.url[..origin_end];
    let (page_path, page_query) = split_query(&page.path);
    if reference.is_empty() {
        return format!("{origin}{page_path}{page_query}");
    }
    if reference.starts_with('?') {
        return format!("{origin}{page_path}{reference}");
    }
    let (path, query) = split_query(reference);
    let merged = match path.starts_with('/') {
        true => path.to_string(),
        false => format!(
            "{}{path}",
            &page_path[..page_path.rfind('/').map_or(0, |i| i + 1)]
        ),
    };
    format!("{origin}{}{query}", remove_dot_segments(&merged))
}

/// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
fn has_scheme(reference: &str) -> bool {
    let Some((scheme, _)) = reference.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `path?query` as the path and `?query` (empty without one).
fn split_query(text: &str) -> (&str, &str) {
    text.find('?').map_or((text, ""), |i| text.split_at(i))
}

/// RFC 3986 §5.2.4 for a path that starts with `/`: `.` goes, `..` takes the segment
/// before it, and neither climbs above the root.
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let mut kept: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *segment {
            "." => {}
            ".." => {
                kept.pop();
            }
            other => {
                kept.push(other);
                continue;
            }
        }
        if last {
            kept.push("");
        }
    }
    format!("/{}", kept.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::client::target;

    #[test]
    fn the_compression_dictionary_link_is_found_among_others() {
        let link = r#"</style.css>; rel=preload; as=style, </dictionary/small>; rel="compression-dictionary""#;
        assert_eq!(linked_dictionary(link), Some("/dictionary/small"));
        assert_eq!(
            linked_dictionary("<d.bin>; rel=compression-dictionary"),
            Some("d.bin")
        );
        assert_eq!(linked_dictionary("</a>; rel=preload"), None);
        assert_eq!(linked_dictionary("garbage"), None);
    }

    #[test]
    fn references_resolve_against_the_page() {
        let page = target("https://example.org:8443/api/v2/orders?x=1").unwrap();
        assert_eq!(
            resolve(&page, "/dictionary/small"),
            "https://example.org:8443/dictionary/small"
        );
        assert_eq!(
            resolve(&page, "d.bin"),
            "https://example.org:8443/api/v2/d.bin"
        );
        assert_eq!(resolve(&page, "http://other/d"), "http://other/d");
        let bare = target("http://[::1]:8080").unwrap();
        assert_eq!(resolve(&bare, "/d"), "http://[::1]:8080/d");
    }

    #[test]
    fn references_resolve_as_rfc_3986_says() {
        // RFC 3986 §5.4.1's normal examples, against its base http://a/b/c/d;p?q.
        let base = target("http://a/b/c/d;p?q").unwrap();
        for (reference, expected) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
        ] {
            assert_eq!(resolve(&base, reference), expected, "{reference}");
        }
        let page = target("https://example.org/a").unwrap();
        assert_eq!(resolve(&page, "//evil.example/x"), "https://evil.example/x");
    }
}
