#!/usr/bin/env python3
"""Where each measuring command's time goes: wall time against timed work.

Runs each command once, one after another, with --export-json, and prints a Markdown table:
the wall time, the timed work (the sum of every timed sample of every cell, both
directions, cut bodies included) and their ratio. What the ratio leaves out is warm-up,
the reference round trip of each cell in each process, process start-up, payload
generation, and the analysis. Target: 0.85 or more.

    scripts/time-spent.py [--keep DIR] [NAME ...]     default: every command below

--keep DIR keeps each command's saved run there (e.g. to check `reproduce --from` on it).
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "target" / "release" / "codecbench"
COMMANDS = {
    "reproduce": ["reproduce"],
    "run --payload large --iterations 15": ["run", "--payload", "large", "--iterations", "15"],
    "run --payload small": ["run", "--payload", "small"],
    "recommend --payload small": ["recommend", "--payload", "small"],
    "run --quick": ["run", "--quick"],
}


def timed_work(run):
    """Seconds of timed samples in a saved run."""
    total = 0.0
    for payload in run["payloads"]:
        for cell in payload["cells"]:
            for direction in ("compress", "decompress"):
                summary = cell.get(direction) or {}
                total += sum(summary.get("samples_s", []))
    return total


def measure(args, saved):
    start = time.monotonic()
    subprocess.run([str(BENCH), *args, "--quiet", "--export-json", str(saved)],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    return wall, timed_work(json.loads(saved.read_text()))


def clock(seconds):
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


def main():
    args = sys.argv[1:]
    keep = None
    if args[:1] == ["--keep"] and len(args) > 1:
        keep, args = Path(args[1]), args[2:]
        keep.mkdir(parents=True, exist_ok=True)
    names = args or list(COMMANDS)
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        sys.exit(f"unknown command {unknown[0]!r}; known: {', '.join(COMMANDS)}")
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "--bin", "codecbench"],
                   cwd=ROOT, check=True)
    print("| command | wall | timed work | timed ÷ wall |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            file = name.replace(" --", "-").replace(" ", "-") + ".json"
            saved = (keep or Path(tmp)) / file
            wall, work = measure(COMMANDS[name], saved)
            print(f"| `{name}` | {clock(wall)} | {clock(work)} | {work / wall:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
