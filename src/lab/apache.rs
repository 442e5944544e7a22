//! Apache httpd in the lab: Debian's apache2 with mod_deflate and mod_brotli, one
//! process (`-X`). Its levels are per virtual host, so each setting has a port.

use std::path::Path;
use std::process::Command;

use super::site::{as_root, version_of, Endpoint, Plan, Setting};
use crate::vocab::CodecKind;

/// Debian's httpd.
pub(crate) const PROGRAM: &str = "/usr/sbin/apache2";

/// The user and group httpd serves as when started as root (Debian's).
const SERVES_AS: &str = "www-data";

/// Where Debian installs httpd's modules.
const MODULES: &str = "/usr/lib/apache2/modules";

/// Why Apache cannot run here, naming the package; `None` when it can.
pub(crate) fn missing() -> Option<String> {
    let brotli = format!("{MODULES}/mod_brotli.so");
    (!Path::new(PROGRAM).exists() || !Path::new(&brotli).exists())
        .then(|| "Apache httpd is not installed (Debian: apache2)".to_string())
}

/// The group httpd serves as when started as root, `www-data`, from `/etc/group`.
pub(crate) fn group() -> std::io::Result<u32> {
    use std::io::Read as _;
    let mut text = String::new();
    std::fs::File::open("/etc/group")?
        .take(1 << 20)
        .read_to_string(&mut text)?;
    text.lines()
        .find_map(|line| {
            let mut fields = line.split(':');
            (fields.next() == Some(SERVES_AS)).then(|| fields.nth(1)?.parse().ok())?
        })
        .ok_or_else(|| std::io::Error::other(format!("no group {SERVES_AS} in /etc/group")))
}

/// `Apache httpd 2.4.71`, from `apache2 -v`.
pub(crate) fn version() -> String {
    version_of(PROGRAM, "-v", "Apache/")
        .map_or("Apache httpd".into(), |v| format!("Apache httpd {v}"))
}

/// A virtual host on `endpoint`'s port with one encoding on.
fn virtual_host(endpoint: &Endpoint) -> String {
    let encoding = match endpoint.setting {
        None => String::new(),
        Some(Setting { codec: CodecKind::Brotli, level }) => format!(
            "  BrotliCompressionQuality {level}\n  AddOutputFilterByType BROTLI_COMPRESS application/json\n"
        ),
        Some(Setting { level, .. }) => format!(
            "  DeflateCompressionLevel {level}\n  AddOutputFilterByType DEFLATE application/json\n"
        ),
    };
    format!(
        "<VirtualHost 127.0.0.1:{}>\n{encoding}</VirtualHost>\n",
        endpoint.port
    )
}

/// The configuration and command for `settings`, serving `root/www` on `ports` (the
/// first for identity, one more per setting).
pub(crate) fn plan(root: &Path, ports: &[u16], settings: &[Setting]) -> Plan {
    let setting_of = |i: usize| i.checked_sub(1).map(|i| settings[i]);
    let endpoints: Vec<Endpoint> = ports
        .iter()
        .take(settings.len() + 1)
        .enumerate()
        .map(|(i, &port)| Endpoint {
            setting: setting_of(i),
            port,
            prefix: String::new(),
        })
        .collect();
    let dir = root.display();
    let user = match as_root() {
        true => "User www-data\nGroup www-data\n",
        false => "",
    };
    let mut conf = format!(
        "ServerRoot {dir}\nDefaultRuntimeDir {dir}\nPidFile {dir}/httpd.pid\n\
         ErrorLog {dir}/error.log\nLogLevel warn\nServerName 127.0.0.1\n{user}"
    );
    for module in [
        "mpm_event",
        "authz_core",
        "mime",
        "filter",
        "deflate",
        "brotli",
    ] {
        conf += &format!("LoadModule {module}_module {MODULES}/mod_{module}.so\n");
    }
    conf += &format!(
        "TypesConfig /dev/null\nAddType application/json .json\nDocumentRoot {dir}/www\n\
         <Directory {dir}/www>\n  Require all granted\n</Directory>\n"
    );
    for endpoint in &endpoints {
        conf += &format!(
            "Listen 127.0.0.1:{}\n{}",
            endpoint.port,
            virtual_host(endpoint)
        );
    }
    let mut command = Command::new(PROGRAM);
    command.arg("-X").arg("-f").arg(root.join("httpd.conf"));
    Plan {
        command,
        ports: endpoints.iter().map(|e| e.port).collect(),
        endpoints,
        files: vec![("httpd.conf", conf)],
    }
}
