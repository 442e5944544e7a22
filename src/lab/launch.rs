//! A server the lab started: one process in the foreground on 127.0.0.1, in the lab's
//! private directory and its own process group, killed when dropped.
//!
//! If codecbench dies without dropping it (SIGKILL, a CI job's timeout killing its
//! group), three things end it:
//! - the kernel (`PR_SET_PDEATHSIG`), set before the server runs and checked against
//!   its parent right after, so that a parent already gone is not missed; the kernel
//!   forgets it when the server changes user (Apache run as root serves as www-data);
//! - a guard started before the server, in a process group of its own so that a kill
//!   of codecbench's group spares it: a shell that reads the server's group from a pipe
//!   and, when codecbench's end of the pipe closes, kills that group. The server writes
//!   its group there itself before it runs, so no moment is unguarded;
//! - the next lab, which finds the pid the server wrote in the lab's `pids`
//!   ([`super::workdir`]).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd as _;
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::workdir::Workdir;

/// The longest a server may take to listen on every port.
const START: Duration = Duration::from_secs(10);

/// A running server.
pub(crate) struct Launched {
    child: Child,
    /// Its process id, whose threads' CPU time the lab reads; its process group's too.
    pub(crate) pid: u32,
    /// The guard that kills the server's group if codecbench dies first.
    guard: Child,
}

impl Drop for Launched {
    fn drop(&mut self) {
        // The guard first, so that it never signals a group id used again.
        end_group(&mut self.guard);
        end_group(&mut self.child);
    }
}

/// Kills `child`'s process group (it leads one) and waits for it.
fn end_group(child: &mut Child) {
    if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A shell in a process group of its own that reads a process group's id from its
/// input, then waits for the input's end, which comes when every writer has closed it
/// (codecbench, at its death), and kills that group. Its command line names `workdir`,
/// so that a later lab knows it for this lab's.
fn guard(workdir: &Workdir) -> std::io::Result<Child> {
    let script = "read -r group || exit 0; cat >/dev/null; kill -KILL \"-$group\"";
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", script, "codecbench-lab-guard"])
        .arg(workdir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setpgid is async-signal-safe.
    unsafe {
        command.pre_exec(|| match libc::setpgid(0, 0) {
            -1 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        });
    }
    let guard = command.spawn()?;
    record(workdir.pids().as_raw_fd(), guard.id() as i32)?;
    Ok(guard)
}

/// Writes `pid` and a line feed to `fd` in one write, without allocating: safe between
/// fork and exec.
fn record(fd: i32, pid: i32) -> std::io::Result<()> {
    let mut line = [0u8; 16];
    let mut at = line.len() - 1;
    line[at] = b'\n';
    let mut rest = pid.unsigned_abs();
    loop {
        at -= 1;
        line[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let text = &line[at..];
    // SAFETY: write is async-signal-safe; `text` is valid for its length.
    let written = unsafe { libc::write(fd, text.as_ptr().cast(), text.len()) };
    match usize::try_from(written) {
        Ok(n) if n == text.len() => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
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

/// Starts `command` from `workdir`, its output in `log` there, and waits until it
/// accepts connections on every one of `ports` from sockets of its own. `Err` says why
/// it did not, the log's end included, or what else listens there.
pub(crate) fn launch(
    mut command: Command,
    ports: &[u16],
    workdir: &Workdir,
) -> Result<Launched, String> {
    let log = workdir.path().join("server.log");
    let output = std::fs::File::create(&log).map_err(|e| format!("cannot write its log: {e}"))?;
    let errors = output.try_clone().map_err(|e| e.to_string())?;
    command.stdin(Stdio::null()).stdout(output).stderr(errors);
    let mut launched = start_guarded(command, workdir)?;
    let deadline = Instant::now() + START;
    for &port in ports {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            if let Ok(Some(status)) = launched.child.try_wait() {
                let why = super::listeners::taken(ports).unwrap_or_else(|| log_tail(&log));
                return Err(format!("it exited ({status}): {why}"));
            }
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                break;
            }
            if Instant::now() > deadline || crate::process::interrupt::requested() {
                return Err(format!(
                    "it did not listen on {address}: {}",
                    log_tail(&log)
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    super::listeners::held_by(launched.pid, ports)?;
    Ok(launched)
}

/// Starts the guard, then `command` in a process group of its own with its death
/// signal set; before it runs, the server writes its pid to the guard and to the
/// lab's `pids`.
fn start_guarded(mut command: Command, workdir: &Workdir) -> Result<Launched, String> {
    let mut guard = guard(workdir).map_err(|e| format!("cannot guard it: {e}"))?;
    let guard_input = guard.stdin.as_ref().map_or(-1, |s| s.as_raw_fd());
    let pids = workdir.pids().as_raw_fd();
    // SAFETY: getpid is async-signal-safe.
    let parent = unsafe { libc::getpid() };
    // SAFETY: setpgid, prctl, getppid, getpid and write (in `record`) are
    // async-signal-safe; nothing here allocates.
    unsafe {
        command.pre_exec(move || {
            let failed = || Err(std::io::Error::last_os_error());
            if libc::setpgid(0, 0) == -1 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1
            {
                return failed();
            }
            // A parent that died before prctl would never send the signal.
            if libc::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            record(guard_input, libc::getpid())?;
            record(pids, libc::getpid())
        });
    }
    match command.spawn() {
        Ok(child) => Ok(Launched {
            pid: child.id(),
            child,
            guard,
        }),
        Err(e) => {
            end_group(&mut guard);
            Err(format!("cannot start it: {e}"))
        }
    }
}

/// The last line of a server's log that says why it failed (an error, a port in use;
/// Node ends its trace with its version, httpd with "Unable to open logs"), or else its
/// last line, as one line of text.
fn log_tail(log: &std::path::Path) -> String {
    let text = std::fs::read(log).unwrap_or_default();
    let start = text.len().saturating_sub(4000);
    let text = String::from_utf8_lossy(&text[start..]);
    let lines = || text.lines().rev().filter(|l| !l.trim().is_empty());
    let says_why = |line: &&str| {
        let line = line.to_ascii_lowercase();
        ["error", "in use", "could not", "failed"]
            .iter()
            .any(|w| line.contains(w))
    };
    let error = lines().find(says_why);
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

    /// Node.js listening on `port` until killed: a server of the lab's kind.
    fn node_listening(port: u16) -> Command {
        let mut command = Command::new("node");
        let script = format!("require('net').createServer().listen({port}, '127.0.0.1')");
        command.args(["-e", &script]);
        command
    }

    #[test]
    fn a_server_that_exits_at_start_is_an_error_naming_its_last_words() {
        let dir = Workdir::create(None).unwrap();
        let mut command = Command::new("sh");
        command.args(["-c", "echo 'bind() failed' >&2; exit 3"]);
        let ports = free_ports(1).unwrap();
        let error = launch(command, &ports, &dir).err().unwrap();
        assert!(
            error.contains("exited") && error.contains("bind() failed"),
            "{error}"
        );
    }

    #[test]
    fn a_started_server_and_its_guard_are_killed_when_dropped_and_wrote_their_pids() {
        let dir = Workdir::create(None).unwrap();
        let port = free_ports(1).unwrap()[0];
        let launched = launch(node_listening(port), &[port], &dir).unwrap();
        let (pid, guard) = (launched.pid, launched.guard.id());
        assert!(!gone(pid) && !gone(guard));
        let pids = std::fs::read_to_string(dir.path().join("pids")).unwrap();
        assert_eq!(pids, format!("{guard}\n{pid}\n"));
        drop(launched);
        assert!(gone(pid), "pid {pid} outlived its handle");
        assert!(gone(guard), "the guard {guard} outlived its handle");
    }

    #[test]
    fn a_port_another_process_listens_on_is_refused_by_name() {
        let dir = Workdir::create(None).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut command = Command::new("sleep");
        command.arg("300");
        let error = launch(command, &[port], &dir).err().unwrap();
        assert!(
            error.contains("another process") && error.contains(&format!(":{port}")),
            "{error}"
        );
    }

    #[test]
    fn a_pid_is_written_whole_without_allocating() {
        let dir = tempfile::tempdir().unwrap();
        let file = std::fs::File::create(dir.path().join("pids")).unwrap();
        for pid in [1, 12345, i32::MAX] {
            record(file.as_raw_fd(), pid).unwrap();
        }
        let text = std::fs::read_to_string(dir.path().join("pids")).unwrap();
        assert_eq!(text, "1\n12345\n2147483647\n");
    }
}
