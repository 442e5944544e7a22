//! HTML: one self-contained page, readable with scripting off, printable, and fetching
//! nothing. `report` composes runs, charts and verdicts ([`report`]); every other
//! command's `--export-html` is its documents on the same page ([`page`]).

mod ab;
mod answer;
mod contents;
mod document;
mod forest;
mod history;
mod page;
mod report;
mod verdict;

pub(crate) use ab::ab_page;
pub(crate) use page::documents_page;
pub(crate) use report::{render, ReportPage, RunSection};
pub(crate) use verdict::comparison_page;
