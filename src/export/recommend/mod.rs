//! `recommend`'s report: the advice per payload, and the answer with its fallbacks.

pub(crate) mod answer;
pub(crate) mod names;
pub(crate) mod report;
