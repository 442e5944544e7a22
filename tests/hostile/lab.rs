//! `codecbench lab` against the machine it runs on: killed whole at any moment, it
//! leaves no server once the next lab starts; modules another user planted where Node
//! would look never run; and another user's listener on its port fails it by name,
//! never measured. Planting as another user needs root: without it these skip.

use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::lab::{lab, others_here, servers_here, servers_in};
use crate::servers::express_installed;

/// The user the tests plant as: nobody.
const NOBODY: u32 = 65534;

/// The fewest batches and requests, one body: a lab of a second or two.
const QUICK: [&str; 6] = ["--batches", "6", "--requests", "1", "--cuts", "none"];

fn root() -> bool {
    // SAFETY: geteuid reads this process's effective user id.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("skipped: acting as another user needs root");
    }
    root
}

/// The lab's directories left in `tmp`.
fn lab_dirs(tmp: &Path) -> Vec<String> {
    let names = std::fs::read_dir(tmp).unwrap().flatten();
    let names = names.map(|e| e.file_name().to_string_lossy().into_owned());
    names.filter(|n| n.starts_with("codecbench-lab-")).collect()
}

/// Waits up to `most` for no server to run from `tmp`; what still runs.
fn servers_after(tmp: &Path, most: Duration) -> Vec<String> {
    let start = Instant::now();
    while !servers_in(tmp).is_empty() && start.elapsed() < most {
        std::thread::sleep(Duration::from_millis(20));
    }
    servers_in(tmp)
}

/// The moment of the `index`th of 20 kills, 60 ms apart over 0 to 1.14 s: each server
/// in turn gets five, from before its server starts (in the first 0.1 s) to the middle
/// of its measuring (0.5 to 1.7 s in all).
fn moment(index: u64) -> Duration {
    Duration::from_millis(60 * index)
}

/// A lab of 0.5 to 1.7 s: the small payload at br 5 and gzip 6, 30 batches.
const LONGER: [&str; 6] = ["--batches", "30", "--requests", "2", "--cuts", "none"];

#[test]
fn a_lab_killed_whole_at_any_moment_leaves_nothing_once_the_next_starts() {
    if !servers_here() || !others_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let servers = ["nginx", "apache", "caddy", "express"];
    for index in 0..20u64 {
        let server = servers[index as usize % servers.len()];
        let mut child = lab(tmp.path(), "small", "5", &LONGER)
            .args(["--servers", server, "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        std::thread::sleep(moment(index));
        // The whole group, as a CI job's timeout kills it.
        // SAFETY: signalling the process group this test started.
        unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        let _ = child.wait();
        // The guard and the kernel end the server without the next lab's help.
        let left = servers_after(tmp.path(), Duration::from_secs(3));
        assert_eq!(
            left,
            Vec::<String>::new(),
            "{server} killed after {:?}",
            moment(index)
        );
    }
    let next = lab(tmp.path(), "single", "1", &QUICK)
        .args(["--servers", "nginx"])
        .output()
        .unwrap();
    assert!(
        next.status.success(),
        "{}",
        String::from_utf8_lossy(&next.stderr)
    );
    assert_eq!(lab_dirs(tmp.path()), Vec::<String>::new());
    assert_eq!(servers_in(tmp.path()), Vec::<String>::new());
}

/// A module named `name` in `dir`, owned by nobody, that writes `ran` when required.
fn plant(dir: &Path, name: &str, ran: &Path) {
    let module = dir.join(name);
    std::fs::create_dir_all(&module).unwrap();
    let code = format!(
        "require('fs').writeFileSync({:?}, 'planted {name} ran');\nmodule.exports = () => (q, s, n) => n();\n",
        ran.display().to_string()
    );
    std::fs::write(module.join("index.js"), code).unwrap();
    let package = format!("{{\"name\":\"{name}\",\"version\":\"6.6.6\"}}");
    std::fs::write(module.join("package.json"), package).unwrap();
    for path in [
        dir,
        &module,
        &module.join("index.js"),
        &module.join("package.json"),
    ] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

#[test]
fn modules_another_user_planted_where_node_would_look_never_run() {
    if !express_installed() || !root() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let ran = tmp.path().join("planted-ran");
    // In the lab's TMPDIR, a parent of its directory.
    for name in ["express", "compression"] {
        plant(&tmp.path().join("node_modules"), name, &ran);
    }
    let output = lab(tmp.path(), "single", "1", &QUICK)
        .args(["--servers", "express"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!ran.exists(), "{}", std::fs::read_to_string(&ran).unwrap());
    assert!(String::from_utf8_lossy(&output.stdout).contains("Express 5.3.0"));

    // A user's modules without one of compression's dependencies, planted beside them.
    let app = tmp.path().join("app");
    std::fs::create_dir(&app).unwrap();
    let copied = Command::new("cp")
        .args(["-r", crate::servers::NODE_MODULES])
        .arg(app.join("node_modules"))
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::remove_dir_all(app.join("node_modules/vary")).unwrap();
    plant(&tmp.path().join("node_modules"), "vary", &ran);
    let output = lab(tmp.path(), "single", "1", &QUICK)
        .args(["--servers", "express", "--node-modules"])
        .arg(app.join("node_modules"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("Cannot find module 'vary'"), "{stderr}");
    assert!(!ran.exists(), "{}", std::fs::read_to_string(&ran).unwrap());

    // The same modules with one file another user can write are refused.
    let file = app.join("node_modules/express/index.js");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let modules = app.join("node_modules");
    let refused = crate::common::bad_input(&[
        "lab",
        "--servers",
        "express",
        "--node-modules",
        modules.to_str().unwrap(),
    ]);
    assert!(
        refused.contains("is writable by other users (mode 666)"),
        "{refused}"
    );
}

#[test]
fn another_users_listener_on_the_labs_port_fails_it_by_name_ten_times_in_ten() {
    if !servers_here() || !others_here() || !root() {
        return;
    }
    let servers = ["nginx", "apache", "caddy", "express"];
    for index in 0..10 {
        let server = servers[index % servers.len()];
        // A forger on a port of its choosing: it answers every request with a body of
        // its own, whoever hangs up, and says its port.
        let forger =
            "const server = require('net').createServer((s) => { s.on('error', () => {}); \
            s.end('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nhi'); }); \
            server.listen(0, '127.0.0.1', () => console.log(server.address().port));";
        let mut listener = Command::new("node")
            .args(["-e", forger])
            .uid(NOBODY)
            .gid(NOBODY)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut said = String::new();
        let stdout = listener.stdout.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut said).unwrap();
        let port: u16 = said.trim().parse().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let output = lab(tmp.path(), "single", "1", &QUICK)
            .args([
                "--servers",
                server,
                "--port",
                &port.to_string(),
                "--format",
                "csv",
            ])
            .output()
            .unwrap();
        let _ = listener.kill();
        let _ = listener.wait();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{server}: {stderr}");
        let named = format!("another process (user id {NOBODY}) listens on 127.0.0.1:{port}");
        assert!(stderr.contains(&named), "{server}: {stderr}");
        let rows = crate::common::csv_rows(&output.stdout);
        assert!(rows.is_empty(), "{server}: measured {rows:?}");
        assert_eq!(servers_in(tmp.path()), Vec::<String>::new());
    }
}
