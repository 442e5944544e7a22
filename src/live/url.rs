//! One URL probed: the `identity` body first, as the reference, then each other
//! `Accept-Encoding`, every body decoded and compared with the reference byte for byte,
//! and, for a server profile, the level whose predicted body matches what was sent.

use std::sync::Mutex;
use std::time::Instant;

use anyhow::{anyhow, Context as _, Result};

use super::client::{exchange_all, target, Exchange, ProbeLoad, Target};
use super::offer;
use crate::http::dictionary::{Coding, Dictionary};
use crate::http::encoding::decode;
use crate::process::interrupt;
use crate::results::probe::{OfferedDictionary, ProbeRow, UrlResult};
use crate::stats::percentile;
use crate::vocab::{CodecKind, Server, BROWSER_ACCEPT_ENCODING};

/// The `Accept-Encoding` values probe sends, the reference first; `dcz` and `dcb`
/// follow where the server offers a dictionary.
pub(crate) const ACCEPT_ENCODINGS: [&str; 5] =
    ["identity", "gzip", "br", "zstd", BROWSER_ACCEPT_ENCODING];

/// How every URL is probed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probing<'a> {
    /// Headers sent with every request (`-H`).
    pub headers: &'a [(String, String)],
    /// Requests, time and connections per `Accept-Encoding`.
    pub load: ProbeLoad,
    /// The server profile to predict bodies with.
    pub server: Option<Server>,
    /// The dictionary to offer every URL (`--dictionary`), instead of the one its
    /// identity response links.
    pub dictionary: Option<&'a str>,
}

/// Probes `target` with every [`ACCEPT_ENCODINGS`] value, and `dcz` and `dcb` against
/// the dictionary the server offers, if it offers one. A stop request ends it with the
/// rows measured so far, the row in flight marked as stopped.
pub(crate) fn probe_url(target: &Target, probing: Probing) -> UrlResult {
    let (identity, first) = probe_one(target, "identity", probing.headers, probing.load, None);
    let reference = first.as_ref().map(|e| e.body.to_vec());
    let mut rows = vec![identity];
    for accept in &ACCEPT_ENCODINGS[1..] {
        if interrupt::requested() {
            break;
        }
        let row = match &reference {
            Some(body) => {
                probe_one(
                    target,
                    accept,
                    probing.headers,
                    probing.load,
                    Some((body, None)),
                )
                .0
            }
            None => failed(accept, NO_REFERENCE),
        };
        rows.push(row);
    }
    let link = first.as_ref().and_then(|e| e.link.as_deref());
    let dictionary = probing
        .dictionary
        .map(String::from)
        .or_else(|| {
            link.and_then(offer::linked_dictionary)
                .map(|d| offer::resolve(target, d))
        })
        .filter(|_| !interrupt::requested())
        .map(|url| {
            let linked = probing.dictionary.is_none();
            let (dictionary_rows, bytes) =
                with_dictionary(target, probing, &url, linked, reference.as_deref());
            rows.extend(dictionary_rows);
            OfferedDictionary { url, bytes }
        });
    let identity_ttfb = rows[0].ttfb_p50_ms;
    for row in rows.iter_mut().skip(1).filter(|r| r.failure.is_none()) {
        if row.encoding != "identity" {
            row.server_extra_ms = Some(row.ttfb_p50_ms - identity_ttfb);
        }
        if let (Some(server), Some(body)) = (probing.server, &reference) {
            if !interrupt::requested() {
                predict(row, server, body);
            }
        }
    }
    UrlResult {
        url: target.url.clone(),
        identity_bytes: reference.as_ref().map(|b| b.len() as u64),
        rows,
        dictionary,
    }
}

const NO_REFERENCE: &str = "the identity request failed, so nothing to compare with";

/// The `dcz` and `dcb` rows against the dictionary at `url`, each request naming it in
/// `Available-Dictionary`; and the dictionary's size, when it could be fetched. A
/// `linked` dictionary (named by the page's `Link`) must share the page's origin.
fn with_dictionary(
    target: &Target,
    probing: Probing,
    url: &str,
    linked: bool,
    reference: Option<&[u8]>,
) -> (Vec<ProbeRow>, Option<u64>) {
    let codings = [Coding::Dcz, Coding::Dcb];
    let dictionary = match fetch_dictionary(target, url, linked, probing) {
        Ok(dictionary) => dictionary,
        Err(error) => {
            let why = format!("the dictionary at {url}: {error:#}");
            return (
                codings.map(|c| failed(c.token(), why.clone())).to_vec(),
                None,
            );
        }
    };
    let mut headers = probing.headers.to_vec();
    headers.push((
        "available-dictionary".into(),
        dictionary.available_dictionary(),
    ));
    let rows = codings.map(|coding| match reference {
        Some(body) => {
            probe_one(
                target,
                coding.token(),
                &headers,
                probing.load,
                Some((body, Some(&dictionary))),
            )
            .0
        }
        None => failed(coding.token(), NO_REFERENCE),
    });
    (rows.to_vec(), Some(dictionary.bytes().len() as u64))
}

/// Fetches the dictionary at `url` for `page` once, as every request is sent (its TLS
/// settings) and checked (a redirect or non-2xx status is an error), decoded if it came
/// compressed, at most `--max-body` bytes either way. The `-H` headers go with it only
/// to the page's own origin; a `linked` dictionary of another origin is not fetched at
/// all (RFC 9842 §3 has the client fetch it as the page's own resource).
fn fetch_dictionary(
    page: &Target,
    url: &str,
    linked: bool,
    probing: Probing,
) -> Result<Dictionary> {
    let source = target(url)?;
    let same_origin = page.same_origin(&source);
    if linked && !same_origin {
        return Err(anyhow!(
            "the page links a dictionary of another origin ({}), which probe does not fetch: \
             pass it as --dictionary URL (it is then fetched without the -H headers)",
            source.origin()
        ));
    }
    let headers: &[(String, String)] = if same_origin { probing.headers } else { &[] };
    let once = ProbeLoad {
        requests: 1,
        ..probing.load
    };
    let (row, first) = probe_one(&source, "identity", headers, once, None);
    if let Some(why) = row.failure {
        return Err(anyhow!(why));
    }
    let first = first.ok_or_else(|| anyhow!("no response"))?;
    let limit = probing.load.max_body;
    let bytes = decode(first.content_encoding.as_deref(), &first.body, None, limit)
        .context("as a dictionary (--max-body bounds it too)")?;
    if bytes.is_empty() {
        return Err(anyhow!("it is empty"));
    }
    Ok(Dictionary::new(bytes))
}

/// A row for `accept` with nothing measured yet.
fn empty(accept: &str) -> ProbeRow {
    ProbeRow {
        accept_encoding: accept.to_string(),
        requests: 0,
        status: 0,
        encoding: String::new(),
        vary: None,
        body_bytes: 0.0,
        wire_bytes: 0.0,
        predicted_level: None,
        predicted_body_bytes: None,
        predicted_compress_ms: None,
        ttfb_p50_ms: 0.0,
        ttfb_p99_ms: 0.0,
        total_p50_ms: 0.0,
        total_p99_ms: 0.0,
        server_extra_ms: None,
        total_ms: Vec::new(),
        failure: None,
    }
}

fn failed(accept: &str, why: impl Into<String>) -> ProbeRow {
    ProbeRow {
        failure: Some(why.into()),
        ..empty(accept)
    }
}

/// What a body is checked against: the identity body, and the dictionary the request
/// offered, if any.
type Reference<'a> = (&'a [u8], Option<&'a Dictionary>);

/// Checks one response against the reference (none for the identity request itself).
fn check(exchange: &Exchange, reference: Option<Reference>) -> Result<()> {
    match exchange.status {
        200..=299 => {}
        300..=399 => {
            let to = exchange.location.as_deref().unwrap_or("?");
            return Err(anyhow!(
                "redirected ({}) to {to}: probe the final URL",
                exchange.status
            ));
        }
        status => return Err(anyhow!("the server answered {status}")),
    }
    let Some((reference, dictionary)) = reference else {
        return Ok(());
    };
    let coding = exchange.content_encoding.as_deref();
    // One byte past the identity body's length cannot be right: stop there.
    let decoded =
        decode(coding, &exchange.body, dictionary, reference.len() as u64).with_context(|| {
            let length = crate::format::thousands(reference.len() as u64);
            format!("checked against the identity body ({length} bytes)")
        })?;
    if decoded != reference {
        return Err(anyhow!(
            "the {} body decodes to {} bytes that differ from the identity body ({} bytes)",
            coding.unwrap_or("identity"),
            decoded.len(),
            reference.len()
        ));
    }
    Ok(())
}

/// Sends `accept`'s requests and sums them up; the first response comes back with it.
fn probe_one(
    target: &Target,
    accept: &str,
    headers: &[(String, String)],
    load: ProbeLoad,
    reference: Option<Reference>,
) -> (ProbeRow, Option<Exchange>) {
    let seen: Mutex<Vec<Exchange>> = Mutex::new(Vec::new());
    let each = |exchange: Exchange| -> Result<()> {
        check(&exchange, reference)?;
        let mut seen = seen.lock().expect("no panic holds it");
        // Keep one body: the first, as the reference or for the prediction.
        let body = if seen.is_empty() {
            exchange.body.clone()
        } else {
            Default::default()
        };
        seen.push(Exchange { body, ..exchange });
        Ok(())
    };
    let result = exchange_all(target, accept, headers, load, &each);
    let seen = seen.into_inner().expect("no panic holds it");
    if interrupt::requested() {
        return (failed(accept, "stopped before it finished"), None);
    }
    if let Err(error) = result {
        return (failed(accept, format!("{error:#}")), None);
    }
    if seen.is_empty() {
        return (failed(accept, "no response within the load's bounds"), None);
    }
    let row = row(accept, &seen);
    (row, seen.into_iter().next())
}

/// `accept`'s row from the exchanges `seen` (at least one): the first's head and body,
/// every one's times and bytes on the wire.
fn row(accept: &str, seen: &[Exchange]) -> ProbeRow {
    let first = &seen[0];
    let ms = |pick: fn(&Exchange) -> std::time::Duration| -> Vec<f64> {
        let mut v: Vec<f64> = seen.iter().map(|e| pick(e).as_secs_f64() * 1e3).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let (ttfb, total) = (ms(|e| e.first_byte), ms(|e| e.last_byte));
    let mean = |f: fn(&Exchange) -> f64| seen.iter().map(f).sum::<f64>() / seen.len() as f64;
    ProbeRow {
        accept_encoding: accept.to_string(),
        requests: seen.len(),
        status: first.status,
        encoding: first
            .content_encoding
            .clone()
            .unwrap_or_else(|| "identity".into()),
        vary: first.vary.clone(),
        body_bytes: first.body.len() as f64,
        wire_bytes: mean(|e| e.wire_bytes as f64),
        ttfb_p50_ms: percentile(&ttfb, 50.0),
        ttfb_p99_ms: percentile(&ttfb, 99.0),
        total_p50_ms: percentile(&total, 50.0),
        total_p99_ms: percentile(&total, 99.0),
        total_ms: seen
            .iter()
            .map(|e| e.last_byte.as_secs_f64() * 1e3)
            .collect(),
        ..empty(accept)
    }
}

/// The level of `server`'s own encoder whose body for `reference` is the size the
/// server sent (the nearest, if none is), and codecbench's time to compress it.
fn predict(row: &mut ProbeRow, server: Server, reference: &[u8]) {
    let kind = match row.encoding.as_str() {
        "gzip" => CodecKind::Gzip,
        "br" => CodecKind::Brotli,
        "zstd" => CodecKind::Zstd,
        _ => return,
    };
    let Some(codec) = crate::codec::of_server(server, kind, Default::default()) else {
        return;
    };
    let sent = row.body_bytes as u64;
    let mut best: Option<(i32, u64)> = None;
    for level in codec.supported_levels().filter(|l| (0..=19).contains(l)) {
        let Ok(body) = codec.compress(level, reference) else {
            continue;
        };
        let size = body.len() as u64;
        if best.is_none_or(|(_, b)| size.abs_diff(sent) < b.abs_diff(sent)) {
            best = Some((level, size));
        }
        if size == sent {
            break;
        }
    }
    let Some((level, size)) = best else {
        return;
    };
    let mut times: Vec<f64> = (0..5)
        .filter_map(|_| {
            let start = Instant::now();
            codec.compress(level, reference).ok()?;
            Some(start.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    row.predicted_level = Some(level);
    row.predicted_body_bytes = Some(size);
    row.predicted_compress_ms = times.get(times.len() / 2).copied();
}
