//! Response bodies from a HAR capture, the JSON a browser saves with "Save all as HAR
//! with content" (HTTP Archive 1.2: `log.entries[].request.{method, url}` and
//! `log.entries[].response.content.{mimeType, text, encoding}`, where `text` holds the
//! decoded body, base64-encoded when `encoding` is `base64`).
//!
//! Bodies are grouped by content type; types that are compressed already (images but
//! SVG, fonts, audio, video, archives) and entries saved without a body are skipped and
//! counted.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use base64::Engine;
use serde::Deserialize;

use super::body::{Payload, MAX_PAYLOAD_BYTES};
use super::files::read_limited;
use crate::vocab::media_type::OTHER_TEXT;

/// The longest payload name; longer URLs are cut in the middle.
const MAX_NAME_CHARS: usize = 90;

/// The largest capture read: [`MAX_PAYLOAD_BYTES`], so that no body in it can
/// pass that limit either; a larger file is refused before it is read.
const MAX_HAR_BYTES: u64 = MAX_PAYLOAD_BYTES;

#[derive(Deserialize)]
struct Har {
    log: Log,
}

#[derive(Deserialize)]
struct Log {
    entries: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct Entry {
    request: Request,
    response: Response,
}

#[derive(Deserialize)]
struct Request {
    method: String,
    url: String,
}

#[derive(Deserialize)]
struct Response {
    content: Content,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Content {
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    encoding: Option<String>,
}

/// What a content type is to `recommend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A text type worth measuring, under this group name.
    Text(&'static str),
    /// Compressed by its format already.
    Compressed,
    /// Some other binary type.
    Binary,
}

/// The group of a `mimeType` such as `application/json; charset=utf-8`.
fn kind(mime_type: &str) -> Kind {
    let essence = mime_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let (top, sub) = essence.split_once('/').unwrap_or((essence.as_str(), ""));
    match (top, sub) {
        (_, "json") | (_, "ld+json") => Kind::Text("application/json"),
        (_, sub) if sub.ends_with("+json") => Kind::Text("application/json"),
        ("text", "html") | ("application", "xhtml+xml") => Kind::Text("text/html"),
        ("text" | "application", "javascript" | "x-javascript" | "ecmascript") => {
            Kind::Text("text/javascript")
        }
        ("text", "css") => Kind::Text("text/css"),
        ("image", "svg+xml") => Kind::Text("image/svg+xml"),
        ("image" | "font" | "audio" | "video", _) => Kind::Compressed,
        ("application", sub)
            if sub.starts_with("font-")
                || sub.starts_with("x-font")
                || [
                    "zip",
                    "gzip",
                    "x-gzip",
                    "zstd",
                    "x-brotli",
                    "x-7z-compressed",
                    "x-xz",
                    "x-bzip2",
                    "x-rar-compressed",
                    "pdf",
                    "octet-stream",
                ]
                .contains(&sub) =>
        {
            Kind::Compressed
        }
        ("text", _) => Kind::Text(OTHER_TEXT),
        ("application", sub) if sub == "xml" || sub.ends_with("+xml") => Kind::Text(OTHER_TEXT),
        _ => Kind::Binary,
    }
}

/// The bodies of a capture, and what was left out.
pub(crate) struct Capture {
    /// One payload per text body, named by method and URL.
    pub payloads: Vec<Payload>,
    /// Entries left out, by reason, with the content types and a count each.
    pub skipped: BTreeMap<&'static str, BTreeMap<String, usize>>,
}

impl Capture {
    /// e.g. `capture.har: 12 bodies (application/json 9, text/html 3); skipped 5
    /// (3 already compressed: image/png, font/woff2; 2 without a saved body)`.
    pub(crate) fn summary(&self, path: &Path) -> String {
        let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
        for payload in &self.payloads {
            *groups
                .entry(payload.content_type.as_deref().unwrap_or(""))
                .or_default() += 1;
        }
        let groups: Vec<String> = groups.iter().map(|(g, n)| format!("{g} {n}")).collect();
        let mut text = format!(
            "{}: {} text bodies ({})",
            path.display(),
            self.payloads.len(),
            groups.join(", ")
        );
        let count = |types: &BTreeMap<String, usize>| types.values().sum::<usize>();
        let skipped: usize = self.skipped.values().map(count).sum();
        if skipped > 0 {
            let reasons: Vec<String> = self
                .skipped
                .iter()
                .map(|(reason, types)| {
                    let named: Vec<&str> = types
                        .keys()
                        .map(String::as_str)
                        .filter(|t| !t.is_empty())
                        .collect();
                    match named.is_empty() {
                        true => format!("{} {reason}", count(types)),
                        false => format!("{} {reason} ({})", count(types), named.join(", ")),
                    }
                })
                .collect();
            text += &format!("; skipped {skipped}: {}", reasons.join(", "));
        }
        text
    }
}

/// `GET https://host/path`, cut in the middle past [`MAX_NAME_CHARS`].
fn name(method: &str, url: &str) -> String {
    let full = format!("{method} {url}");
    let chars: Vec<char> = full.chars().collect();
    if chars.len() <= MAX_NAME_CHARS {
        return full;
    }
    let half = (MAX_NAME_CHARS - 1) / 2;
    let head: String = chars[..half].iter().collect();
    let tail: String = chars[chars.len() - half..].iter().collect();
    format!("{head}…{tail}")
}

/// The body of one entry, decoded.
fn body(content: &Content) -> Result<Vec<u8>> {
    let text = content.text.as_deref().unwrap_or("");
    match content.encoding.as_deref() {
        None | Some("") => Ok(text.as_bytes().to_vec()),
        Some("base64") => base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .context("response.content.text is not valid base64"),
        Some(other) => bail!("response.content.encoding '{other}' is not base64"),
    }
}

/// What one entry gives: a text body and its group, or why it is skipped.
enum Outcome {
    Body {
        name: String,
        bytes: Vec<u8>,
        group: &'static str,
    },
    Skipped(&'static str),
}

/// The body of `entry`, decoded, or why it is left out.
fn outcome(entry: &Entry) -> Result<Outcome> {
    let content = &entry.response.content;
    let group = match kind(content.mime_type.as_deref().unwrap_or("")) {
        Kind::Text(group) => group,
        Kind::Compressed => return Ok(Outcome::Skipped("already compressed")),
        Kind::Binary => return Ok(Outcome::Skipped("binary")),
    };
    let bytes = body(content)?;
    if bytes.is_empty() {
        return Ok(Outcome::Skipped("without a saved body"));
    }
    Ok(Outcome::Body {
        name: name(&entry.request.method, &entry.request.url),
        bytes,
        group,
    })
}

/// Reads the capture at `path`. A file that is not HAR, or an entry without the
/// fields every HAR entry has, is an error naming the entry (counting from 1).
pub(crate) fn read(path: &Path) -> Result<Capture> {
    let bytes = read_limited(path, MAX_HAR_BYTES, "HAR capture")?;
    let har: Har = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{} is not a HAR file (JSON with log.entries)",
            path.display()
        )
    })?;
    let mut capture = Capture {
        payloads: Vec::new(),
        skipped: BTreeMap::new(),
    };
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    for (index, value) in har.log.entries.into_iter().enumerate() {
        let at = || format!("{}: entry {}", path.display(), index + 1);
        let entry: Entry = serde_json::from_value(value).with_context(at)?;
        match outcome(&entry).with_context(at)? {
            Outcome::Skipped(reason) => {
                let mime_type = entry.response.content.mime_type.as_deref().unwrap_or("");
                let essence = mime_type.split(';').next().unwrap_or("").trim().to_string();
                let types = capture.skipped.entry(reason).or_default();
                *types.entry(essence).or_default() += 1;
            }
            Outcome::Body { name, bytes, group } => {
                // A response captured twice gets #2, #3.
                let seen = names.entry(name.clone()).or_default();
                *seen += 1;
                capture.payloads.push(Payload {
                    name: if *seen == 1 {
                        name
                    } else {
                        format!("{name} #{seen}")
                    },
                    bytes,
                    content_type: Some(group.to_string()),
                });
            }
        }
    }
    if capture.payloads.is_empty() {
        let summary = capture.summary(path);
        bail!(
            "{}",
            summary.replace("0 text bodies ()", "no text body to measure")
        );
    }
    Ok(capture)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_fall_into_groups_or_are_skipped() {
        assert_eq!(
            kind("application/json; charset=utf-8"),
            Kind::Text("application/json")
        );
        assert_eq!(
            kind("application/problem+json"),
            Kind::Text("application/json")
        );
        assert_eq!(kind("text/html"), Kind::Text("text/html"));
        assert_eq!(
            kind("application/javascript"),
            Kind::Text("text/javascript")
        );
        assert_eq!(kind("image/svg+xml"), Kind::Text("image/svg+xml"));
        assert_eq!(kind("text/plain"), Kind::Text("other text"));
        assert_eq!(kind("application/xml"), Kind::Text("other text"));
        assert_eq!(kind("image/png"), Kind::Compressed);
        assert_eq!(kind("font/woff2"), Kind::Compressed);
        assert_eq!(kind("application/zip"), Kind::Compressed);
        assert_eq!(kind("application/wasm"), Kind::Binary);
    }

    #[test]
    fn long_urls_are_cut_in_the_middle() {
        let long = format!("https://example.com/{}", "a".repeat(200));
        let cut = name("GET", &long);
        assert!(cut.chars().count() <= MAX_NAME_CHARS);
        assert!(cut.starts_with("GET https://example.com/") && cut.contains('…'));
    }
}
