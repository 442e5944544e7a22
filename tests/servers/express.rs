//! An Express app on 127.0.0.1 in Node.js, built from `lab/express`'s lockfile (`npm ci
//! --prefix lab/express`): the JavaScript under test, then a route that sends each file
//! in one `res.send`, typed by its extension, as `res.json` sends a body.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::{free_port, launch, site, Running};

/// The modules the app requires, installed from the lockfile.
pub const NODE_MODULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/lab/express/node_modules");

/// Whether node and the lockfile's modules are here; if not, says how to get them and
/// returns false (outside CI) or fails (in CI).
pub fn express_installed() -> bool {
    let modules = ["express", "compression"]
        .iter()
        .all(|m| std::path::Path::new(NODE_MODULES).join(m).is_dir());
    super::installed("node", &[], "nodejs npm") && {
        if !modules {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run npm ci --prefix lab/express (.ci/run does)"
            );
            eprintln!("lab/express has no node_modules (npm ci --prefix lab/express): skipped");
        }
        modules
    }
}

/// Starts Node with an Express `app`, `snippet` run on it before the route that serves
/// `files` from `www/`. `Err` carries Node's output when it does not start.
pub fn express(files: &[(&str, &[u8])], snippet: &str) -> Result<Running, String> {
    for _attempt in 0..3 {
        let dir = site(files);
        let port = free_port();
        let app = format!(
            "const express = require('express');\nconst fs = require('node:fs');\n\
             const path = require('node:path');\nconst app = express();\n\
             {snippet}\n\
             const www = process.argv[2];\n\
             app.get('/:file', (req, res) => {{\n  \
               const body = fs.readFileSync(path.join(www, path.basename(req.params.file)));\n  \
               res.type(path.extname(req.params.file)).send(body);\n}});\n\
             app.listen(Number(process.argv[3]), '127.0.0.1');\n"
        );
        std::fs::write(dir.path().join("app.js"), app).unwrap();
        let mut command = Command::new("node");
        command
            .arg(dir.path().join("app.js"))
            .arg(dir.path().join("www"))
            .arg(port.to_string())
            .env("NODE_PATH", NODE_MODULES);
        if let Some(result) = launch(command, port, dir) {
            return result;
        }
    }
    Err("no free port in three tries".into())
}

/// What Node's own encoder makes of `body` at `coding` and `level`, through a stream as
/// the middleware feeds it: one write, then the end.
pub fn node_encodes(coding: &str, level: i32, body: &[u8]) -> Vec<u8> {
    let options = match coding {
        "br" => format!("zlib.createBrotliCompress({{ params: {{ [zlib.constants.BROTLI_PARAM_QUALITY]: {level} }} }})"),
        _ => format!("zlib.createGzip({{ level: {level} }})"),
    };
    let script = format!(
        "const zlib = require('node:zlib'); const input = require('node:fs').readFileSync(0);\n\
         const stream = {options}; const out = [];\n\
         stream.on('data', (c) => out.push(c)); stream.on('end', () => process.stdout.write(Buffer.concat(out)));\n\
         stream.end(input);\n"
    );
    let mut node = Command::new("node")
        .args(["-e", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    node.stdin.take().unwrap().write_all(body).unwrap();
    let output = node.wait_with_output().unwrap();
    assert!(output.status.success());
    output.stdout
}
