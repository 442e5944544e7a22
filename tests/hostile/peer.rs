//! Misbehaving servers and a child runner for the hostile-peer tests: every server is a
//! thread on 127.0.0.1 (or another loopback address) that the test starts and drops.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a peer does with one request, given its head.
pub enum Answer {
    /// Writes these bytes and waits for the next request on the connection.
    Send(Vec<u8>),
    /// Writes these bytes and closes the connection.
    SendAndClose(Vec<u8>),
    /// A chunked 200 whose body never ends.
    Endless,
    /// Sends the head and this many body bytes a second, forever.
    Drip,
    /// Holds the connection and sends nothing.
    Silent,
}

/// How a peer treats a new connection before any request.
#[derive(Clone, Copy, PartialEq)]
pub enum Greeting {
    /// Reads requests and answers them.
    Http,
    /// Reads nothing and sends nothing (a TLS peer that never answers the ClientHello).
    Mute,
    /// Sends a plain-text HTTP error at once and closes (an http:// server reached as
    /// https://).
    PlainError,
}

/// A server thread; it stops when dropped.
pub struct Peer {
    /// Where it listens.
    pub address: SocketAddr,
    /// Every request head it received, in order.
    pub seen: Arc<Mutex<Vec<String>>>,
    /// Connections accepted so far.
    pub accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

type Answering = dyn Fn(&str) -> Answer + Send + Sync;

impl Peer {
    /// A peer on `ip`, a free port, answering each request with `answer`.
    pub fn start(
        ip: &str,
        greeting: Greeting,
        answer: impl Fn(&str) -> Answer + Send + Sync + 'static,
    ) -> Peer {
        let listener = TcpListener::bind((ip, 0)).unwrap();
        let address = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let answer: Arc<Answering> = Arc::new(answer);
        let accepted = Arc::new(AtomicUsize::new(0));
        let (seen2, stop2, accepted2) = (seen.clone(), stop.clone(), accepted.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                accepted2.fetch_add(1, Ordering::SeqCst);
                let (seen, stop, answer) = (seen2.clone(), stop2.clone(), answer.clone());
                std::thread::spawn(move || serve(stream, greeting, &seen, &stop, &*answer));
            }
        });
        Peer {
            address,
            seen,
            accepted,
            stop,
        }
    }

    /// `http://ADDRESS{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// The request heads received so far.
    pub fn heads(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.address); // wakes the accept loop
    }
}

fn serve(
    mut stream: TcpStream,
    greeting: Greeting,
    seen: &Mutex<Vec<String>>,
    stop: &AtomicBool,
    answer: &Answering,
) {
    let hold = |stop: &AtomicBool| {
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    match greeting {
        Greeting::Mute => return hold(stop),
        Greeting::PlainError => {
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
            return;
        }
        Greeting::Http => {}
    }
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    while let Some(head) = read_head(&mut stream, stop) {
        seen.lock().unwrap().push(head.clone());
        let written = match answer(&head) {
            Answer::Send(bytes) => stream.write_all(&bytes),
            Answer::SendAndClose(bytes) => {
                let _ = stream.write_all(&bytes);
                return;
            }
            Answer::Endless => endless(&mut stream, stop),
            Answer::Drip => drip(&mut stream, stop),
            Answer::Silent => return hold(stop),
        };
        if written.is_err() {
            return;
        }
    }
}

/// One request head, up to its blank line; `None` at the end of the connection.
fn read_head(stream: &mut TcpStream, stop: &AtomicBool) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stop.load(Ordering::SeqCst) || head.len() > 65_536 {
            return None;
        }
        match stream.read(&mut byte) {
            Ok(0) => return None,
            Ok(_) => head.push(byte[0]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return None,
        }
    }
    Some(String::from_utf8_lossy(&head).to_lowercase())
}

fn endless(stream: &mut TcpStream, stop: &AtomicBool) -> std::io::Result<()> {
    stream.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")?;
    let chunk = [b'x'; 65_536];
    while !stop.load(Ordering::SeqCst) {
        stream.write_all(b"10000\r\n")?;
        stream.write_all(&chunk)?;
        stream.write_all(b"\r\n")?;
    }
    Ok(())
}

fn drip(stream: &mut TcpStream, stop: &AtomicBool) -> std::io::Result<()> {
    stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")?;
    while !stop.load(Ordering::SeqCst) {
        stream.write_all(b"x")?;
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// A whole response: status 200, `headers`, a Content-Length and `body`.
pub fn response(headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = b"HTTP/1.1 200 OK\r\n".to_vec();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
    out
}

/// How a child process ended.
pub struct Ended {
    /// Its exit code; `None` when a signal killed it.
    pub code: Option<i32>,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error.
    pub stderr: String,
    /// From the start to its end.
    pub elapsed: Duration,
    /// From the signal sent, if any, to its end.
    pub after_signal: Option<Duration>,
    /// Its peak resident memory, in MB (getrusage's ru_maxrss).
    pub peak_mb: f64,
}

/// A signal to send a child once `ready` says so, and no sooner than `after`.
pub struct Signal<'a> {
    /// Its number, e.g. `libc::SIGINT`.
    pub number: i32,
    /// The least time from the start.
    pub after: Duration,
    /// Whether the child has reached the phase the signal is for.
    pub ready: &'a dyn Fn() -> bool,
}

/// Runs codecbench with `args`, sending `signal` if given; kills it and fails the test
/// if it is still running after `limit`.
pub fn run(args: &[&str], signal: Option<Signal>, limit: Duration) -> Ended {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let start = Instant::now();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_codecbench"));
    command
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap());
    // A spawn that shares this process's memory until exec (posix_spawn, vfork) gives
    // the child this whole test binary's peak as its own (another test's 300 MB once
    // failed a refusal here); fork copies only what this process holds now.
    // SAFETY: the hook calls nothing; it only makes the standard library fork.
    unsafe { std::os::unix::process::CommandExt::pre_exec(&mut command, || Ok(())) };
    // Reaped below by wait4, which also gives its peak memory, not by Child::wait.
    #[allow(clippy::zombie_processes)]
    let child = command.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut signalled = None;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid, and wait4 fills it for our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break (status, usage);
        }
        if let Some(signal) = &signal {
            if signalled.is_none() && start.elapsed() >= signal.after && (signal.ready)() {
                // SAFETY: signalling our own child by its pid.
                unsafe { libc::kill(pid, signal.number) };
                signalled = Some(Instant::now());
            }
        }
        if start.elapsed() > limit {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!(
                "codecbench {args:?} still ran after {limit:?}: {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let peak_mb = usage.ru_maxrss as f64 / 1024.0;
    // The figures, for `cargo test --test e2e hostile:: -- --nocapture`.
    eprintln!(
        "{args:?}: exit {code:?} in {:.2} s ({:?} after the signal), peak {peak_mb:.0} MB",
        start.elapsed().as_secs_f64(),
        signalled.map(|at| at.elapsed()),
    );
    Ended {
        code,
        stdout: std::fs::read(&out).unwrap(),
        stderr,
        elapsed: start.elapsed(),
        after_signal: signalled.map(|at| at.elapsed()),
        peak_mb,
    }
}
