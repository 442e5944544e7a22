//! End to end: `probe` against servers that attack it, each started by the test on
//! loopback. Bombs in every coding, a dictionary and bodies past every bound, a second
//! origin that records what it is sent, silent peers, stop requests in each phase, and
//! servers that close every connection. Each checks the exit code, the message, the
//! time and the child's peak resident memory.

mod baseline;
mod emitted;
mod files;
mod lab;
mod links;
mod markdown;
mod parsers;
mod peer;
mod random_names;
mod serve;
mod stops;
mod written;

use std::io::Write;
use std::sync::OnceLock;
use std::time::Duration;

use crate::common::probe_row as row;
use brotlic::{BrotliEncoderOptions, CompressorWriter, Quality};
use codecbench::{DCB_MAGIC, DCZ_MAGIC};
use peer::{response, run, Answer, Ended, Greeting, Peer, Signal};
use serde_json::Value;
use sha2::Digest;

/// The identity body every page serves: 1,000 bytes.
const IDENTITY: &[u8] = &[b'a'; 1000];

/// What a decoded bomb holds: 1 GiB.
const BOMB_BYTES: usize = 1 << 30;

/// The dictionary the pages link.
const DICTIONARY: &[u8] = b"a dictionary of 40 bytes for the bombs..";

/// The most a probe of a hostile server may hold at its peak, in MB.
const PEAK_MB: f64 = 300.0;

/// 1 GiB of zeros, compressed once for every test: zstd as 8 MiB frames one after
/// another (a zstd body may hold several), gzip and brotli as one stream.
struct Bombs {
    gzip: Vec<u8>,
    br: Vec<u8>,
    zstd: Vec<u8>,
}

fn bombs() -> &'static Bombs {
    static BOMBS: OnceLock<Bombs> = OnceLock::new();
    BOMBS.get_or_init(|| {
        let zeros = vec![0u8; 8 << 20];
        let frame = zstd::bulk::compress(&zeros, 3).unwrap();
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        let encoder = BrotliEncoderOptions::new()
            .quality(Quality::new(2).unwrap())
            .build()
            .unwrap();
        let mut br = CompressorWriter::with_encoder(encoder, Vec::new());
        for _ in 0..BOMB_BYTES / zeros.len() {
            gzip.write_all(&zeros).unwrap();
            br.write_all(&zeros).unwrap();
        }
        Bombs {
            gzip: gzip.finish().unwrap(),
            br: br.into_inner().unwrap(),
            zstd: frame.repeat(BOMB_BYTES / zeros.len()),
        }
    })
}

/// `magic`, the dictionary's SHA-256, then `stream`: a dcz or dcb body.
fn with_dictionary(magic: &[u8], stream: &[u8]) -> Vec<u8> {
    let mut body = magic.to_vec();
    body.extend_from_slice(&sha2::Sha256::digest(DICTIONARY));
    body.extend_from_slice(stream);
    body
}

/// The `Accept-Encoding` a request head names.
fn accept(head: &str) -> &str {
    head.lines()
        .find_map(|l| l.strip_prefix("accept-encoding:"))
        .unwrap_or("")
        .trim()
}

/// A page that serves the identity body and links `link`, and `bomb`'s answer for
/// every other Accept-Encoding.
fn page(link: String, bomb: impl Fn(&str) -> Answer + Send + Sync + 'static) -> Peer {
    Peer::start("127.0.0.1", Greeting::Http, move |head| {
        if head.starts_with("get /dictionary") {
            return Answer::Send(response(&[], DICTIONARY));
        }
        match accept(head) {
            "identity" => Answer::Send(response(&[("Link", &link)], IDENTITY)),
            other => bomb(other),
        }
    })
}

/// `probe URL --requests 2 --format json --quiet EXTRA...`, within 60 s.
fn probe(url: &str, extra: &[&str]) -> (Ended, Value) {
    probe_times(url, "2", extra)
}

/// `probe URL --requests REQUESTS --format json --quiet EXTRA...`, within 60 s.
fn probe_times(url: &str, requests: &str, extra: &[&str]) -> (Ended, Value) {
    let mut args = vec![
        "probe",
        url,
        "--requests",
        requests,
        "--format",
        "json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let ended = run(&args, None, Duration::from_secs(60));
    let report = serde_json::from_slice(&ended.stdout).unwrap_or(Value::Null);
    (ended, report)
}

fn failure(report: &Value, accept: &str) -> String {
    row(report, accept)["failure"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_bomb_in_any_coding_stops_one_byte_past_the_identity_body() {
    let bombs = bombs();
    let link = "</dictionary>; rel=\"compression-dictionary\"".to_string();
    let server = page(link, |accept| {
        let (coding, body) = match accept {
            "gzip" => ("gzip", bombs.gzip.clone()),
            "br" => ("br", bombs.br.clone()),
            "dcz" => ("dcz", with_dictionary(&DCZ_MAGIC, &bombs.zstd)),
            "dcb" => ("dcb", with_dictionary(&DCB_MAGIC, &bombs.br)),
            _ => ("zstd", bombs.zstd.clone()), // zstd, and the browser's list
        };
        Answer::Send(response(&[("Content-Encoding", coding)], &body))
    });
    let (ended, report) = probe(&server.url("/page"), &[]);
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let rows = report["urls"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7, "identity, 4 codings, dcz and dcb: {report}");
    for row in &rows[1..] {
        let why = row["failure"].as_str().unwrap_or_default();
        assert!(
            why.contains("decodes to more than 1,000 bytes"),
            "{}: {why}",
            row["accept_encoding"]
        );
    }
    assert!(ended.peak_mb < PEAK_MB, "peak {} MB", ended.peak_mb);
}

#[test]
fn a_body_or_dictionary_past_max_body_is_refused_as_it_arrives() {
    // The dictionary declares 1 GiB; the gzip body never ends.
    let server = Peer::start("127.0.0.1", Greeting::Http, |head| {
        if head.starts_with("get /dictionary") {
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n";
            return Answer::SendAndClose(head.as_bytes().to_vec());
        }
        match accept(head) {
            "identity" => Answer::Send(response(
                &[("Link", "</dictionary>; rel=\"compression-dictionary\"")],
                IDENTITY,
            )),
            _ => Answer::Endless,
        }
    });
    let (ended, report) = probe(&server.url("/page"), &["--max-body", "1MiB"]);
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    for accept in ["gzip", "br", "zstd", "dcz"] {
        let why = failure(&report, accept);
        assert!(
            why.contains("more than 1,048,576 bytes (--max-body)"),
            "{accept}: {why}"
        );
    }
    assert!(ended.peak_mb < PEAK_MB, "peak {} MB", ended.peak_mb);

    // An endless identity body, at the default ceiling of 64 MiB.
    let endless = Peer::start("127.0.0.1", Greeting::Http, |_| Answer::Endless);
    let (ended, report) = probe(&endless.url("/"), &[]);
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    assert!(failure(&report, "identity").contains("more than 67,108,864 bytes"));
    assert!(ended.peak_mb < PEAK_MB, "peak {} MB", ended.peak_mb);
}

/// A recorder on 127.0.0.2, another origin, that serves a dictionary to whoever asks.
fn other_origin() -> Peer {
    Peer::start("127.0.0.2", Greeting::Http, |_| {
        Answer::Send(response(&[], DICTIONARY))
    })
}

const SECRET: [&str; 4] = [
    "-H",
    "Authorization: Bearer SECRET",
    "-H",
    "Cookie: session=SECRET",
];

#[test]
fn credentials_go_only_to_their_own_origin() {
    let other = other_origin();
    for link in [
        format!(
            "<http://{}/leak>; rel=\"compression-dictionary\"",
            other.address
        ),
        format!("<//{}/leak>; rel=\"compression-dictionary\"", other.address),
    ] {
        let server = page(link, |_| Answer::Send(response(&[], IDENTITY)));
        let (ended, report) = probe(&server.url("/page"), &SECRET);
        assert_eq!(ended.code, Some(1), "{}", ended.stderr);
        let why = failure(&report, "dcz");
        assert!(
            why.contains("another origin") && why.contains("--dictionary"),
            "{why}"
        );
        assert!(server.heads().iter().all(|h| h.contains("bearer secret")));
    }
    assert_eq!(
        other.heads(),
        Vec::<String>::new(),
        "a linked dictionary of another origin is not fetched"
    );

    // Named with --dictionary, it is fetched, without the -H headers.
    let server = page(String::new(), |_| Answer::Send(response(&[], IDENTITY)));
    let dictionary = other.url("/d");
    let mut extra = SECRET.to_vec();
    extra.extend(["--dictionary", &dictionary]);
    let (ended, _) = probe(&server.url("/page"), &extra);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let heads = other.heads();
    assert_eq!(heads.len(), 1, "{heads:?}");
    assert!(!heads[0].contains("secret"), "{}", heads[0]);
    assert!(server.heads().iter().all(|h| h.contains("bearer secret")));
}

#[test]
fn silent_peers_time_out_and_a_tls_error_says_what_the_peer_spoke() {
    let mute = Peer::start("127.0.0.1", Greeting::Mute, |_| Answer::Silent);
    let url = format!("https://{}/", mute.address);
    let (ended, report) = probe(&url, &["--timeout", "1", "--duration", "5"]);
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let why = failure(&report, "identity");
    assert!(why.contains("no response within 1 s (--timeout)"), "{why}");
    assert!(
        ended.elapsed < Duration::from_secs(5),
        "{:?}",
        ended.elapsed
    );

    let plain = Peer::start("127.0.0.1", Greeting::PlainError, |_| Answer::Silent);
    let url = format!("https://{}/", plain.address);
    let (ended, report) = probe(&url, &[]);
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let why = failure(&report, "identity");
    assert!(
        why.contains("did not answer in TLS: is it an http:// URL?"),
        "{why}"
    );
    assert!(!why.contains("--insecure"), "{why}");
}

#[test]
fn a_stop_request_ends_probe_within_a_second_in_every_phase() {
    let handshake = Peer::start("127.0.0.1", Greeting::Mute, |_| Answer::Silent);
    let head = Peer::start("127.0.0.1", Greeting::Http, |_| Answer::Silent);
    let body = Peer::start("127.0.0.1", Greeting::Http, |_| Answer::Drip);
    let tls = format!("https://{}/", handshake.address);
    let phases = [
        ("TLS handshake", tls, &handshake, libc::SIGINT, 130),
        ("response head", head.url("/"), &head, libc::SIGTERM, 143),
        ("body", body.url("/"), &body, libc::SIGINT, 130),
    ];
    for (phase, url, peer, number, code) in phases {
        let args = ["probe", &url, "--format", "json", "--quiet"];
        // Signalled once probe has connected, and is in the phase.
        let connected = || peer.accepted.load(std::sync::atomic::Ordering::SeqCst) > 0;
        let signal = Signal {
            number,
            after: Duration::from_millis(300),
            ready: &connected,
        };
        let ended = run(&args, Some(signal), Duration::from_secs(30));
        assert_eq!(ended.code, Some(code), "{phase}: {}", ended.stderr);
        let after = ended.after_signal.unwrap();
        assert!(after < Duration::from_secs(1), "{phase}: {after:?}");
        let report: Value = serde_json::from_slice(&ended.stdout).unwrap();
        assert_eq!(report["interrupted"], true, "{phase}");
        assert_eq!(failure(&report, "identity"), "stopped before it finished");
    }
}

#[test]
fn servers_that_close_every_connection_are_probed_like_any_other() {
    // HTTP/1.0 without keep-alive, as python3 -m http.server answers, and HTTP/1.1 with
    // `Connection: close`, as nginx answers past keepalive_requests.
    let old = Peer::start("127.0.0.1", Greeting::Http, |_| {
        let mut answer = b"HTTP/1.0 200 OK\r\nContent-Length: 1000\r\n\r\n".to_vec();
        answer.extend_from_slice(IDENTITY);
        Answer::SendAndClose(answer)
    });
    let closing = Peer::start("127.0.0.1", Greeting::Http, |_| {
        Answer::SendAndClose(response(&[("Connection", "close")], IDENTITY))
    });
    for server in [old, closing] {
        let (ended, report) = probe_times(&server.url("/"), "20", &[]);
        assert_eq!(ended.code, Some(0), "{}", ended.stderr);
        for row in report["urls"][0]["rows"].as_array().unwrap() {
            assert_eq!(row["requests"], 20, "{row}");
        }
        assert_eq!(
            server.heads().len(),
            100,
            "20 requests for each of 5 Accept-Encodings"
        );
    }
}

#[test]
fn a_url_that_is_not_one_is_bad_input() {
    let message = crate::common::bad_input(&["probe", "http://127.0.0.1:1/a b"]);
    assert!(message.contains("not a valid URL path"), "{message}");
}
