//! The CPU time a process has run, from the kernel's per-thread scheduler statistics:
//! the first field of `/proc/PID/task/TID/schedstat` is the nanoseconds that thread
//! has run (Linux `Documentation/scheduler/sched-stats.rst`). The sum over a process's
//! threads is its CPU time, to the nanosecond, where `/proc/PID/stat` counts ticks.
//! The calling thread's own CPU time comes from its clock, `CLOCK_THREAD_CPUTIME_ID`.

use std::io::{self, Read};

/// The most threads read: a server with more is not one this lab started.
const MOST_THREADS: usize = 4096;

/// Nanoseconds all live threads of `pid` have run. A thread that ended between two
/// readings takes its time with it, so the servers measured keep their threads.
pub(crate) fn process_cpu_ns(pid: u32) -> io::Result<u64> {
    let mut total = 0u64;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))?;
    for task in tasks.take(MOST_THREADS) {
        let path = task?.path().join("schedstat");
        match thread_cpu_ns(&path) {
            Ok(ns) => total = total.saturating_add(ns),
            // The thread ended after the directory was read.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(total)
}

/// The first field of one `schedstat` file, read to at most 256 bytes.
fn thread_cpu_ns(path: &std::path::Path) -> io::Result<u64> {
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(256)
        .read_to_string(&mut text)?;
    text.split_whitespace()
        .next()
        .and_then(|field| field.parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "schedstat is not a count"))
}

/// The calling thread's CPU time (user and system), from `CLOCK_THREAD_CPUTIME_ID`.
#[cfg(unix)]
pub(crate) fn thread_cpu_time() -> Option<std::time::Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// No portable per-thread CPU clock here.
#[cfg(not(unix))]
pub(crate) fn thread_cpu_time() -> Option<std::time::Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_grows_as_a_process_works() {
        // A process of its own: this test binary's other threads end at any time and
        // take their time with them, so its own sum can fall.
        let mut busy = std::process::Command::new("/bin/sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        let before = process_cpu_ns(busy.id()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let after = process_cpu_ns(busy.id()).unwrap();
        let _ = busy.kill();
        let _ = busy.wait();
        assert!(after > before, "{before} then {after}");
        assert!(process_cpu_ns(u32::MAX).is_err());
    }
}
