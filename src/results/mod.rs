//! The one model of what is measured, saved and read back, for `run` and `http` alike.

pub mod codec;
pub mod load;

pub use load::*;
