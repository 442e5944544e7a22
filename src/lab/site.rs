//! What a lab server is started with: its command, where each setting is served, and
//! the ports it listens on. Each server's file writes its configuration from these.

use std::process::Command;

use crate::vocab::CodecKind;

/// One encoding at one level, as the server is configured for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Setting {
    /// The encoding.
    pub codec: CodecKind,
    /// Its level in the server's directive.
    pub level: i32,
}

/// Where one setting is served: `None` serves the files as they are, the reference.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    /// The setting, or `None` for identity.
    pub setting: Option<Setting>,
    /// The port.
    pub port: u16,
    /// The path before a file's name, e.g. `/br5` or empty.
    pub prefix: String,
}

impl Endpoint {
    /// The URL of `file` at this endpoint.
    pub(crate) fn url(&self, file: &str) -> String {
        format!("http://127.0.0.1:{}{}/{file}", self.port, self.prefix)
    }
}

/// A server ready to start.
pub(crate) struct Plan {
    /// The command that starts it in the foreground.
    pub command: Command,
    /// The identity endpoint first, then one per setting.
    pub endpoints: Vec<Endpoint>,
    /// Every port it listens on.
    pub ports: Vec<u16>,
    /// Its configuration: each file's name in the server's directory, and its text.
    pub files: Vec<(&'static str, String)>,
}

/// What the lab takes from outside the servers' packages.
#[derive(Clone, Debug)]
pub(crate) struct Installs {
    /// The `node_modules` directory the Express app requires its modules from.
    pub node_modules: std::path::PathBuf,
}

/// Endpoints on one port told apart by their path: `/identity`, then `/br5` and so on.
pub(crate) fn prefixed(port: u16, settings: &[Setting]) -> Vec<Endpoint> {
    let mut endpoints = vec![Endpoint {
        setting: None,
        port,
        prefix: "/identity".into(),
    }];
    endpoints.extend(settings.iter().map(|&s| Endpoint {
        setting: Some(s),
        port,
        prefix: format!("/{}", slug(s)),
    }));
    endpoints
}

/// `br5` or `gzip6`: a setting's name in paths and host blocks.
pub(crate) fn slug(setting: Setting) -> String {
    format!("{}{}", setting.codec.content_coding(), setting.level)
}

/// The version `program flag` prints after `marker`, e.g. `1.22.1` after `nginx/`.
pub(crate) fn version_of(program: &str, flag: &str, marker: &str) -> Option<String> {
    let output = Command::new(program).arg(flag).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    let rest = &text[text.find(marker)? + marker.len()..];
    let version: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .take(32)
        .collect();
    (!version.is_empty()).then_some(version)
}

/// Whether codecbench runs as root: then Apache must be told to serve as `www-data`,
/// which must be able to read the bodies.
pub(crate) fn as_root() -> bool {
    // SAFETY: geteuid reads the process's effective user id.
    unsafe { libc::geteuid() == 0 }
}
