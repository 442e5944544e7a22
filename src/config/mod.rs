//! Turns the parsed command line into typed, validated settings, once. Every check of
//! user input that clap cannot express happens here, before anything is measured.

mod ab;
pub(crate) mod analysis;
pub(crate) mod compare;
pub(crate) mod http;
pub(crate) mod lab;
pub(crate) mod levels;
mod measure;
mod modules;
pub(crate) mod outputs;
mod payloads;
pub(crate) mod probe;
mod run;
mod settings;
pub(crate) mod weights;

pub(crate) use ab::AbConfig;
pub(crate) use measure::MeasureConfig;
pub(crate) use payloads::PayloadsConfig;
pub(crate) use run::RunConfig;
