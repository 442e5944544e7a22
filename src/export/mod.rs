//! Exports: pure functions from results and analyses to bytes. One file per format
//! (terminal table, Markdown, CSV, JSON, SVG) and one per report, which builds the
//! shared [`document::Document`] for the two human-readable formats. Only `commands`
//! writes them anywhere.

pub(crate) mod ab;
pub(crate) mod compare;
pub(crate) mod csv;
pub(crate) mod exporter;
pub(crate) mod findings;
#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod html;
pub(crate) mod http;
pub(crate) mod lab;
pub(crate) mod labels;
pub(crate) mod merge;
pub(crate) mod probe;
pub(crate) mod recommend;
pub(crate) mod reproduce;
pub(crate) mod run;
pub(crate) mod svg;
pub(crate) mod text;
pub(crate) mod zstd_params;
