//! Debian's apache2 on 127.0.0.1, one process in the foreground (`-X`), with mod_filter,
//! mod_deflate and mod_brotli loaded and JSON typed.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use super::{free_port, launch, site, Running};

/// Debian's httpd binary (in /usr/sbin, often not on a user's PATH).
pub const APACHE2: &str = "/usr/sbin/apache2";

/// Where Debian installs httpd's modules.
pub const MODULES: &str = "/usr/lib/apache2/modules";

/// httpd.conf for a server in `root` on `port`: the base, `modules` loaded after the
/// base's, then `body`.
fn config(root: &str, port: u16, body: &str, modules: &str) -> String {
    // SAFETY: geteuid reads the process's effective user id.
    let user = if unsafe { libc::geteuid() } == 0 {
        "User www-data\nGroup www-data\n"
    } else {
        ""
    };
    let load: String = [
        ("mpm_event", "mod_mpm_event"),
        ("authz_core", "mod_authz_core"),
        ("mime", "mod_mime"),
        ("filter", "mod_filter"),
        ("deflate", "mod_deflate"),
        ("brotli", "mod_brotli"),
    ]
    .iter()
    .map(|(module, file)| format!("LoadModule {module}_module {MODULES}/{file}.so\n"))
    .collect();
    format!(
        "ServerRoot {root}\nDefaultRuntimeDir {root}\nPidFile {root}/httpd.pid\n\
         ErrorLog {root}/error.log\nLogLevel warn\nListen 127.0.0.1:{port}\n\
         ServerName 127.0.0.1\n{user}{load}{modules}TypesConfig /dev/null\n\
         AddType application/json .json\nAddType text/plain .txt\n\
         DocumentRoot {root}/www\n<Directory {root}/www>\n  Require all granted\n</Directory>\n\
         {body}\n"
    )
}

/// The directives httpd reads from the base and `body`, as `apache2 -t -D DUMP_CONFIG`
/// lists them (mod_info), without the line numbers: what the configuration does,
/// whatever its comments hold. `Err` carries httpd's output when the check fails.
pub fn apache_directives(body: &str) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("www")).unwrap();
    let root = dir.path().display().to_string();
    let info = format!("LoadModule info_module {MODULES}/mod_info.so\n");
    let conf = dir.path().join("httpd.conf");
    std::fs::write(&conf, config(&root, 8080, body, &info)).unwrap();
    let output = Command::new(APACHE2)
        .args(["-t", "-D", "DUMP_CONFIG", "-f"])
        .arg(&conf)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        return Err(text + &String::from_utf8_lossy(&output.stderr));
    }
    let directives = text.lines().filter(|l| !l.trim_start().starts_with('#'));
    Ok(directives.map(|l| l.replace(&root, "ROOT")).collect())
}

/// Starts apache2 serving `files` from `www/`, with `body` after the base configuration:
/// directives for the main server, or `<VirtualHost *>` blocks told apart by their
/// `ServerName` (see [`super::fetch_from`]). `Err` carries its error log when it does
/// not start.
pub fn apache(files: &[(&str, &[u8])], body: &str) -> Result<Running, String> {
    for _attempt in 0..3 {
        let dir = site(files);
        // Run as root, httpd serves as www-data, which must reach the files.
        for path in [dir.path().to_path_buf(), dir.path().join("www")] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        for (name, _) in files {
            let file = dir.path().join("www").join(name);
            // A `.cgi` file is a script httpd runs (with mod_cgi loaded by `body`).
            let mode = if name.ends_with(".cgi") { 0o755 } else { 0o644 };
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let port = free_port();
        let conf = config(&dir.path().display().to_string(), port, body, "");
        std::fs::write(dir.path().join("httpd.conf"), conf).unwrap();
        let mut command = Command::new(APACHE2);
        command
            .arg("-X")
            .arg("-f")
            .arg(dir.path().join("httpd.conf"));
        if let Some(result) = launch(command, port, dir) {
            return result;
        }
    }
    Err("no free port in three tries".into())
}
