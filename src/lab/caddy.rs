//! Caddy in the lab: Debian's caddy with its `encode` directive (klauspost/compress's
//! gzip), one process, a route per setting on one port. Caddy has no br encoder, so the
//! lab leaves br settings out for it; codecbench has no Go encoder to predict or time.

use std::path::Path;
use std::process::Command;

use super::site::{prefixed, version_of, Endpoint, Plan, Setting};
use crate::vocab::CodecKind;

/// Debian's caddy.
pub(crate) const PROGRAM: &str = "/usr/bin/caddy";

/// Why Caddy cannot run here, naming the package; `None` when it can.
pub(crate) fn missing() -> Option<String> {
    (!Path::new(PROGRAM).exists()).then(|| "Caddy is not installed (Debian: caddy)".to_string())
}

/// `Caddy 2.6.2`, from `caddy version`.
pub(crate) fn version() -> String {
    version_of(PROGRAM, "version", "").map_or("Caddy".into(), |v| {
        format!("Caddy {}", v.trim_start_matches('v'))
    })
}

/// Whether Caddy encodes `setting`: gzip 1..=9; no br encoder.
pub(crate) fn serves(setting: Setting) -> bool {
    setting.codec == CodecKind::Gzip
}

/// Caddy's route for one endpoint: its prefix stripped, one encoding on for bodies of
/// 2 bytes and more (it encodes bodies longer than `minimum_length`, and reads 0 as its
/// default, 512).
fn route(endpoint: &Endpoint) -> String {
    let encode = match endpoint.setting {
        None => String::new(),
        Some(Setting { level, .. }) => {
            format!("\t\tencode {{\n\t\t\tgzip {level}\n\t\t\tminimum_length 1\n\t\t}}\n")
        }
    };
    format!(
        "\thandle_path {}/* {{\n{encode}\t\tfile_server\n\t}}\n",
        endpoint.prefix
    )
}

/// The Caddyfile and command for `settings`, serving `root/www` on `port`: no admin
/// endpoint, no HTTPS, and its state kept in `root`.
pub(crate) fn plan(root: &Path, port: u16, settings: &[Setting]) -> Plan {
    let endpoints = prefixed(port, settings);
    let routes: String = endpoints.iter().map(route).collect();
    let dir = root.display();
    let caddyfile = format!(
        "{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {dir}/tmp\n}}\n\
         http://127.0.0.1:{port} {{\n\tbind 127.0.0.1\n\troot * {dir}/www\n{routes}}}\n"
    );
    let mut command = Command::new(PROGRAM);
    command
        .args(["run", "--adapter", "caddyfile", "--config"])
        .arg(root.join("Caddyfile"))
        .env("HOME", root)
        .env("XDG_DATA_HOME", root.join("tmp"))
        .env("XDG_CONFIG_HOME", root.join("tmp"));
    Plan {
        command,
        endpoints,
        ports: vec![port],
        files: vec![("Caddyfile", caddyfile)],
    }
}
