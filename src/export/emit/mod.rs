//! `recommend --emit`: the answer as configuration to paste into a server, with each
//! codec's level mapped onto that server's knobs. A server that cannot express a
//! setting gets the answer recomputed among the settings it can express, and says
//! what it cannot do (a minimum size, a per-encoding level, an encoding).

mod aspnetcore;
mod brief;
mod caddy;
mod nginx;
mod server;
#[cfg(test)]
mod tests;
mod tower_http;
