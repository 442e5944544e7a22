//! End to end: `codecbench serve` fetched by curl, the client users already trust, for
//! every encoding curl decodes here; skipped with a message where curl is missing or
//! lacks an encoding.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use codecbench::Coding;
use common::{bad_input, codecbench};

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
    let expected = codecbench::generate(1000, 42, codecbench::RngKind::Dotnet);
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
    let previous = codecbench::generate(1000, 42, codecbench::RngKind::Dotnet);
    let updated = codecbench::change_records(&previous, 0.05, 42).unwrap();
    // The dictionary path marks its body for the dcz paths (RFC 9842 §2.1).
    let url = server.url("/dictionary/small").to_string();
    let (headers, body) = curl(&[&url]);
    assert!(
        headers.contains("use-as-dictionary: match=\"/dc*/small\""),
        "{headers}"
    );
    assert!(body == previous);
    // A request naming that dictionary gets a dcz body that decodes to the update.
    let dictionary = codecbench::Dictionary::new(previous);
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
    assert!(dictionary.decode(Coding::Dcz, &body, 1 << 30).unwrap() == updated);
    assert!(body.len() < updated.len() / 100);
    server.stop();
}

/// RFC 9842 end to end: the dcz and dcb paths link their dictionary, and `probe` finds
/// the link, fetches the dictionary, and gets dcz and dcb bodies that decode to the
/// identity body; with `--dictionary` it offers one the server did not link.
#[test]
fn probe_follows_the_dictionary_link_to_dcz_and_dcb() {
    let server = Server::start(&[
        "--payload",
        "small",
        "--encodings",
        "dcz:3,dcb:5,zstd:1",
        "--dictionary",
        "previous",
    ]);
    let urls = [server.url("/dcz-3/small"), server.url("/dcb-5/small")];
    let output = codecbench()
        .args(["probe", "--requests", "2", "--format", "json", "-q"])
        .args(urls)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for (url, coding) in report["urls"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["dcz", "dcb"])
    {
        let dictionary = &url["dictionary"];
        assert!(
            dictionary["url"]
                .as_str()
                .unwrap()
                .ends_with("/dictionary/small"),
            "{dictionary}"
        );
        assert_eq!(dictionary["bytes"], 298_727, "the previous version");
        let row = url["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["accept_encoding"] == coding)
            .unwrap();
        assert_eq!(row["encoding"], coding, "{row}");
        assert_eq!(row["failure"], serde_json::Value::Null, "{row}");
        // Against the previous version, a 5% update is a few hundred bytes.
        assert!(row["body_bytes"].as_f64().unwrap() < 3_000.0, "{row}");
    }
    // zstd-1 links nothing; --dictionary offers the dictionary anyway, and the server,
    // which answers dcz only on its dcz path, sends the body as it is.
    let output = codecbench()
        .args(["probe", "--requests", "1", "--format", "json", "-q"])
        .arg(server.url("/zstd-1/small"))
        .arg("--dictionary")
        .arg(server.url("/dictionary/small"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = report["urls"][0]["rows"].as_array().unwrap();
    let dcz = rows.iter().find(|r| r["accept_encoding"] == "dcz").unwrap();
    assert_eq!(dcz["encoding"], "identity", "{dcz}");
    // A dictionary URL that answers 404 fails the dcz and dcb rows, naming it.
    let missing = server
        .url("/zstd-1/small")
        .replace("/zstd-1/small", "/nowhere");
    let output = codecbench()
        .args(["probe", "--requests", "1", "-q"])
        .arg(server.url("/zstd-1/small"))
        .arg("--dictionary")
        .arg(&missing)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the dictionary at {missing}: the server answered 404"
        )),
        "{stderr}"
    );
    server.stop();
}
