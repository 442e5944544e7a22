//! The human-readable formats: reports build one [`document::Document`], drawn as a
//! terminal table (`table.rs`) or as Markdown (`markdown.rs`).

pub(crate) mod document;
pub(crate) mod draw;
pub(crate) mod markdown;
pub(crate) mod table;
