//! Payloads: the article's generated customer records ([`generate`]), and the user's
//! own files and captures ([`source`]), and public JSON nobody here wrote ([`corpus`]).

mod body;
pub(crate) mod change;
pub(crate) mod corpus;
pub(crate) mod dotnet_random;
mod files;
mod generate;
pub(crate) mod har;
pub(crate) mod records;
pub(crate) mod rng;
pub(crate) mod smaller;
mod source;

pub(crate) use self::body::{Payload, MAX_PAYLOAD_BYTES};
pub(crate) use self::files::{open_regular, read_limited};
pub use self::generate::{generate, sha256_hex, RngKind};
pub(crate) use self::generate::{BuiltinPayload, DEFAULT_SEED, MAX_RECORDS};
pub(crate) use self::source::{load, PayloadSource};
