//! Outputs of `recommend --emit` with hostile names, checked against the same answers
//! with plain names: line for line, and by each server's own parser, all of a test's
//! outputs of one server at once (a server block, a virtual host or a site each, or a
//! block of JavaScript).

use crate::common::succeed;
use crate::servers::{self, apache_directives, caddy_adapt, express_installed, installed};

/// The six outputs.
pub(super) const SERVERS: [&str; 6] = [
    "nginx",
    "apache",
    "caddy",
    "express",
    "tower-http",
    "aspnetcore",
];

/// Each server's outputs with hostile names and, in the same order, with plain ones.
#[derive(Default)]
pub(super) struct Outputs {
    hostile: Vec<Vec<String>>,
    plain: Vec<Vec<String>>,
}

impl Outputs {
    /// Adds the six outputs for `name`, each checked against the plain one line for
    /// line ([`same_lines`]).
    pub(super) fn add(
        &mut self,
        hostile: &[(String, String)],
        plain: &[(String, String)],
        name: &str,
    ) {
        self.hostile.resize(SERVERS.len(), Vec::new());
        self.plain.resize(SERVERS.len(), Vec::new());
        for (index, ((server, output), (_, plain))) in hostile.iter().zip(plain).enumerate() {
            same_lines(server, output, plain, name);
            self.hostile[index].push(output.clone());
            self.plain[index].push(plain.clone());
        }
    }

    /// Each server's outputs through its parser, against the plain ones.
    pub(super) fn parsed_alike(&self) {
        for (index, server) in SERVERS.iter().enumerate() {
            parsed_alike(server, &self.hostile[index], &self.plain[index]);
        }
    }
}

/// Whether `line` is a comment in `server`'s output.
fn comment(server: &str, line: &str) -> bool {
    let lead = match server {
        "nginx" | "apache" | "caddy" => "#",
        _ => "//",
    };
    line.trim_start().starts_with(lead)
}

/// Checks `server`'s output with a hostile name against the same answer's with a plain
/// one: line for line, a comment where the plain one has a comment and the same
/// directive elsewhere, nothing any format reads as a line break or a continuation.
fn same_lines(server: &str, hostile: &str, plain: &str, name: &str) {
    let (lines, plain_lines): (Vec<&str>, Vec<&str>) =
        (hostile.split('\n').collect(), plain.split('\n').collect());
    assert_eq!(
        lines.len(),
        plain_lines.len(),
        "{server} {name:?}:\n{hostile}"
    );
    for (line, plain_line) in lines.iter().zip(&plain_lines) {
        match comment(server, plain_line) {
            true => assert!(comment(server, line), "{server} {name:?}: {line:?}"),
            false => assert_eq!(line, plain_line, "{server} {name:?}"),
        }
        let breaks = ['\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}'];
        assert!(!line.contains(breaks), "{server} {name:?}: {line:?}");
        assert!(!line.ends_with('\\'), "{server} {name:?}: {line:?}");
    }
}

pub(super) fn apache_here() -> bool {
    let info = format!("{}/mod_info.so", servers::MODULES);
    installed(servers::APACHE2, &[&info], "apache2")
}

/// `node --check` on the snippet in an app.
fn node_checks(snippet: &str) {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app.js");
    std::fs::write(&app, format!("const app = {{ use() {{}} }};\n{snippet}\n")).unwrap();
    succeed(assert_cmd::Command::new("node").arg("--check").arg(&app));
}

/// `outputs`, one per name, each in a block of `server`'s syntax of its own, on ports
/// from 20000: one configuration for its parser.
fn together(server: &str, outputs: &[String]) -> String {
    let block = |(index, output): (usize, &String)| {
        let port = 20_000 + index;
        match server {
            "nginx" => format!("server {{\n  listen 127.0.0.1:{port};\n{output}\n}}\n"),
            "apache" => format!("<VirtualHost 127.0.0.1:{port}>\n{output}\n</VirtualHost>\n"),
            "caddy" => format!("}}\nhttp://127.0.0.1:{port} {{\n{output}\n"),
            _ => format!("{{\n{output}\n}}\n"),
        }
    };
    outputs.iter().enumerate().map(block).collect()
}

/// nginx -t on `servers` (server blocks) in a base that loads ngx_brotli.
fn nginx_checks(servers: &str) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().display();
    let conf = format!(
        "error_log {root}/error.log;\npid {root}/nginx.pid;\n\
         load_module {};\nload_module {};\nevents {{}}\nhttp {{\n{servers}}}\n",
        servers::BROTLI_FILTER,
        servers::BROTLI_STATIC
    );
    std::fs::write(dir.path().join("nginx.conf"), conf).unwrap();
    let mut nginx = assert_cmd::Command::new("nginx");
    nginx.args(["-t", "-p"]).arg(dir.path()).arg("-c");
    succeed(nginx.arg(dir.path().join("nginx.conf")));
}

/// `server`'s outputs, hostile and plain, through its parser.
fn parsed_alike(server: &str, hostile: &[String], plain: &[String]) {
    let (hostile, plain) = (together(server, hostile), together(server, plain));
    match server {
        "nginx" if installed("nginx", &[servers::BROTLI_FILTER], "nginx") => nginx_checks(&hostile),
        "apache" if apache_here() => assert_eq!(
            apache_directives(&hostile).expect("httpd reads them"),
            apache_directives(&plain).unwrap()
        ),
        "caddy" if installed("caddy", &[], "caddy") => {
            assert_eq!(caddy_adapt(&hostile), caddy_adapt(&plain))
        }
        "express" if express_installed() => node_checks(&hostile),
        _ => {}
    }
}
