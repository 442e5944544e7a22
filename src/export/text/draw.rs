//! Draws a [`Document`] as a terminal table or as Markdown.

use super::document::{Document, Style};
use super::{markdown, table};

/// Draws `document` in `style`.
pub(crate) fn render(document: &Document, style: Style) -> Vec<u8> {
    let text = match style {
        Style::Terminal => table::render(document),
        Style::Markdown => markdown::render(document),
    };
    // Text from outside (payload names, a server's headers) is shown, not obeyed.
    crate::format::visible(&text).into_owned().into_bytes()
}

/// Documents in `style`, one after another with an empty line between: what `run`
/// and `http` print on stdout, payload by payload, and what `--export-markdown` holds.
pub(crate) fn render_each(documents: impl IntoIterator<Item = Document>, style: Style) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, document) in documents.into_iter().enumerate() {
        if index > 0 {
            out.push(b'\n');
        }
        out.extend(render(&document, style));
    }
    out
}
