//! A dictionary a live server offers (RFC 9842 §3): a response names it in
//! `Link: <URL>; rel="compression-dictionary"`, and a client that fetches it may then
//! name it in `Available-Dictionary` and accept `dcz` and `dcb` for the URLs it is for.
//!
//! `probe` finds the link on each URL's identity response (or takes `--dictionary`),
//! fetches the dictionary once, and sends its dcz and dcb requests against it
//! (`probing.rs`).

use super::probe::Target;

/// The first dictionary a `Link` header names with `rel="compression-dictionary"`.
pub fn linked_dictionary(link: &str) -> Option<&str> {
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

/// `reference` (absolute, or a path, or relative to the page) as an absolute URL on
/// `page`'s origin.
pub fn resolve(page: &Target, reference: &str) -> String {
    if reference.starts_with("http://") || reference.starts_with("https://") {
        return reference.to_string();
    }
    let scheme_end = page.url.find("://").map_or(0, |i| i + 3);
    let origin_end = page.url[scheme_end..]
        .find('/')
        .map_or(page.url.len(), |i| scheme_end + i);
    let origin = &page.url[..origin_end];
    if reference.starts_with('/') {
        return format!("{origin}{reference}");
    }
    let path = page.path.split(['?', '#']).next().unwrap_or("/");
    let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    format!("{origin}{directory}{reference}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::probe::target;

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
}
