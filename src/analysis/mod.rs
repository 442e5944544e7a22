//! What the saved results mean: comparison, merging, recommendations, the article's
//! claims and zstd's parameters. Each returns data; `export` formats it.

pub mod compare;
pub mod merge;
pub mod recommend;
pub mod reproduce;
pub mod zstd_params;
