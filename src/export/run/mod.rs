//! `run`'s reports: the matrix table, CSV, JSON, the noise warning, and the JSON the CI
//! dashboards read.

pub(crate) mod csv;
pub(crate) mod dashboards;
pub(crate) mod json;
pub(crate) mod matrix;
pub(crate) mod noise;
#[cfg(test)]
mod read_back;
