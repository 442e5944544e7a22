//! Who answers on a port: the listening sockets the kernel lists in `/proc/net/tcp` and
//! `/proc/net/tcp6` (proc(5)), against the sockets a process group holds in
//! `/proc/PID/fd`. The lab measures a server only when every listener a connection to
//! 127.0.0.1:PORT could reach is the server's: a user who bound the port first, or
//! beside it, would otherwise answer in its place.

use std::collections::HashSet;
use std::io::Read as _;

/// The most bytes read of one `/proc/net` table.
const MOST_TABLE_BYTES: u64 = 64 << 20;

/// A TCP socket in the `LISTEN` state.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Listener {
    /// Its port.
    port: u16,
    /// Its owner's user id.
    uid: u32,
    /// Its socket's inode.
    inode: u64,
}

/// Whether `address` (as `/proc/net/tcp*` writes it: 32-bit words in hex, each in the
/// host's byte order) takes connections to 127.0.0.1: 127.0.0.1 and 0.0.0.0, and in
/// IPv6 `::`, `::ffff:127.0.0.1` and `::ffff:0.0.0.0`.
fn reaches_loopback(address: &str) -> bool {
    let loopback = u32::from_ne_bytes([127, 0, 0, 1]);
    let mapped = u32::from_ne_bytes([0, 0, 0xff, 0xff]);
    let words: Option<Vec<u32>> = (0..address.len() / 8)
        .map(|i| u32::from_str_radix(address.get(i * 8..i * 8 + 8)?, 16).ok())
        .collect();
    match words.as_deref() {
        Some([v4]) => *v4 == loopback || *v4 == 0,
        Some([0, 0, 0, 0]) => true,
        Some([0, 0, m, v4]) => *m == mapped && (*v4 == loopback || *v4 == 0),
        _ => false,
    }
}

/// The listeners of one table's text that take connections to 127.0.0.1.
fn listeners(table: &str) -> Vec<Listener> {
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (address, port) = fields.get(1)?.split_once(':')?;
            let listening = *fields.get(3)? == "0A";
            (listening && reaches_loopback(address)).then_some(())?;
            Some(Listener {
                port: u16::from_str_radix(port, 16).ok()?,
                uid: fields.get(7)?.parse().ok()?,
                inode: fields.get(9)?.parse().ok()?,
            })
        })
        .collect()
}

/// A file of `/proc`, read to a bound; empty if it cannot be read.
fn read_proc(path: &str) -> String {
    let mut text = String::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(MOST_TABLE_BYTES).read_to_string(&mut text);
    }
    text
}

/// A `/proc/net` table in as few reads as it takes: the kernel lists it again from
/// the top at each read, counting lines, so that a socket opened or closed between two
/// reads can shift one out of sight. One read of 4 MiB takes a table of 25,000 sockets.
fn read_table(path: &str) -> String {
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    let mut bytes = vec![0u8; 4 << 20];
    let mut filled = 0;
    while filled < bytes.len() && (filled as u64) < MOST_TABLE_BYTES {
        match file.read(&mut bytes[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => filled += n,
        }
        if filled == bytes.len() {
            bytes.resize(bytes.len() * 2, 0);
        }
    }
    bytes.truncate(filled);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The listeners that take connections to 127.0.0.1, over IPv4 and IPv6, from two
/// readings of each table: one that a change in the table hid is in the other.
fn loopback_listeners() -> Vec<Listener> {
    let mut all = Vec::new();
    for _ in 0..2 {
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            for listener in listeners(&read_table(table)) {
                if !all.contains(&listener) {
                    all.push(listener);
                }
            }
        }
    }
    all
}

/// The inodes of the sockets every process of process group `group` holds.
fn sockets_of_group(group: u32) -> HashSet<u64> {
    let mut sockets = HashSet::new();
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return sockets;
    };
    for process in processes.flatten() {
        let name = process.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // The fields after the command's closing parenthesis: state, ppid, pgrp.
        let stat = read_proc(&format!("/proc/{pid}/stat"));
        let pgrp = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(2));
        if pgrp == Some(&group.to_string()) {
            sockets.extend(sockets_of(pid));
        }
    }
    sockets
}

/// The inodes of the sockets process `pid` holds.
fn sockets_of(pid: &str) -> HashSet<u64> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return HashSet::new();
    };
    fds.flatten()
        .filter_map(|fd| {
            let target = std::fs::read_link(fd.path()).ok()?;
            let target = target.to_string_lossy();
            let inode = target.strip_prefix("socket:[")?.strip_suffix(']')?;
            inode.parse::<u64>().ok()
        })
        .collect()
}

/// Whether process `pid` itself listens on 127.0.0.1:`port`, and nothing else does:
/// for the end-to-end tests, whose servers share their process group.
pub fn listens_alone(pid: u32, port: u16) -> bool {
    check(
        &loopback_listeners(),
        &sockets_of(&pid.to_string()),
        &[port],
    )
    .is_ok()
}

/// Checks that process group `group` (the server started, its leader's pid) holds
/// every listener that takes connections to 127.0.0.1 on each of `ports`, and at
/// least one. `Err` names the port and the other listener's user.
pub(crate) fn held_by(group: u32, ports: &[u16]) -> Result<(), String> {
    let own = sockets_of_group(group);
    check(&loopback_listeners(), &own, ports)
}

/// Why a server that exited or never listened may have: another process's listener on
/// one of `ports`, named, or `None`.
pub(crate) fn taken(ports: &[u16]) -> Option<String> {
    check(&loopback_listeners(), &HashSet::new(), ports)
        .err()
        .filter(|why| why.starts_with("another process"))
}

/// [`held_by`] on the listeners found and the group's sockets.
fn check(all: &[Listener], own: &HashSet<u64>, ports: &[u16]) -> Result<(), String> {
    for &port in ports {
        let on_port: Vec<&Listener> = all.iter().filter(|l| l.port == port).collect();
        if let Some(other) = on_port.iter().find(|l| !own.contains(&l.inode)) {
            return Err(format!(
                "another process (user id {}) listens on 127.0.0.1:{port}, not the server started: nothing measured through it",
                other.uid
            ));
        }
        if on_port.is_empty() {
            return Err(format!(
                "127.0.0.1:{port} answers, but no socket of the server started listens there"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as Linux writes them, header first.
    const TCP: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0 100 0 0 10 0
   1: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000 65534        0 2222 1 0 100 0 0 10 0
   2: 0100007F:1F92 0100007F:C000 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0 100 0 0 10 0
   3: 0200007F:1F93 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4444 1 0 100 0 0 10 0
";
    const TCP6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1F94 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5555 1 0 100 0 0 10 0
   1: 00000000000000000000000001000000:1F95 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 6666 1 0 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:1F96 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 7777 1 0 100 0 0 10 0
";

    #[test]
    fn listeners_that_take_loopback_connections_are_read() {
        let ports: Vec<(u16, u64)> = listeners(TCP)
            .iter()
            .chain(&listeners(TCP6))
            .map(|l| (l.port, l.inode))
            .collect();
        // 127.0.0.2, ::1 and a connected socket take no connection to 127.0.0.1.
        assert_eq!(
            ports,
            [(8080, 1111), (8081, 2222), (8084, 5555), (8086, 7777)]
        );
    }

    #[test]
    fn another_users_listener_on_a_port_is_named() {
        let all = listeners(TCP);
        let own: HashSet<u64> = [1111].into();
        assert_eq!(check(&all, &own, &[8080]), Ok(()));
        let taken = check(&all, &own, &[8080, 8081]).unwrap_err();
        assert!(
            taken.contains("user id 65534") && taken.contains(":8081"),
            "{taken}"
        );
        assert!(check(&all, &own, &[9999])
            .unwrap_err()
            .contains("no socket"));
    }

    #[test]
    fn a_listener_of_this_process_is_found_as_its_own() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // SAFETY: getpgrp reads this process's group.
        let group = unsafe { libc::getpgrp() } as u32;
        assert_eq!(held_by(group, &[port]), Ok(()));
        assert!(held_by(1, &[port]).unwrap_err().contains("another process"));
    }
}
