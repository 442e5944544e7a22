//! What `codecbench http` sends: the load per encoding, its bounds, and the resource the
//! server serves.

use std::sync::Arc;
use std::time::Duration;

use super::dictionary::Dictionary;
use crate::results::http::LoadSettings;

/// The most requests one encoding may send, whatever the options say.
pub(crate) const MAX_REQUESTS: usize = 1_000_000;
/// The longest one encoding may run, whatever the options say.
pub(crate) const MAX_DURATION: Duration = Duration::from_secs(600);

/// How much load to send per encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Load {
    /// Connections, each sending one request at a time.
    pub concurrency: usize,
    /// Stop after this many requests in all, if given.
    pub requests: Option<usize>,
    /// Stop after this long, if given.
    pub duration: Option<Duration>,
    /// Shape each connection's server-to-client stream to this many Mbit/s (10^6 bits
    /// per second) with a token bucket, if given.
    pub bandwidth_mbit: Option<f64>,
}

/// The load as saved with the results.
impl From<Load> for LoadSettings {
    fn from(load: Load) -> Self {
        LoadSettings {
            concurrency: load.concurrency,
            requests: load.requests,
            duration_s: load.duration.map(|d| d.as_secs_f64()),
            bandwidth_mbit: load.bandwidth_mbit,
        }
    }
}

/// What the server sends, and the dictionary a client already holds, if any (RFC 9842:
/// for `dcz`, the client's previous version of the resource).
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    /// The body the server sends for every request.
    pub body: Arc<Vec<u8>>,
    /// A dictionary both sides hold, for `dcz` encodings.
    pub dictionary: Option<Dictionary>,
}
