//! `codecbench probe`'s client for a live server, which is trusted in nothing: requests
//! over TCP or TLS (`client.rs`, `tls.rs`), each URL probed with every Accept-Encoding
//! (`url.rs`), and the dictionaries a server links (`offer.rs`). It reuses the loopback
//! benchmark's decoding, dictionaries and byte-counting sockets from [`crate::http`].

pub(crate) mod client;
mod offer;
mod tls;
pub(crate) mod url;
