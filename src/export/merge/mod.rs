//! `merge`'s report: one table of several runs, for runs of `run` and `http` and for
//! probes.

mod parts;
pub(crate) mod probe;
pub(crate) mod table;
