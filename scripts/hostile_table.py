#!/usr/bin/env python3
"""Issue 58's hostile cases against one codecbench binary, a line each: what it did.

Run it with an old and a new build to get the before/after table of the closing note:

    python3 scripts/hostile_table.py --binary target/release/codecbench

Items 1 and 2 (planted links, swapped names) need another local user: see
scripts/link_race.py. Each case here is killed after LIMIT seconds and reported so.
"""

import argparse
import glob
import json
import os
import signal
import stat
import subprocess
import tempfile
import time

LIMIT = 60
FORGED = "a\n\n# Forged: all cells pass\n\n.json"
AB = ["ab", "--payload", "single", "--codecs", "zstd", "--zstd-levels", "1", "--quiet"]


def script(directory, name, body):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def launch(command, limit=LIMIT, **kwargs):
    """(exit code or 'killed', seconds, last stderr line, stdout)."""
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, **kwargs)
    try:
        out, err = child.communicate(timeout=limit)
        code = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        code = f"still running at {limit} s"
    seconds = time.monotonic() - started
    lines = err.decode(errors="replace").strip().splitlines()
    return code, seconds, (lines[-1] if lines else ""), out.decode(errors="replace")


def row(item, case, outcome):
    print(f"| {item} | {case} | {outcome} |", flush=True)


def shown(code, seconds, line, width=90):
    line = line.replace("|", "\\|")
    return f"exit {code} in {seconds:.1f} s: {line[:width]}"


def baselines(binary, d):
    starts = os.path.join(d, "starts")
    speaks = script(d, "speaks-1", f"echo >> {starts}\nread -r job\n"
                    "echo '{\"refused\":\"this build speaks 1\"}'")
    code, secs, line, _ = launch([binary, *AB, "--baseline", speaks, "--max-time", "5"])
    count = len(open(starts).read().splitlines()) if os.path.exists(starts) else 0
    row(3, "baseline refusing every version, --max-time 5",
        shown(code, secs, line, 60) + f"; {count} baseline processes")
    step = '{"step":{"round":0,"rounds":1,"cell":0,"cells":1,"label":"x"}}'
    for name, body in [("chatty", f"read -r job\nwhile :; do echo '{step}'; sleep 1; done"),
                       ("late", "read -r job\nsleep 100")]:
        path = script(d, name, body)
        code, secs, line, _ = launch([binary, *AB, "--baseline", path, "--max-time", "5"])
        row(4, f"{name} baseline, --max-time 5", shown(code, secs, line))
    for name, rewrite in [
        ("zero times", r's/"min_s":[^,]*/"min_s":0/g'),
        ("negative times", r's/"median_s":[^,]*/"median_s":-1/g'),
        ("another cell", r's/"level":1,/"level":2,/'),
        ("another payload", r's/"payload":"single"/"payload":"other"/'),
        ("interrupted result", r's/"interrupted":false/"interrupted":true/'),
        ("no cells", r's/"cells":\[.*\]\}\}$/"cells":[]}}/'),
        ("two cells", r's/"cells":\[(.*)\]\}\}$/"cells":[\1,\1]}}/'),
    ]:
        path = script(d, name.replace(" ", "-"), f"'{binary}' \"$@\" | sed -u -E '{rewrite}'")
        code, secs, line, out = launch([binary, *AB, "--baseline", path, "--threshold", "50"])
        head = out.splitlines()[0] if out else ""
        row(5, f"baseline answering {name}", shown(code, secs, line or head))
    marker = f"sleep 86{os.getpid() % 10000:04d}"
    forks = script(d, "forks", f"{marker} &\nexec '{binary}' \"$@\"")
    code, secs, line, _ = launch([binary, *AB, "--baseline", forks, "--threshold", "50"])
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True).stdout.split()
    row(6, "worker leaving a child each start", f"exit {code}; {len(left)} children left")
    subprocess.run(["pkill", "-f", marker])
    holds = script(d, "holds", f"read -r job\n{marker} &\nexit 0")
    code, secs, line, _ = launch([binary, *AB, "--baseline", holds])
    row(6, "worker exiting, its child holding stdout", shown(code, secs, line))
    subprocess.run(["pkill", "-f", marker])


def forged_markdown(binary, d):
    payload = os.path.join(d, FORGED)
    with open(payload, "w") as f:
        f.write('[{"id":1}]')
    run_json, run_md = os.path.join(d, "run.json"), os.path.join(d, "run.md")
    launch([binary, "run", "--quick", "--quiet", "--codecs", "zstd", "--zstd-levels", "1",
            "--payload", payload, "--export-json", run_json, "--export-markdown", run_md])
    forged = lambda text: any(l.startswith("# Forged") for l in text.splitlines())
    row(7, "payload file name in run --export-markdown",
        f"forged heading: {forged(open(run_md).read())}")
    *_, out = launch([binary, "compare", "--format", "markdown", run_json, run_json])
    row(7, "payload name in compare --format markdown", f"forged heading: {forged(out)}")
    run = json.load(open(run_json))
    for field in ["cpu", "os", "arch"]:
        run["environment"][field] = FORGED
    machine = os.path.join(d, "machine.json")
    json.dump(run, open(machine, "w"))
    *_, out = launch([binary, "merge", "--format", "markdown", machine, run_json])
    row(7, "cpu/os/arch in merge --format markdown", f"forged heading: {forged(out)}")
    baseline = os.path.join(d, FORGED + "build")
    subprocess.run(["cp", binary, baseline])
    ab_md = os.path.join(d, "ab.md")
    launch([binary, *AB, "--baseline", baseline, "--threshold", "50", "--export-markdown", ab_md])
    text = open(ab_md).read() if os.path.exists(ab_md) else ""
    row(7, "baseline path in ab --export-markdown", f"forged heading: {forged(text)}")
    run["environment"]["cpu"] = "evil\u202enosj.exe\x1b[31m\x00"
    bidi = os.path.join(d, "bidi.json")
    json.dump(run, open(bidi, "w"))
    page = os.path.join(d, "page.html")
    launch([binary, "report", bidi, "--out", page])
    raw = open(page, encoding="utf-8").read()
    row(8, "U+202E, ESC, NUL in a saved run, report page",
        "raw in page: " + (", ".join(n for n, c in [("U+202E", "\u202e"), ("ESC", "\x1b"),
                                                    ("NUL", "\x00")] if c in raw) or "none"))


def payloads_stop(binary, d, signals):
    out = os.path.join(d, f"out-{signals}")
    os.mkdir(out)
    child = subprocess.Popen([binary, "payloads", "--records", "800000", "--out", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not glob.glob(os.path.join(out, ".codecbench*")) and child.poll() is None:
        time.sleep(0.005)
    sent = time.monotonic()
    for _ in range(signals):
        child.send_signal(signal.SIGINT)
        time.sleep(0.05)
    code = child.wait()
    left = glob.glob(os.path.join(out, ".codecbench*"))
    size = sum(os.path.getsize(p) for p in left) / 1e6
    row(8, f"payloads --records 800000, {signals} SIGINT while writing",
        f"exit {code} {time.monotonic() - sent:.1f} s after; temporary left: "
        f"{len(left)} ({size:.0f} MB)")


def smaller(binary, d):
    payloads_stop(binary, d, 1)
    payloads_stop(binary, d, 2)
    fifo = os.path.join(d, "weights.csv")
    os.mkfifo(fifo)
    code, secs, line, _ = launch([binary, "recommend", "--from", "tests/fixtures/base.json",
                                  "--weights", fifo], limit=30)
    row(8, "--weights naming a FIFO with no writer", shown(code, secs, line, 70))
    plain = os.path.join(d, "not-runnable")
    with open(plain, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(plain, stat.S_IRUSR | stat.S_IWUSR)
    code, secs, line, _ = launch([binary, *AB, "--baseline", plain])
    row(8, "--baseline not executable", shown(code, secs, line, 70))
    *_, out = launch([binary, *AB, "--baseline", binary, "--threshold", "50"])
    row(8, "headline of a passing ab run", (out.splitlines() or [""])[0][:70])
    short = os.path.join(d, "short.json")
    launch([binary, "run", "--quick", "--quiet", "--payload", "single", "--codecs", "zstd",
            "--zstd-levels", "2", "--export-json", short])
    *_, out = launch([binary, "reproduce", "--from", short])
    said = next((l for l in out.splitlines() if "claims need" in l), "")
    row(8, "reproduce of a run without the article's cells", said[-60:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/release/codecbench")
    binary = os.path.abspath(parser.parse_args().binary)
    print(f"binary: {binary}\n\n| item | case | outcome |\n|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        baselines(binary, d)
        forged_markdown(binary, d)
        smaller(binary, d)


if __name__ == "__main__":
    main()
