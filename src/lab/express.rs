//! Express in the lab: Node.js running an Express app with the `compression` middleware,
//! a route per setting on one port. The app (`express.js`) comes with codecbench; the
//! modules it requires come from a `node_modules` directory, and only from there:
//! `lab/express`'s, installed from its lockfile, or the user's own app's
//! (`--node-modules`). Their code runs as the user codecbench runs as.

use std::io::Read as _;
use std::path::Path;
use std::process::Command;

use super::site::{prefixed, version_of, Plan, Setting};

/// Node.js, as the user's PATH finds it.
const PROGRAM: &str = "node";

/// The lab's Express app.
const APP: &str = include_str!("express.js");

/// The modules the app requires.
const MODULES: [&str; 2] = ["express", "compression"];

/// Why Express cannot run here, naming what to install; `None` when it can.
pub(crate) fn missing(node_modules: &Path) -> Option<String> {
    if version_of(PROGRAM, "--version", "v").is_none() {
        return Some("Node.js is not installed (Debian: nodejs npm)".into());
    }
    let absent: Vec<&str> = MODULES
        .into_iter()
        .filter(|m| !node_modules.join(m).join("package.json").is_file())
        .collect();
    (!absent.is_empty()).then(|| {
        format!(
            "{} has no {} (npm ci --prefix lab/express, or --node-modules DIR)",
            crate::format::one_line(&node_modules.to_string_lossy()),
            absent.join(" or ")
        )
    })
}

/// The version a module's `package.json` names, if it is a plain one.
fn module_version(node_modules: &Path, module: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Package {
        version: String,
    }
    let file = std::fs::File::open(node_modules.join(module).join("package.json")).ok()?;
    let mut text = Vec::new();
    file.take(256 * 1024).read_to_end(&mut text).ok()?;
    let package: Package = serde_json::from_slice(&text).ok()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || ".-+".contains(c);
    (package.version.len() <= 32 && package.version.chars().all(plain)).then_some(package.version)
}

/// `Express 5.3.0 (compression 1.8.2, Node.js 20.20.2)`.
pub(crate) fn version(node_modules: &Path) -> String {
    let of = |module| module_version(node_modules, module).unwrap_or_else(|| "?".into());
    let node = version_of(PROGRAM, "--version", "v").unwrap_or_else(|| "?".into());
    format!(
        "Express {} (compression {}, Node.js {node})",
        of("express"),
        of("compression")
    )
}

/// The app, its plan and the command for `settings`, serving `root/www` on `port`.
pub(crate) fn plan(root: &Path, port: u16, settings: &[Setting], node_modules: &Path) -> Plan {
    let endpoints = prefixed(port, settings);
    let routes: Vec<serde_json::Value> = endpoints
        .iter()
        .map(|e| {
            serde_json::json!({
                "prefix": e.prefix,
                "coding": e.setting.map(|s| s.codec.content_coding()),
                "level": e.setting.map(|s| s.level),
            })
        })
        .collect();
    let www = root.join("www");
    let plan = serde_json::json!({
        "port": port,
        "www": www,
        "modules": node_modules,
        "endpoints": routes,
    });
    let mut command = Command::new(PROGRAM);
    // The app loads its modules from `node_modules` alone (express.js); Node's own
    // lookup paths then name nothing but the lab's private directory and its prefix.
    command
        .arg(root.join("app.js"))
        .arg(root.join("plan.json"))
        .current_dir(root)
        .env_remove("NODE_PATH")
        .env_remove("NODE_OPTIONS")
        .env("HOME", root);
    Plan {
        command,
        endpoints,
        ports: vec![port],
        files: vec![("app.js", APP.to_string()), ("plan.json", plan.to_string())],
    }
}
