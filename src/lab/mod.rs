//! `codecbench lab`: measure through the real servers. Each installed server is started
//! on 127.0.0.1 with a configuration per setting; the lab reads the bytes it sends and
//! the CPU time its process spends per response beyond an identity response's.

mod apache;
mod caddy;
mod express;
mod launch;
mod listeners;
mod measure;
mod nginx;
mod record;
mod site;
mod through;
mod workdir;

pub use listeners::listens_alone;
pub(crate) use measure::Load;
pub(crate) use record::{beside, record};
pub(crate) use site::{Installs, Setting};
pub(crate) use through::{measure_through, missing, serves, version};
pub(crate) use workdir::end_leftovers;
