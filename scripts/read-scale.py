#!/usr/bin/env python3
"""Time and peak memory of the commands that read a saved run, at 4 sizes.

Writes synthetic runs of one payload with CELLS cells (15 samples a direction), then runs
`plot`, `report` and `recommend --from` on each under /usr/bin/time, and prints a table of
wall seconds and peak resident MB. The issue's target: 66,000 cells each under 5 s and
300 MB, and 264,000 cells under 4 times that.

Usage: scripts/read-scale.py [--binary target/release/codecbench] [--cells 8250 ...]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from synthetic_run import run  # noqa: E402

COMMANDS = {
    "plot": lambda saved, out: ["plot", saved, "--out", out + ".svg"],
    "report": lambda saved, out: ["report", saved, "--out", out + ".html"],
    "recommend --from": lambda saved, out: ["recommend", "--from", saved],
}


def measure(binary, args):
    """Wall seconds and peak resident MB of one command, from GNU time."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, *args],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {done.stderr.strip()[-400:]}")
    seconds, kib = re.findall(r"^([0-9.]+) ([0-9]+)$", done.stderr, re.M)[-1]
    return float(seconds), int(kib) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/codecbench")
    parser.add_argument("--cells", type=int, action="append")
    args = parser.parse_args()
    sizes = args.cells or [16_500, 33_000, 66_000, 264_000]
    print(f"| cells | file MB | " + " | ".join(f"{c} s, MB" for c in COMMANDS) + " |")
    print("|---:|---:|" + "---:|" * len(COMMANDS))
    with tempfile.TemporaryDirectory() as dir:
        for cells in sizes:
            saved = os.path.join(dir, f"{cells}.json")
            with open(saved, "w") as out:
                json.dump(run(1, cells), out)
            row = [f"{cells:,}", f"{os.path.getsize(saved) / 1e6:.0f}"]
            for name, command in COMMANDS.items():
                seconds, mb = measure(args.binary, command(saved, os.path.join(dir, "out")))
                row.append(f"{seconds:.1f} s, {mb:.0f} MB")
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
