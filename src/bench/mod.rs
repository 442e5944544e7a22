//! How a payload is measured, all of it:
//! - the plan the user's method makes for a body (`method.rs`);
//! - each direction's schedule (`schedule.rs`) and the runner (`runner/`);
//! - one payload's rounds (`rounds.rs`);
//! - the settings made ready (`settings.rs`);
//! - the session that measures every payload and tells an observer (`session.rs`);
//! - the `--processes` children (`workers.rs`) and the job they are sent (`protocol.rs`);
//! - instructions under callgrind (`instructions.rs`).

pub(crate) mod ab;
pub(crate) mod calibrate;
pub(crate) mod instructions;
pub(crate) mod method;
pub(crate) mod protocol;
mod rounds;
pub(crate) mod runner;
pub(crate) mod schedule;
pub(crate) mod session;
pub(crate) mod settings;
pub(crate) mod workers;

pub(crate) use rounds::{run_payload, Step};
