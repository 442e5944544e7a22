//! The one model of what is measured, saved and read back, for `run` and `http` alike:
//! what a run writes ([`codec`], [`http`]), what a cell is of ([`identity`]), and a
//! saved run as the analyses read it ([`saved`], through [`read`]).

pub mod codec;
pub mod environment;
pub mod http;
mod legacy;
mod pooled;
pub mod probe;
pub mod read;
mod read_csv;
pub mod saved;
pub mod timing;

pub use read::{load, load_report, parse};
pub use saved::{CellKey, HttpCell, HttpKey, Instructions, LoadedRun, Results, RunCell};
pub use timing::{Statistic, Timing};
