//! `codecbench http`: the codecs measured through a real HTTP/1.1 server and client on
//! loopback.
//!
//! For each encoding, an axum server on `127.0.0.1:0` serves the payload as a dynamic
//! response (the body is built anew for every request) through tower-http's
//! `CompressionLayer`, configured for that one encoding and quality, the way ASP.NET
//! Core's response-compression middleware sits in front of an endpoint. hyper clients
//! send `Accept-Encoding` for that encoding, check `Content-Encoding`, count every byte
//! that arrives on the socket (status line, headers, chunk framing and body), decode the
//! body with codecbench's own codecs and compare it with the payload byte for byte.
//!
//! The load is bounded by a request count or a duration, whichever is given, and always
//! by [`MAX_REQUESTS`] and [`MAX_DURATION`]; it stops by itself.

mod axum_server;
mod client;
pub(crate) mod dictionary;
pub(crate) mod encoding;
pub(crate) mod load;
pub(crate) mod measure;
mod send_timeout;
pub(crate) mod serve;
pub(crate) mod shaping;
#[cfg(test)]
mod tests;
