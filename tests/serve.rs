//! End to end: `codecbench serve` fetched by curl, the client users already trust, for
//! every encoding curl decodes here; skipped with a message where curl is missing or
//! lacks an encoding.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use codecbench::http::dictionary::Coding;
use common::bad_input;

/// The encodings curl can decode here, from the features `curl -V` lists.
fn curl_decodes() -> Option<Vec<&'static str>> {
    let output = Command::new("curl").arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout).to_lowercase();
    let mut codings = vec!["identity"];
    for (feature, coding) in [
        ("zlib/", "gzip-6"),
        ("brotli/", "br-4"),
        ("zstd/", "zstd-1"),
    ] {
        if text.contains(feature) {
            codings.push(coding);
        } else {
            eprintln!("curl here cannot decode {coding}: skipped");
        }
    }
    Some(codings)
}

/// `curl -s ARGS`: the response headers (lower-case) and the body.
fn curl(args: &[&str]) -> (String, Vec<u8>) {
    let output = Command::new("curl")
        .args(["-s", "-D", "/dev/stderr"])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "curl {args:?}");
    let headers = String::from_utf8_lossy(&output.stderr).to_lowercase();
    (headers, output.stdout)
}

/// A server on a free port; its URLs, read from its first lines.
struct Server {
    child: std::process::Child,
    urls: Vec<String>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codecbench"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (lines_tx, lines_rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines_rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(first.starts_with("serving on http://127.0.0.1:"), "{first}");
        let mut urls = Vec::new();
        while let Ok(line) = lines_rx.recv_timeout(Duration::from_millis(500)) {
            urls.push(line.split_whitespace().next().unwrap().to_string());
        }
        Server { child, urls }
    }

    fn url(&self, path: &str) -> &str {
        self.urls.iter().find(|u| u.ends_with(path)).unwrap()
    }

    /// Ctrl-C, as a user stops it: the server must end by itself, successfully.
    fn stop(mut self) {
        // SAFETY: signalling our own child process by its pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().unwrap();
        panic!("the server did not stop within 10 s of Ctrl-C");
    }
}

#[test]
fn curl_gets_every_encoding_byte_for_byte() {
    let Some(codings) = curl_decodes() else {
        eprintln!("curl is not installed: skipped");
        return;
    };
    let server = Server::start(&[
        "--payload",
        "small",
        "--encodings",
        "zstd:1,br:4,gzip:6,identity",
    ]);
    assert_eq!(server.urls.len(), 4, "{:?}", server.urls);
    let expected = codecbench::payload::generate(1000, 42, codecbench::payload::RngKind::Dotnet);
    for coding in codings {
        let url = server.url(&format!("/{coding}/small")).to_string();
        let (headers, body) = curl(&["--compressed", &url]);
        let sent = coding.split('-').next().unwrap();
        if sent == "identity" {
            assert!(!headers.contains("content-encoding"), "{headers}");
        } else {
            assert!(
                headers.contains(&format!("content-encoding: {sent}")),
                "{headers}"
            );
        }
        assert!(body == expected, "{url}: the body differs from the payload");
    }
    server.stop();
}

#[test]
fn bad_addresses_are_refused() {
    let message = bad_input(&["serve", "--bind", "localhost-ish"]);
    assert!(message.contains("not an IP address"), "{message}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let message = bad_input(&["serve", "--port", &port, "--payload", "single"]);
    assert!(message.contains("cannot listen on 127.0.0.1:"), "{message}");
    let message = bad_input(&["serve", "--encodings", "dcz:3", "--port", "0"]);
    assert!(message.contains("add --dictionary previous"), "{message}");
}

#[test]
fn a_client_holding_the_previous_version_gets_dcz() {
    if Command::new("curl").arg("-V").output().is_err() {
        eprintln!("curl is not installed: skipped");
        return;
    }
    let server = Server::start(&[
        "--payload",
        "small",
        "--encodings",
        "dcz:3",
        "--dictionary",
        "previous",
    ]);
    let previous = codecbench::payload::generate(1000, 42, codecbench::payload::RngKind::Dotnet);
    let updated = codecbench::payload::change::change_records(&previous, 0.05, 42).unwrap();
    // The dictionary path marks its body for the dcz paths (RFC 9842 §2.1).
    let url = server.url("/dictionary/small").to_string();
    let (headers, body) = curl(&[&url]);
    assert!(
        headers.contains("use-as-dictionary: match=\"/dc*/small\""),
        "{headers}"
    );
    assert!(body == previous);
    // A request naming that dictionary gets a dcz body that decodes to the update.
    let dictionary = codecbench::http::dictionary::Dictionary::new(previous);
    let available = format!(
        "Available-Dictionary: {}",
        dictionary.available_dictionary()
    );
    let url = server.url("/dcz-3/small").to_string();
    let accept = "Accept-Encoding: gzip, br, zstd, dcb, dcz";
    let (headers, body) = curl(&["-H", accept, "-H", &available, &url]);
    assert!(headers.contains("content-encoding: dcz"), "{headers}");
    assert!(
        headers.contains("vary: accept-encoding, available-dictionary"),
        "{headers}"
    );
    assert!(dictionary.decode(Coding::Dcz, &body).unwrap() == updated);
    assert!(body.len() < updated.len() / 100);
    server.stop();
}
