//! `serve` against clients that hold connections and send nothing, or half a request,
//! at a file-descriptor limit of 1,024; and what it says of an address past loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::peer::{run, Signal};

/// A serve process, killed if the test ends before it stops it.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `serve --port 0 --payload single --encodings identity` with at most 1,024 file
/// descriptors, and the address it printed.
fn serve_at_1024_descriptors() -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codecbench"));
    command
        .args(["serve", "--port", "0", "--payload", "single"])
        .args(["--encodings", "identity"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    started(command.spawn().unwrap())
}

/// A started serve process and the address its first line names; its stdout is read
/// on, since a closed stdout would stop the server.
fn started(mut child: std::process::Child) -> (Child, String) {
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut first).unwrap();
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let address = first
        .strip_prefix("serving on http://")
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    (Child(child), address)
}

/// A GET of the single record's identity path: whether a 200 came back within 2 s.
fn served(address: &str) -> bool {
    let Ok(mut stream) = TcpStream::connect(address) else {
        return false;
    };
    stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let request =
        format!("GET /identity/single HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer.starts_with(b"HTTP/1.1 200")
}

#[test]
fn idle_and_half_sent_connections_leave_and_a_stop_ends_them() {
    let (mut child, address) = serve_at_1024_descriptors();
    assert!(served(&address), "served before the flood");
    let mut held: Vec<TcpStream> = Vec::new();
    for i in 0..1100 {
        let Ok(mut stream) = TcpStream::connect(&address) else {
            continue;
        };
        if i % 2 == 0 {
            let _ = stream.write_all(b"GET /identity/single HTTP/1.1\r\nHost: x\r\n");
        }
        held.push(stream);
    }
    // Past the cap a new client is closed at once, not left hanging; once the held
    // connections time out (10 s), clients are served again.
    let start = Instant::now();
    let _ = served(&address);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    let start = Instant::now();
    while !served(&address) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "not served 20 s into the flood"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut buffer = [0u8; 64];
    let half_sent = &mut held[0];
    half_sent
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    assert!(
        matches!(half_sent.read(&mut buffer), Ok(0) | Err(_)),
        "the half-sent request's connection was closed"
    );

    // A half-sent request does not hold SIGTERM up.
    let mut pending = TcpStream::connect(&address).unwrap();
    pending
        .write_all(b"GET /identity/single HTTP/1.1\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: signalling our own child by its pid.
    unsafe { libc::kill(child.0.id() as i32, libc::SIGTERM) };
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "SIGTERM took over 2 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(143));
}

#[test]
fn an_address_past_loopback_is_named_in_a_warning() {
    let args = [
        "serve",
        "--bind",
        "0.0.0.0",
        "--port",
        "0",
        "--payload",
        "single",
    ];
    let signal = Signal {
        number: libc::SIGTERM,
        after: Duration::from_millis(1500),
        ready: &|| true,
    };
    let ended = run(&args, Some(signal), Duration::from_secs(30));
    assert_eq!(ended.code, Some(143), "{}", ended.stderr);
    let first = ended.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("codecbench: warning: --bind 0.0.0.0 reaches beyond this machine"),
        "{}",
        ended.stderr
    );
}

/// `serve --port 0 --records 100000 --encodings identity --send-timeout SECONDS` (a
/// 30 MB body, more than loopback's socket buffers hold), and the address it printed.
fn serve_large(send_timeout: &str) -> (Child, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_codecbench"))
        .args(["serve", "--port", "0", "--records", "100000"])
        .args(["--encodings", "identity", "--send-timeout", send_timeout])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    started(child)
}

#[test]
fn a_client_that_never_reads_is_dropped_after_the_send_timeout() {
    let (_serve, address) = serve_large("1");
    // Twenty clients ask for the 30 MB body and read none of it.
    let request = format!("GET {BIG} HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let clients: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).unwrap();
            stream.write_all(request.as_bytes()).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_secs(3));
    // Each connection was closed: what the kernel had buffered, then the end, well short
    // of the body.
    for mut stream in clients {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut received = Vec::new();
        let ended = stream.read_to_end(&mut received);
        let reset = ended
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset);
        assert!(ended.is_ok() || reset, "{ended:?}");
        assert!(received.len() < 30_483_777, "{} bytes", received.len());
    }
    // The server still serves others.
    assert!(served_path(&address, BIG));
}

/// The path of the 30 MB body.
const BIG: &str = "/identity/100000-records";

/// A GET of `path`: whether a 200 came back within 10 s.
fn served_path(address: &str, path: &str) -> bool {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer.starts_with(b"HTTP/1.1 200")
}
