//! The one model of what is measured, saved and read back: the documents `run`, `http`
//! and `probe` write ([`run`], [`http`], [`probe`]), which the readers ([`read`]) return
//! too, and a cursor per result that reads one where it lies ([`saved`]).

pub(crate) mod ab;
pub(crate) mod columns;
mod csv_row;
mod cursor;
mod document;
pub(crate) mod environment;
#[cfg(test)]
mod fixtures;
pub(crate) mod http;
pub(crate) mod lab;
mod legacy;
pub(crate) mod paired_times;
mod pooled;
pub(crate) mod probe;
mod read;
mod read_csv;
pub(crate) mod run;
mod saved;
mod timing;

pub(crate) use csv_row::defused as defused_csv_field;
pub(crate) use cursor::Cursor;
pub(crate) use read::{load, load_report, parse};
pub(crate) use saved::{CellKey, HttpCell, HttpKey, Instructions, LoadedRun, Results, RunCell};
pub(crate) use timing::{Statistic, Timing};

#[cfg(test)]
pub(crate) use fixtures::FixtureCell;
