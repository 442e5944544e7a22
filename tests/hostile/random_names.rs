//! Names nobody chose, through every `recommend --emit` output and each server's own
//! parser: 40 names drawn from every line break, each format's comment, string and
//! substitution syntax, controls and any character, each the payload name of a saved
//! run. All 40 outputs of a server go to its parser at once (a server block, a virtual
//! host or a site each, or a block of JavaScript), against the same 40 with plain
//! names: nginx -t, Apache's directives as httpd parses them, `caddy adapt`'s JSON,
//! `node --check`; line for line for all six.

use super::emitted::{apache_here, emitted_from, node_checks, plain_run, renamed, save};
use super::emitted::{same_lines, SERVERS};
use crate::common::succeed;
use crate::servers::{self, apache_directives, caddy_adapt, express_installed, installed};

/// What the names are made of: the pieces the property test of the emitters draws.
fn pieces() -> Vec<String> {
    let list = include_str!("../fixtures/hostile-name-pieces.json");
    serde_json::from_str(list).expect("a JSON list of strings")
}

/// How many names.
const NAMES: usize = 40;

/// A fixed sequence of numbers (xorshift64*), so that every run draws the same names.
struct Draws(u64);

impl Draws {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % below
    }

    /// A name of up to 12 of `pieces`, one in four any character at all.
    fn name(&mut self, pieces: &[String]) -> String {
        let mut name = String::new();
        for _ in 0..1 + self.next(12) {
            match self.next(4) {
                0 => name.extend(char::from_u32(self.next(0x11_0000) as u32)),
                _ => name.push_str(&pieces[self.next(pieces.len())]),
            }
        }
        name + ".json"
    }
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

/// Each server's 40 outputs, hostile and plain, through its parser.
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

#[test]
fn forty_names_drawn_at_random_change_no_directive_of_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let (plain_run, plain) = plain_run(dir.path());
    let plain_outputs = emitted_from(&plain_run);
    let (mut draws, pieces) = (Draws(0x9e37_79b9_7f4a_7c15), pieces());
    let mut outputs: Vec<Vec<(String, String)>> = Vec::new();
    for index in 0..NAMES {
        let name = draws.name(&pieces);
        let run = save(
            dir.path(),
            &format!("run-{index}.json"),
            &renamed(&plain, "plain.json", &name),
        );
        let emitted = emitted_from(&run);
        for ((server, hostile), (_, plain)) in emitted.iter().zip(&plain_outputs) {
            same_lines(server, hostile, plain, &name);
        }
        outputs.push(emitted);
    }
    for (column, server) in SERVERS.iter().enumerate() {
        let hostile: Vec<String> = outputs.iter().map(|o| o[column].1.clone()).collect();
        let plain = vec![plain_outputs[column].1.clone(); NAMES];
        parsed_alike(server, &hostile, &plain);
    }
}
