//! The commands: one file each, orchestration only. Inputs arrive checked by `config`;
//! every file and terminal write happens here; the rest returns data.

mod ab;
mod analysis;
mod bracket;
mod compare;
mod count_instructions;
mod dispatch;
mod http;
mod lab;
mod measure;
mod merge;
mod outcome;
mod output;
mod payloads;
mod pool;
mod probe;
pub(crate) mod progress;
mod report;
mod run;
mod serve;
mod settle;
mod source;
mod time_worker;

pub use dispatch::main;
