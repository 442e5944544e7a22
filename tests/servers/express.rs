//! An Express app on 127.0.0.1 in Node.js, built from `lab/express`'s lockfile (`npm ci
//! --prefix lab/express`): the JavaScript under test, then a route that sends each file
//! in one `res.send`, typed by its extension, as `res.json` sends a body.

use std::process::Command;

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
