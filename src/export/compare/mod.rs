//! `compare`'s report: the table of rows and the notes and summary lines under it.

pub(crate) mod notes;
pub(crate) mod table;
