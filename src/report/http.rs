//! Rendering `http`: one row per encoding.

use super::{significant, text_table, thousands};
use crate::http::EncodingResult;

const HEADER: [&str; 10] = [
    "encoding",
    "requests",
    "req/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "wire B/response",
    "body B",
    "ratio",
    "server CPU ms",
];
const NUMERIC: [bool; 10] = [false, true, true, true, true, true, true, true, true, true];

/// The table for one payload of `input_bytes`, under a title line.
pub fn render_table(payload: &str, input_bytes: u64, results: &[EncodingResult]) -> Vec<u8> {
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            vec![
                r.encoding.clone(),
                r.requests.to_string(),
                significant(r.requests_per_s, 3),
                significant(r.p50_ms, 3),
                significant(r.p90_ms, 3),
                significant(r.p99_ms, 3),
                thousands(r.wire_bytes.round() as u64),
                thousands(r.body_bytes.round() as u64),
                format!("{:.2}", input_bytes as f64 / r.body_bytes.max(1.0)),
                r.server_cpu_ms
                    .map(|ms| significant(ms, 3))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    let mut out = format!(
        "{payload}: {} bytes over HTTP/1.1 on loopback; latency from request to last body byte; server CPU per response; every body decoded and checked\n",
        thousands(input_bytes)
    );
    out.push_str(&text_table(&HEADER, &rows, &NUMERIC));
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_snapshot() {
        let result = |encoding: &str, rps: f64, p50: f64, wire: f64, body: f64| EncodingResult {
            encoding: encoding.into(),
            requests: 100,
            requests_per_s: rps,
            p50_ms: p50,
            p90_ms: p50 * 1.2,
            p99_ms: p50 * 2.0,
            wire_bytes: wire,
            body_bytes: body,
            server_cpu_ms: Some(p50 * 0.6),
        };
        let results = [
            result("zstd:1", 1200.0, 0.8, 41_300.0, 41_132.0),
            result("identity", 3000.0, 0.3, 299_000.0, 298_727.0),
        ];
        let text = String::from_utf8(render_table("small", 298_727, &results)).unwrap();
        insta::assert_snapshot!(text);
    }
}
