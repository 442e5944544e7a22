//! The one model of what is measured, saved and read back, for `run` and `http` alike:
//! what a run writes ([`run`], [`http`]), what a cell is of ([`identity`]), and a
//! saved run as the analyses read it ([`saved`], through [`read`]).

pub(crate) mod columns;
pub(crate) mod environment;
pub(crate) mod http;
mod legacy;
mod pooled;
pub(crate) mod probe;
pub(crate) mod read;
mod read_csv;
pub(crate) mod run;
pub(crate) mod saved;
pub(crate) mod timing;

pub(crate) use read::{load, load_report};
pub(crate) use saved::{CellKey, HttpCell, HttpKey, Instructions, LoadedRun, Results, RunCell};
pub(crate) use timing::{Statistic, Timing};
