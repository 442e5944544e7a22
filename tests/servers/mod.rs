//! Real servers on 127.0.0.1 for the end-to-end tests: Debian's nginx (with ngx_brotli's
//! modules), apache2, caddy and an Express app in Node.js, started from a configuration in a temporary directory and
//! stopped when dropped. A server that is not installed skips its test with a message
//! naming the package, except in CI, where `.ci/run` installs it and its absence fails.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod apache;
mod express;
pub use apache::{apache, apache_directives, APACHE2, MODULES};
pub use express::{express, express_installed, node_encodes, NODE_MODULES};

/// ngx_brotli's filter module as Debian installs it.
pub const BROTLI_FILTER: &str = "/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so";
/// ngx_brotli's static module.
pub const BROTLI_STATIC: &str = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

/// Whether `program` and `files` are here; if not, says which package to install and
/// returns false (outside CI) or fails (in CI).
pub fn installed(program: &str, files: &[&str], package: &str) -> bool {
    let found = Command::new(program)
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
        && files.iter().all(|f| Path::new(f).exists());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install {package} (.ci/run does)"
        );
        eprintln!("{program} is not installed (Debian packages: {package}): skipped");
    }
    found
}

/// A port nobody listens on now, and one no other server of this test binary was given:
/// two tests handed the same port would find each other's server.
fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// Waits until `child` itself listens on `address`, alone, or exits, for at most 10 s.
fn wait_for(address: SocketAddr, child: &mut Child) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        // Only our own server: another process may have taken the port, and ours
        // then keeps trying to bind it (nginx for 2.5 s) before it exits.
        let answers = TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok();
        if answers && codecbench::listens_alone(child.id(), address.port()) {
            return child.try_wait().unwrap().is_none();
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Whether a TLS handshake with `address` succeeds within 10 s (any certificate).
fn handshake_succeeds(address: SocketAddr) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let ok = Command::new("curl")
            .args(["-k", "-s", "-o", "/dev/null", "--max-time", "2"])
            .arg(format!("https://{address}/"))
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// `child`, started on `port` in `dir`, once it answers (over TLS, once a handshake
/// succeeds too, since the tests speak TLS to it at once); else it is stopped and the
/// directory given back for its logs.
fn up(
    mut child: Child,
    port: u16,
    dir: tempfile::TempDir,
    tls: bool,
) -> Result<Running, tempfile::TempDir> {
    let address: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    if wait_for(address, &mut child) && (!tls || handshake_succeeds(address)) {
        return Ok(Running {
            child,
            address,
            _dir: dir,
        });
    }
    let _ = child.kill();
    let _ = child.wait();
    Err(dir)
}

/// A server process, killed when dropped.
pub struct Running {
    child: Child,
    /// Its address.
    pub address: SocketAddr,
    /// Its directory (configuration, logs, and `www/`, the files it serves), kept until
    /// the server is dropped.
    _dir: tempfile::TempDir,
}

impl Running {
    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A directory with `www/` holding `files` (name, bytes).
fn site(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("www")).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join("www").join(name), bytes).unwrap();
    }
    dir
}

/// Starts nginx in the foreground, one process, serving `files` from `www/` with
/// `server_body` (directives and locations) inside its `server` block. `Err` carries
/// its error log when it does not start.
pub fn nginx(files: &[(&str, &[u8])], server_body: &str) -> Result<Running, String> {
    nginx_on(files, server_body, false)
}

/// As [`nginx`], over TLS with a self-signed certificate for 127.0.0.1 that the `openssl`
/// program makes in the server's directory.
pub fn nginx_tls(files: &[(&str, &[u8])], server_body: &str) -> Result<Running, String> {
    nginx_on(files, server_body, true)
}

/// A certificate and key for 127.0.0.1 in `dir`, made by `openssl`; the `ssl` part of
/// nginx's `listen` and the directives that name them.
fn self_signed(dir: &Path) -> (&'static str, String) {
    let status = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl runs");
    assert!(status.success(), "openssl made no certificate");
    let root = dir.display();
    let directives =
        format!("    ssl_certificate {root}/cert.pem;\n    ssl_certificate_key {root}/key.pem;\n");
    (" ssl", directives)
}

fn nginx_on(files: &[(&str, &[u8])], server_body: &str, tls: bool) -> Result<Running, String> {
    for _attempt in 0..3 {
        let dir = site(files);
        let port = free_port();
        let root = dir.path().display().to_string();
        let (ssl, certificate) = if tls {
            self_signed(dir.path())
        } else {
            ("", String::new())
        };
        let conf = format!(
            "daemon off;\nmaster_process off;\nworker_processes 1;\n\
             error_log {root}/error.log;\npid {root}/nginx.pid;\n\
             load_module {BROTLI_FILTER};\nload_module {BROTLI_STATIC};\n\
             events {{ worker_connections 64; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {root}/tmp;\n  proxy_temp_path {root}/tmp;\n  \
             fastcgi_temp_path {root}/tmp;\n  uwsgi_temp_path {root}/tmp;\n  scgi_temp_path {root}/tmp;\n  \
             types {{ application/json json; text/plain txt; }}\n  default_type application/octet-stream;\n  \
             server {{\n    listen 127.0.0.1:{port}{ssl};\n{certificate}    root {root}/www;\n{server_body}\n  }}\n}}\n"
        );
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        std::fs::write(dir.path().join("nginx.conf"), conf).unwrap();
        let mut command = Command::new("nginx");
        command.arg("-p").arg(dir.path()).arg("-c");
        command.arg(dir.path().join("nginx.conf"));
        if let Some(result) = launch(command, port, dir) {
            return result;
        }
    }
    Err("no free port in three tries".into())
}

/// Starts `command`, its stderr to `stderr.log` in `dir`, and waits for it on `port`.
/// `None` when another process took the port meanwhile, so that the caller tries
/// another; `Err` carries the server's stderr and `error.log`.
fn launch(
    mut command: Command,
    port: u16,
    dir: tempfile::TempDir,
) -> Option<Result<Running, String>> {
    // Errors before the log is open (a bad directive) go to stderr.
    let stderr = std::fs::File::create(dir.path().join("stderr.log")).unwrap();
    let child = command
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let dir = match up(child, port, dir, false) {
        Ok(running) => return Some(Ok(running)),
        Err(dir) => dir,
    };
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
    let log = read("stderr.log") + &read("error.log");
    // nginx and httpd say "Address already in use", Node "address already in use".
    let taken = log.to_lowercase().contains("address already in use");
    (!taken).then_some(Err(log))
}

/// Starts caddy with a Caddyfile whose site block, on a free port, serves `files` from
/// `www/` with `site_body` inside. `Err` carries its output when it does not start.
pub fn caddy(files: &[(&str, &[u8])], site_body: &str) -> Result<Running, String> {
    caddy_on(files, site_body, false)
}

/// As [`caddy`], over TLS with a certificate from Caddy's own local CA (`tls internal`),
/// which it does not try to install anywhere.
pub fn caddy_tls(files: &[(&str, &[u8])], site_body: &str) -> Result<Running, String> {
    caddy_on(files, site_body, true)
}

fn caddy_on(files: &[(&str, &[u8])], site_body: &str, tls: bool) -> Result<Running, String> {
    for _attempt in 0..3 {
        let dir = site(files);
        let port = free_port();
        let root = dir.path().display().to_string();
        let (global, scheme, internal) = if tls {
            (
                "\tskip_install_trust\n\tlocal_certs\n",
                "https",
                "\ttls internal\n",
            )
        } else {
            ("\tauto_https off\n", "http", "")
        };
        let caddyfile = format!(
            "{{\n\tadmin off\n{global}\tstorage file_system {root}/data\n}}\n\
             {scheme}://127.0.0.1:{port} {{\n{internal}\troot * {root}/www\n{site_body}\n}}\n"
        );
        std::fs::write(dir.path().join("Caddyfile"), caddyfile).unwrap();
        let log = std::fs::File::create(dir.path().join("caddy.log")).unwrap();
        let child = Command::new("caddy")
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(dir.path().join("Caddyfile"))
            .env("HOME", dir.path())
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let dir = match up(child, port, dir, tls) {
            Ok(running) => return Ok(running),
            Err(dir) => dir,
        };
        let log = std::fs::read_to_string(dir.path().join("caddy.log")).unwrap_or_default();
        if !log.contains("address already in use") {
            return Err(log);
        }
    }
    Err("no free port in three tries".into())
}

/// The JSON `caddy adapt` makes of a site block on :8080 holding `site_body`: the
/// configuration Caddy would run, its temporary directory's path written `DIR`.
pub fn caddy_adapt(site_body: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let caddyfile = dir.path().join("Caddyfile");
    std::fs::write(&caddyfile, format!(":8080 {{\n{site_body}\n}}\n")).unwrap();
    let adapted = Command::new("caddy")
        .args(["adapt", "--adapter", "caddyfile", "--config"])
        .arg(&caddyfile)
        .env("HOME", dir.path())
        .output()
        .unwrap();
    assert!(
        adapted.status.success(),
        "caddy adapt: {}\n{site_body}",
        String::from_utf8_lossy(&adapted.stderr)
    );
    let text = String::from_utf8_lossy(&adapted.stdout);
    serde_json::from_str(&text.replace(&dir.path().display().to_string(), "DIR")).unwrap()
}

/// What a server sent for one request: its `Content-Encoding` (empty for none) and the
/// body exactly as it came, undecoded.
pub struct Fetched {
    /// The `Content-Encoding` header's value, or empty.
    pub content_encoding: String,
    /// The body's bytes on the wire.
    pub body: Vec<u8>,
}

/// GETs `url` with curl, sending `accept_encoding`, and keeps the body undecoded.
pub fn fetch(url: &str, accept_encoding: &str) -> Fetched {
    fetch_from(url, None, accept_encoding)
}

/// As [`fetch`], with a `Host` header naming one of the server's virtual hosts.
pub fn fetch_from(url: &str, host: Option<&str>, accept_encoding: &str) -> Fetched {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body");
    let mut curl = Command::new("curl");
    if let Some(host) = host {
        curl.args(["-H", &format!("Host: {host}")]);
    }
    let output = curl
        .args(["-s", "--fail", "-H"])
        .arg(format!("Accept-Encoding: {accept_encoding}"))
        .arg("-o")
        .arg(&body)
        .args(["-w", "%header{content-encoding}"])
        .arg(url)
        .output()
        .expect("curl runs");
    assert!(output.status.success(), "curl {url}: {output:?}");
    Fetched {
        content_encoding: String::from_utf8(output.stdout).unwrap(),
        body: std::fs::read(&body).unwrap(),
    }
}

/// GETs `url` sending `accept_encoding` and checks that it came with `content_encoding`
/// (empty for none) and decodes to `original`.
pub fn assert_sends(url: &str, accept_encoding: &str, content_encoding: &str, original: &[u8]) {
    use codecbench::{server_codec, CodecKind};
    let sent = fetch(url, accept_encoding);
    assert_eq!(
        sent.content_encoding, content_encoding,
        "{url} for Accept-Encoding: {accept_encoding}"
    );
    let decoded = match content_encoding {
        "" => sent.body,
        "br" => server_codec(CodecKind::Brotli)
            .decompress(&sent.body)
            .unwrap(),
        "gzip" => server_codec(CodecKind::Gzip)
            .decompress(&sent.body)
            .unwrap(),
        _ => server_codec(CodecKind::Zstd)
            .decompress(&sent.body)
            .unwrap(),
    };
    assert!(
        decoded == original,
        "{url}: the body decodes to what was served"
    );
}

/// What `run --server SERVER` predicts for `payloads` at these brotli and gzip levels,
/// one iteration each: its CSV rows.
pub fn predicted(
    server: &str,
    payloads: &[String],
    brotli: &str,
    gzip: &str,
) -> Vec<std::collections::HashMap<String, String>> {
    use crate::common::{codecbench, csv_rows, succeed};
    let mut command = codecbench();
    command.args(["run", "--server", server, "--codecs", "brotli,gzip"]);
    for payload in payloads {
        command.args(["--payload", payload]);
    }
    command.args(["--brotli-levels", brotli, "--gzip-levels", gzip]);
    command.args(["--iterations", "1", "--warmup", "0", "--rounds", "1"]);
    command.args(["--quiet", "--format", "csv"]);
    csv_rows(&succeed(&mut command).stdout)
}

/// A JSON body of exactly `bytes` bytes.
pub fn json_of(bytes: usize) -> Vec<u8> {
    let mut body = b"{\"pad\":\"".to_vec();
    body.resize(bytes - 2, b'a');
    body.extend_from_slice(b"\"}");
    body
}
