//! What the saved results mean: comparison, merging, recommendations, the article's
//! claims and zstd's parameters. Each returns data; `export` formats it.

pub(crate) mod compare;
pub(crate) mod history;
pub(crate) mod merge;
pub(crate) mod recommend;
pub(crate) mod reproduce;
pub(crate) mod zstd_params;
