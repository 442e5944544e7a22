#!/usr/bin/env python3
"""Attacks codecbench's outputs with links another local user plants, as issue 58 did.

Run as root: it makes (or reuses) the user `cbattacker`, whose process swaps an output
name between its own file and a link to root's 0600 file as fast as it can
(renameat2 RENAME_EXCHANGE in a sticky, world-writable directory), while root runs each
output flag TRIES times. A second check plants a link as a directory component.
Prints, per flag, how many tries overwrote the victim's file.

    python3 scripts/link_race.py --binary target/release/codecbench --tries 1000
"""

import argparse
import ctypes
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

ATTACKER = "cbattacker"
RENAME_EXCHANGE = 2
AT_FDCWD = -100
VICTIM_TEXT = b"the victim's own file\n"


def attacker_uid():
    try:
        return pwd.getpwnam(ATTACKER).pw_uid
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", ATTACKER], check=True)
        return pwd.getpwnam(ATTACKER).pw_uid


def swap_forever(uid, shared, victim):
    """In a child as the attacker: a file and a link to `victim`, exchanged in a loop."""
    pid = os.fork()
    if pid:
        return pid
    os.setgid(pwd.getpwuid(uid).pw_gid)
    os.setuid(uid)
    name = os.path.join(shared, "out.json")
    spare = os.path.join(shared, "spare")
    libc = ctypes.CDLL(None, use_errno=True)
    a, b = name.encode(), spare.encode()
    while True:
        if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            # Root's output replaced an entry and root then removed it: plant again.
            try:
                with open(name, "x") as f:
                    f.write("the attacker's file\n")
            except OSError:
                pass
            try:
                os.symlink(victim, spare)
            except OSError:
                pass


def plant_directory_link(uid, shared, victim_dir):
    """As the attacker: `shared/results` -> the victim's directory."""
    link = os.path.join(shared, "results")
    os.symlink(victim_dir, link)
    os.lchown(link, uid, uid)
    return link


def commands(binary, output):
    run = [binary, "run", "--quick", "--quiet", "--payload", "single",
           "--codecs", "zstd", "--zstd-levels", "1"]
    return {
        "report --out": [binary, "report", "tests/fixtures/base.json", "--out", output],
        "run --export-json": run + ["--export-json", output],
        "run --export-csv": run + ["--export-csv", output],
    }


def fresh_plant(shared):
    """Every entry removed, then a wait until the attacker has planted its two again."""
    for entry in os.listdir(shared):
        os.unlink(os.path.join(shared, entry))
    while len(os.listdir(shared)) < 2:
        time.sleep(0.001)


def overwritten(victim):
    with open(victim, "rb") as f:
        changed = f.read() != VICTIM_TEXT
    if changed:
        with open(victim, "wb") as f:
            f.write(VICTIM_TEXT)
    return changed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/release/codecbench")
    parser.add_argument("--tries", type=int, default=1000)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: the attacker is another local user")
    uid = attacker_uid()
    victim_dir = tempfile.mkdtemp(prefix="victim-")
    victim = os.path.join(victim_dir, "secret.txt")
    with open(victim, "wb") as f:
        f.write(VICTIM_TEXT)
    os.chmod(victim, 0o600)

    shared = tempfile.mkdtemp(prefix="shared-")
    os.chmod(shared, 0o1777)
    link = plant_directory_link(uid, shared, victim_dir)
    print(f"binary: {args.binary}")
    print("planted directory link (results -> victim's directory), one try each:")
    for flag, command in commands(args.binary, os.path.join(link, "secret.txt")).items():
        done = subprocess.run(command, capture_output=True)
        print(f"  {flag}: exit {done.returncode}, overwritten {int(overwritten(victim))}, "
              f"{done.stderr.decode().strip()[:110]}")
    os.unlink(link)

    attacker = swap_forever(uid, shared, victim)
    try:
        print(f"name swapped between a file and a link, {args.tries} tries each:")
        output = os.path.join(shared, "out.json")
        for flag, command in commands(args.binary, output).items():
            hits = refused = 0
            others = {}
            for _ in range(args.tries):
                fresh_plant(shared)
                done = subprocess.run(command, capture_output=True)
                hits += overwritten(victim)
                refused += done.returncode == 2
                if done.returncode not in (0, 2):
                    others[done.returncode] = done.stderr.decode().strip()[-150:]
            print(f"  {flag}: overwritten {hits} of {args.tries}, refused {refused}")
            for code, why in others.items():
                print(f"    also exit {code}: {why}")
    finally:
        os.kill(attacker, 9)
        os.waitpid(attacker, 0)
        shutil.rmtree(shared, ignore_errors=True)
        shutil.rmtree(victim_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
