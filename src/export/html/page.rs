//! The page every HTML export is: one file with its style and script inline, and a
//! content security policy that lets the browser fetch nothing at all, so it opens the
//! same from `file://`, a CI artifact or a mail, and offline.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::document;
use crate::export::text::document::Document;

/// The page's style: plain, printable, colours safe for colour-blind readers.
const STYLE: &str = include_str!("report.css");
/// Sortable tables and legends that hide a series; the page reads fully without it.
const SCRIPT: &str = include_str!("report.js");

/// Nothing may be fetched: only the inline style and script run.
const POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/// Where the body goes in the page's frame: markup no text can hold, since every text
/// is escaped (`<` becomes `&lt;`), and nothing but the page's own script follows it.
const BODY_AT: &str = "<!--body-->";

/// A whole page titled `title` around `body`. Bidi and control characters from saved
/// runs are shown as escapes (`\u{202e}`), never obeyed: the page embeds no data, so
/// nothing but text and attributes holds them. The body is moved in, not copied: a
/// report of many cells is tens of megabytes.
pub(crate) fn page(title: &str, body: Markup) -> String {
    let frame = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(POLICY);
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (title) }
                (PreEscaped(BODY_AT))
                footer {
                    "Written by codecbench " (env!("CARGO_PKG_VERSION"))
                    ". One file: nothing in it is fetched from anywhere."
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
    .into_string();
    let (before, after) = frame
        .rsplit_once(BODY_AT)
        .expect("the frame holds the mark");
    let body = body.into_string();
    let mut page = String::with_capacity(before.len() + body.len() + after.len());
    page.push_str(before);
    page.push_str(&body);
    drop(body);
    page.push_str(after);
    match crate::format::visible(&page) {
        std::borrow::Cow::Borrowed(_) => page,
        std::borrow::Cow::Owned(shown) => shown,
    }
}

/// The page of any report's documents, one after another: what `--export-html` writes.
pub(crate) fn documents_page(title: &str, documents: &[Document]) -> Vec<u8> {
    let body = html! {
        @for each in documents { (document::markup(each)) }
    };
    page(title, body).into_bytes()
}

/// `html`'s content for a snapshot: its inline style and script cut, the version masked,
/// a line per tag.
#[cfg(test)]
pub(super) fn content(html: &str) -> String {
    let cut = |text: &str, open: &str, close: &str| -> String {
        let start = text.find(open).unwrap() + open.len();
        let end = start + text[start..].find(close).unwrap();
        format!("{}…{}", &text[..start], &text[end..])
    };
    let html = cut(html, "<style>", "</style>");
    let html = cut(&html, "<script>", "</script>");
    html.replace(env!("CARGO_PKG_VERSION"), "[version]")
        .replace("><", ">\n<")
}

/// `content` built when the reader nears it: scripting on, the browser keeps a
/// `<noscript>` as one run of text, which the page's script turns into elements as it
/// comes into view (and before printing); scripting off, it is the content itself. A
/// large report then opens as fast as its first screen.
pub(super) fn lazy(content: Markup) -> Markup {
    html! { div.lazy { noscript { (content) } } }
}
