//! The web servers codecbench configures, one file each: the levels and knobs each can
//! be set to (`can_express`) and its configuration rendered from an answer
//! (`recommend --emit`). A server that cannot express a setting gets the answer
//! recomputed among the settings it can express ([`choice`]), and says what it cannot
//! do (a minimum size, a per-encoding level, an encoding). Each server's own encoders,
//! which workers rebuild, stay in `codec/servers.rs`; the names in `vocab/server.rs`.

mod apache;
mod aspnetcore;
mod brief;
mod caddy;
mod choice;
mod express;
#[cfg(test)]
mod names_tests;
mod nginx;
mod server;
mod syntax;
#[cfg(test)]
mod tests;
mod tower_http;

pub(crate) use choice::{answers_to_place, emit};
