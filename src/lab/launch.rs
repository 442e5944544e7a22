//! A server the lab started: one process in the foreground on 127.0.0.1, in a private
//! directory and its own process group, killed when dropped. If codecbench dies without
//! dropping it, two things kill it: the kernel (`PR_SET_PDEATHSIG`), and a guard, a
//! shell that waits on a pipe only codecbench writes to and kills the group when it
//! closes. The kernel forgets the first when the server changes user (Apache run as
//! root serves as www-data), so the guard is what holds then.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a server may take to listen on every port.
const START: Duration = Duration::from_secs(10);

/// A running server.
pub(crate) struct Launched {
    child: Child,
    /// Its process id, whose threads' CPU time the lab reads.
    pub(crate) pid: u32,
    /// The guard that kills the server's group if codecbench dies first.
    guard: Option<Child>,
}

impl Drop for Launched {
    fn drop(&mut self) {
        // The guard first, so that it never signals a group id used again.
        if let Some(guard) = &mut self.guard {
            let _ = guard.kill();
            let _ = guard.wait();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A shell that reads its input to the end, which comes when every writer has closed
/// it (codecbench, at its death), and then kills process group `group`.
fn guard(group: u32) -> std::io::Result<Child> {
    Command::new("/bin/sh")
        .args(["-c", "cat >/dev/null; kill -KILL \"-$1\"", "guard"])
        .arg(group.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

/// Ports nobody listens on now. Another process may take one before the server does;
/// the server then fails to start, and says so.
pub(crate) fn free_ports(count: usize) -> std::io::Result<Vec<u16>> {
    let listeners: Vec<TcpListener> = (0..count)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()?;
    listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.port()))
        .collect()
}

/// Starts `command` with its output in `log`, and waits until it accepts connections
/// on every one of `ports`. `Err` says why it did not, the log's end included.
pub(crate) fn launch(
    mut command: Command,
    ports: &[u16],
    log: &std::path::Path,
) -> Result<Launched, String> {
    let output = std::fs::File::create(log).map_err(|e| format!("cannot write its log: {e}"))?;
    let errors = output.try_clone().map_err(|e| e.to_string())?;
    command.stdin(Stdio::null()).stdout(output).stderr(errors);
    // SAFETY: prctl and setpgid are async-signal-safe; they set this child's death
    // signal and put it in a process group of its own.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 || libc::setpgid(0, 0) == -1
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let mut launched = Launched {
        pid: child.id(),
        child,
        guard: None,
    };
    launched.guard = Some(guard(launched.pid).map_err(|e| format!("cannot guard it: {e}"))?);
    let deadline = Instant::now() + START;
    for &port in ports {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            if let Ok(Some(status)) = launched.child.try_wait() {
                return Err(format!("it exited ({status}): {}", log_tail(log)));
            }
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                break;
            }
            if Instant::now() > deadline || crate::process::interrupt::requested() {
                return Err(format!("it did not listen on {address}: {}", log_tail(log)));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(launched)
}

/// The last line of a server's log that names an error (Node ends its trace with its
/// version), or else its last line, as one line of text.
fn log_tail(log: &std::path::Path) -> String {
    let text = std::fs::read(log).unwrap_or_default();
    let start = text.len().saturating_sub(4000);
    let text = String::from_utf8_lossy(&text[start..]);
    let lines = || text.lines().rev().filter(|l| !l.trim().is_empty());
    let error = lines().find(|l| l.to_ascii_lowercase().contains("error"));
    crate::format::one_line(error.or_else(|| lines().next()).unwrap_or("no output"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether process `pid` is gone (or a zombie nobody waits for).
    fn gone(pid: u32) -> bool {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status.is_empty() || status.contains("State:\tZ")
    }

    #[test]
    fn a_server_that_exits_at_start_is_an_error_naming_its_last_words() {
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new("sh");
        command.args(["-c", "echo 'bind() failed' >&2; exit 3"]);
        let ports = free_ports(1).unwrap();
        let error = launch(command, &ports, &dir.path().join("log"))
            .err()
            .unwrap();
        assert!(
            error.contains("exited") && error.contains("bind() failed"),
            "{error}"
        );
    }

    #[test]
    fn a_started_server_is_killed_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut command = Command::new("sleep");
        command.arg("300");
        let launched = launch(command, &[port], &dir.path().join("log")).unwrap();
        let pid = launched.pid;
        assert!(!gone(pid));
        drop(launched);
        assert!(gone(pid), "pid {pid} outlived its handle");
    }
}
