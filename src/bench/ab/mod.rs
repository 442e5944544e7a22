//! `ab`: two builds measured cell by cell in turn, in pairs of short batches
//! ([`pairs`]), each build through a worker of its own ([`worker`]).

mod answer;
pub(crate) mod pairs;
mod slices;
pub(crate) mod worker;
