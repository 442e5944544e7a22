//! One server through which the lab measures: started in a private directory with a
//! configuration per setting, every body measured at every setting, then stopped.

use std::path::Path;

use super::launch::{free_ports, launch};
use super::measure::{measure, Load, Measured};
use super::site::{as_root, Installs, Plan, Setting};
use super::workdir::Workdir;
use super::{apache, caddy, express, nginx};
use crate::payload::Payload;
use crate::vocab::Server;

/// Why the lab cannot start `server` here; `None` when it can.
pub(crate) fn missing(server: Server, installs: &Installs) -> Option<String> {
    match server {
        Server::Nginx => nginx::missing(),
        Server::Apache => apache::missing(),
        Server::Caddy => caddy::missing(),
        Server::Express => express::missing(&installs.node_modules),
        Server::Aspnetcore | Server::TowerHttp => Some(format!("the lab does not start {server}")),
    }
}

/// The server's name and version, e.g. `nginx 1.22.1`.
pub(crate) fn version(server: Server, installs: &Installs) -> String {
    match server {
        Server::Nginx => nginx::version(),
        Server::Apache => apache::version(),
        Server::Caddy => caddy::version(),
        Server::Express => express::version(&installs.node_modules),
        Server::Aspnetcore | Server::TowerHttp => server.name().to_string(),
    }
}

/// Whether the lab can configure `server` with `setting`: Caddy has no br encoder.
pub(crate) fn serves(server: Server, setting: Setting) -> bool {
    server != Server::Caddy || caddy::serves(setting)
}

/// One body at one setting, through the server.
pub(crate) struct ServedCell {
    /// The body's index among those given.
    pub body: usize,
    /// The setting.
    pub setting: Setting,
    /// What it cost, or why it could not be measured.
    pub result: Result<Measured, String>,
}

/// Starts `server`, measures every body at every setting, and stops it. It listens on
/// `first_port` (and, for Apache, the ports after it, one per setting), or on free
/// ports. `progress` is told each cell before it is measured. `Err` when the server
/// does not start, or another process answers in its place.
pub(crate) fn measure_through(
    server: Server,
    installs: &Installs,
    bodies: &[Payload],
    settings: &[Setting],
    load: Load,
    first_port: Option<u16>,
    progress: &dyn Fn(usize, Setting),
) -> Result<Vec<ServedCell>, String> {
    let dir = site(server, bodies).map_err(|e| format!("cannot prepare its files: {e}"))?;
    let settings: Vec<Setting> = settings
        .iter()
        .copied()
        .filter(|&s| serves(server, s))
        .collect();
    let plan = plan(server, dir.path(), &settings, installs, first_port)?;
    for (name, text) in &plan.files {
        dir.write(name, text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let running = launch(plan.command, &plan.ports, &dir)?;
    let identity = &plan.endpoints[0];
    let mut cells = Vec::new();
    for endpoint in &plan.endpoints[1..] {
        let Some(setting) = endpoint.setting else {
            continue;
        };
        for (index, body) in bodies.iter().enumerate() {
            if crate::process::interrupt::requested() {
                return Ok(cells);
            }
            progress(index, setting);
            let file = file_name(index);
            let token = setting.codec.content_coding();
            let result = measure(
                running.pid,
                &identity.url(&file),
                &endpoint.url(&file),
                token,
                &body.bytes,
                load,
            )
            .map_err(|e| format!("{e:#}"));
            // A cell a stop cut short is left out, not failed.
            if crate::process::interrupt::requested() {
                return Ok(cells);
            }
            cells.push(ServedCell {
                body: index,
                setting,
                result,
            });
        }
    }
    drop(running);
    Ok(cells)
}

/// The name the lab gives body `index` on disk.
fn file_name(index: usize) -> String {
    format!("body{index}.json")
}

/// The server's plan, on free ports.
fn plan(
    server: Server,
    root: &Path,
    settings: &[Setting],
    installs: &Installs,
    first_port: Option<u16>,
) -> Result<Plan, String> {
    let count = settings.len() + 1;
    let ports = match first_port {
        // Checked to leave room for a port per setting.
        Some(first) => (first..).take(count).collect(),
        None => free_ports(count).map_err(|e| format!("no free port: {e}"))?,
    };
    Ok(match server {
        Server::Apache => apache::plan(root, &ports, settings),
        Server::Nginx => nginx::plan(root, ports[0], settings),
        Server::Caddy => caddy::plan(root, ports[0], settings),
        Server::Express => express::plan(root, ports[0], settings, &installs.node_modules),
        Server::Aspnetcore | Server::TowerHttp => {
            return Err(format!("the lab does not start {server}"))
        }
    })
}

/// The lab's directory with `www/` holding the bodies. Run as root, Apache serves as
/// `www-data`, whose group alone is then let in.
fn site(server: Server, bodies: &[Payload]) -> std::io::Result<Workdir> {
    let group = match (server, as_root()) {
        (Server::Apache, true) => Some(apache::group()?),
        _ => None,
    };
    let dir = Workdir::create(group)?;
    // The path goes into the servers' configuration, unquoted: only plain characters.
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-".contains(c);
    let path = dir.path().to_string_lossy();
    if !path.chars().all(plain) {
        return Err(std::io::Error::other(format!(
            "the temporary directory {} holds characters a server's configuration would read as syntax; set TMPDIR to a plain path",
            crate::format::one_line(&path)
        )));
    }
    for (index, body) in bodies.iter().enumerate() {
        dir.serve(&file_name(index), &body.bytes)?;
    }
    Ok(dir)
}
