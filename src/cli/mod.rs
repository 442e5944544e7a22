//! The command line, as clap derive types. `config.rs` turns these into typed settings;
//! nothing past it sees clap.

mod ab;
mod analysis;
mod command;
mod formats;
#[cfg(test)]
mod help_tests;
mod http;
mod lab;
mod measure;
mod probe;

pub(crate) use ab::AbArgs;
pub(crate) use analysis::{
    CompareArgs, MergeArgs, PayloadsArgs, PlotArgs, PoolArgs, RecommendArgs, ReportArgs,
    ReproduceArgs, RunSourceArgs, ZstdParamsArgs,
};
pub(crate) use command::{Cli, Command};
pub(crate) use http::{DictionaryArgs, HttpArgs, ServeArgs};
pub(crate) use lab::LabArgs;
pub(crate) use measure::{MeasureArgs, Metric, OutputArgs, RunArgs};
pub(crate) use probe::ProbeArgs;
