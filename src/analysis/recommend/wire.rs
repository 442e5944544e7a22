//! What a response costs on the wire besides its body, so that a small compressed body
//! is not credited with savings the framing eats:
//!
//! - an encoded body carries a `Content-Encoding` header field (RFC 9110 §8.4), e.g.
//!   `Content-Encoding: zstd` and its CRLF; `Vary: Accept-Encoding` is sent whether or
//!   not the body is encoded, so it counts for neither;
//! - the bytes travel in TCP segments of at most 1,448 bytes (a 1,500-byte Ethernet MTU
//!   less 20 bytes of IPv4, 20 of TCP and 12 of the timestamp option, RFC 7323), each
//!   with those 52 bytes of headers;
//! - on a new connection, TCP slow start sends 10 segments in the first round trip
//!   (RFC 6928) and doubles the window each round trip after (RFC 5681), so a larger
//!   body can cost whole round trips. With a round-trip time of 0 (the default) only
//!   bandwidth counts, as on a warm connection.

use serde::Serialize;

use crate::vocab::CodecKind;

/// Payload bytes per TCP segment.
pub(crate) const SEGMENT_PAYLOAD: u64 = 1448;
/// IPv4, TCP and timestamp-option header bytes per segment.
pub(crate) const SEGMENT_HEADERS: u64 = 52;
/// Segments TCP sends in the first round trip of a new connection (RFC 6928).
pub(crate) const INITIAL_WINDOW: u64 = 10;

/// The link a response crosses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct Link {
    /// Bandwidth in Mbit/s (10^6 bits per second).
    pub mbit: f64,
    /// Round-trip time in seconds; 0 leaves slow start out.
    pub rtt_s: f64,
}

impl Link {
    /// Seconds to deliver a body of `body_bytes`, encoded with `coding` or sent as it is.
    pub(crate) fn send_s(&self, body_bytes: u64, coding: Option<CodecKind>) -> f64 {
        let bytes = body_bytes + coding.map_or(0, header_bytes);
        let segments = bytes.div_ceil(SEGMENT_PAYLOAD).max(1);
        let wire_bytes = bytes + segments * SEGMENT_HEADERS;
        wire_bytes as f64 * 8.0 / (self.mbit * 1e6)
            + extra_round_trips(segments) as f64 * self.rtt_s
    }
}

/// The `Content-Encoding: <coding>` header line an encoded body adds, CRLF included.
pub(crate) fn header_bytes(coding: CodecKind) -> u64 {
    ("Content-Encoding: ".len() + coding.content_coding().len() + 2) as u64
}

/// Round trips beyond the first that slow start needs for `segments`.
fn extra_round_trips(segments: u64) -> u32 {
    let (mut window, mut sent, mut trips) = (INITIAL_WINDOW, INITIAL_WINDOW, 0);
    while sent < segments {
        window *= 2;
        sent += window;
        trips += 1;
    }
    trips
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: Link = Link {
        mbit: 100.0,
        rtt_s: 0.0,
    };

    #[test]
    fn an_encoded_body_pays_for_its_header_line() {
        assert_eq!(header_bytes(CodecKind::Zstd), 24);
        assert_eq!(header_bytes(CodecKind::Brotli), 22);
        // 290 bytes in one segment: 342 bytes on the wire, 27.36 µs at 100 Mbit/s.
        assert!((FAST.send_s(290, None) - 342.0 * 8.0 / 100e6).abs() < 1e-15);
        let encoded = FAST.send_s(241, Some(CodecKind::Zstd));
        assert!((encoded - (241.0 + 24.0 + 52.0) * 8.0 / 100e6).abs() < 1e-15);
    }

    #[test]
    fn every_segment_carries_headers() {
        let two = FAST.send_s(SEGMENT_PAYLOAD + 1, None);
        assert!((two - (1449.0 + 104.0) * 8.0 / 100e6).abs() < 1e-15);
    }

    #[test]
    fn slow_start_adds_round_trips_as_the_window_doubles() {
        assert_eq!(extra_round_trips(1), 0);
        assert_eq!(extra_round_trips(10), 0);
        assert_eq!(extra_round_trips(11), 1);
        assert_eq!(extra_round_trips(30), 1);
        assert_eq!(extra_round_trips(31), 2);
        let far = Link {
            mbit: 100.0,
            rtt_s: 0.05,
        };
        let body = 20 * SEGMENT_PAYLOAD;
        assert!((far.send_s(body, None) - FAST.send_s(body, None) - 0.05).abs() < 1e-12);
    }
}
