//! Statistics over timed iterations: a direction's summary and its noise
//! ([`summary`]), the CPU time beside it ([`cpu_time`]), the inference the comparisons rest on ([`inference`]), and the shift
//! between two builds measured in pairs ([`paired`]).

mod cpu_time;
mod inference;
mod order;
mod paired;
mod summary;

pub(crate) use cpu_time::CpuTime;
pub(crate) use inference::{
    median_relative_standard_error, normal_quantile, percentile, quantile,
    quantile_relative_standard_error, sample_sd,
};
pub(crate) use order::{median, median_ci_rank};
pub(crate) use paired::{narrower_shift, Centre, PairedShift};
pub(crate) use summary::{mb_per_s, Noise, Summary, WAITED_FLOOR};
