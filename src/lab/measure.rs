//! One setting measured through a running server: requests in batches, each encoded
//! batch right after an identity batch, the server's CPU time read around each. A
//! batch's figure is the CPU per encoded response less the CPU per identity response,
//! so what the server spends on a request either way (parsing, the file, the socket)
//! cancels, and what is left is what compressing costs it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};

use crate::http::encoding::decode;
use crate::live::client::{exchange_all, target, Exchange, ProbeLoad};
use crate::process::cpu::process_cpu_ns;
use crate::results::lab::BATCH_AIM;

/// The most a body may hold, as sent or decoded.
const MOST_BODY: u64 = 256 * 1024 * 1024;

/// How much to send per setting.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Load {
    /// Batches, one CPU figure each (at least 6 for a 95% interval).
    pub batches: usize,
    /// The most requests per batch.
    pub requests: usize,
}

impl Load {
    /// Requests per batch for a setting whose first encoded response took `one`.
    pub(crate) fn per_batch(self, one: Duration) -> usize {
        let fit = BATCH_AIM.as_secs_f64() / one.as_secs_f64().max(1e-9);
        (fit.floor() as usize).clamp(1, self.requests.max(1))
    }
}

/// What one setting cost the server on one body.
#[derive(Clone, Debug, Default)]
pub(crate) struct Measured {
    /// The body's bytes as sent.
    pub bytes_sent: u64,
    /// Per batch: the server's CPU per response beyond identity's, in seconds.
    pub extra_cpu_s: Vec<f64>,
    /// Per batch: the server's CPU per identity response, in seconds.
    pub identity_cpu_s: Vec<f64>,
    /// Per batch: codecbench decoding the body sent, in seconds.
    pub decode_s: Vec<f64>,
}

/// Measures `url` (the setting, `token` its content coding) against `identity_url`,
/// both served by process `pid`, on a body that must decode to `original`.
pub(crate) fn measure(
    pid: u32,
    identity_url: &str,
    url: &str,
    token: &str,
    original: &[u8],
    load: Load,
) -> Result<Measured> {
    let mut measured = Measured::default();
    // One of each first: connections, caches and the encoder's first allocation.
    send(identity_url, "identity", 1, original)?;
    let clock = Instant::now();
    send(url, token, 1, original)?;
    let requests = load.per_batch(clock.elapsed());
    for _ in 0..load.batches {
        let start = process_cpu_ns(pid).context("cannot read the server's CPU time")?;
        send(identity_url, "identity", requests, original)?;
        let between = process_cpu_ns(pid)?;
        let sent = send(url, token, requests, original)?;
        let end = process_cpu_ns(pid)?;
        let per = |ns: u64| ns as f64 / 1e9 / requests as f64;
        let identity = per(between.saturating_sub(start));
        let encoded = per(end.saturating_sub(between));
        measured.identity_cpu_s.push(identity);
        measured.extra_cpu_s.push(encoded - identity);
        let clock = Instant::now();
        decode(Some(token), &sent, None, MOST_BODY)?;
        measured.decode_s.push(clock.elapsed().as_secs_f64());
        measured.bytes_sent = sent.len() as u64;
    }
    Ok(measured)
}

/// Sends `count` GETs for `url` with `accept`, one connection, and checks each
/// response: 200, coded as asked, every body the same and decoding to `original`.
/// Returns the body as sent.
fn send(url: &str, accept: &str, count: usize, original: &[u8]) -> Result<Vec<u8>> {
    let load = ProbeLoad {
        requests: count,
        duration: Duration::from_secs(120),
        concurrency: 1,
        insecure: false,
        timeout: Duration::from_secs(30),
        max_body: MOST_BODY,
    };
    let first: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    let seen = Mutex::new(0usize);
    let each = |exchange: Exchange| -> Result<()> {
        check(&exchange, accept)?;
        let mut first = first.lock().expect("no panic holds it");
        match first.as_deref() {
            None => {
                let decoded = decode(Some(accept), &exchange.body, None, MOST_BODY)?;
                if decoded != original {
                    bail!("{accept}: the body does not decode to the file served");
                }
                *first = Some(exchange.body.to_vec());
            }
            Some(body) if body != exchange.body => {
                bail!("{accept}: the bodies differ between requests")
            }
            Some(_) => {}
        }
        *seen.lock().expect("no panic holds it") += 1;
        Ok(())
    };
    exchange_all(&target(url)?, accept, &[], load, &each)?;
    if crate::process::interrupt::requested() {
        bail!("stopped");
    }
    let seen = seen.into_inner().expect("no panic holds it");
    if seen < count {
        bail!("{accept}: {seen} of {count} responses came");
    }
    Ok(first
        .into_inner()
        .expect("no panic holds it")
        .unwrap_or_default())
}

/// A response the lab can count: 200, and coded as asked.
fn check(exchange: &Exchange, accept: &str) -> Result<()> {
    if exchange.status != 200 {
        bail!("{accept}: HTTP {}", exchange.status);
    }
    let coding = exchange.content_encoding.as_deref().unwrap_or("identity");
    if !coding.eq_ignore_ascii_case(accept) {
        bail!(
            "{accept}: the server sent {}",
            crate::format::one_line(coding)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_setting_gets_fewer_requests_a_batch_down_to_one() {
        let load = Load {
            batches: 12,
            requests: 10,
        };
        let ms = Duration::from_millis;
        assert_eq!(load.per_batch(ms(3)), 10, "fast: every request asked for");
        assert_eq!(load.per_batch(ms(25)), 10);
        assert_eq!(load.per_batch(ms(60)), 4, "250 ms holds four of 60 ms");
        assert_eq!(load.per_batch(ms(600)), 1, "slower than the aim: one");
        assert_eq!(load.per_batch(Duration::ZERO), 10);
    }
}
