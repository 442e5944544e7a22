#!/usr/bin/env python3
"""Whether `recommend`'s answer survives a second run of a saved run: re-reads it with
each cell moved as a whole (median and interval together) to a point drawn inside its
interval, and with the whole run a few percent faster and slower, and counts how often
each scenario's first setting, and the emitted nginx directives, stay the same.

Needs only Python 3 and a build; BINARY defaults to target/release/codecbench.

    scripts/reread.py results/reference.json
    scripts/reread.py --draws 12 --binary /tmp/old/codecbench tests/fixtures/*.json
"""

import argparse
import json
import os
import random
import re
import subprocess
import tempfile

BINARY = os.path.join(os.path.dirname(__file__), "..", "target", "release", "codecbench")


def moved(run, rng, whole):
    """A copy of `run` with every direction of every cell scaled as a whole."""
    run = json.loads(json.dumps(run))
    for payload in run["payloads"]:
        for cell in payload["cells"]:
            for direction in ("compress", "decompress"):
                summary = cell.get(direction)
                if not isinstance(summary, dict):
                    continue
                low = summary.get("median_ci95_low_s")
                high = summary.get("median_ci95_high_s")
                if low is None or high is None:
                    low, high = summary["min_s"], summary["max_s"]
                factor = whole or (low + rng.random() * (high - low)) / summary["median_s"]
                for key, value in summary.items():
                    if key == "samples_s":
                        summary[key] = [s * factor for s in value]
                    elif key.endswith("_s") and isinstance(value, (int, float)):
                        summary[key] = value * factor
    return run


def answer(binary, run):
    """The first setting per scenario and nginx's directives (minimum lengths blanked)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run.json")
        with open(path, "w") as out:
            json.dump(run, out)
        base = [binary, "recommend", "--from", path]
        report = json.loads(subprocess.run(base + ["--format", "json"], check=True,
                                           capture_output=True).stdout)
        emitted = subprocess.run(base + ["--emit", "nginx"], check=True,
                                 capture_output=True).stdout.decode()
    firsts = []
    for line in report["answers"][0]["lines"]:
        first = line["encodings"][0]["id"] if line["encodings"] else None
        firsts.append(first and f"{first['codec']} {first['level']}")
    directives = [l for l in emitted.splitlines() if l.strip() and not l.startswith("#")]
    mins = [int(m) for m in re.findall(r"_min_length (\d+);", emitted)]
    blank = [re.sub(r"_min_length \d+", "_min_length N", l) for l in directives]
    return firsts, blank, mins


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--draws", type=int, default=12)
    parser.add_argument("--binary", default=BINARY)
    parser.add_argument("--seed", type=int, default=57)
    args = parser.parse_args()
    print("| run | first settings kept | nginx directives kept | largest emitted minimum |")
    print("|---|--:|--:|--:|")
    for path in args.runs:
        with open(path) as f:
            run = json.load(f)
        rng = random.Random(args.seed)
        firsts, directives, mins = answer(args.binary, run)
        kept = same = 0
        largest = max(mins, default=0)
        wholes = [0.97, 1.03]
        for draw in range(args.draws + len(wholes)):
            whole = wholes[draw - args.draws] if draw >= args.draws else None
            again, again_directives, again_mins = answer(args.binary, moved(run, rng, whole))
            kept += sum(a == b for a, b in zip(again, firsts))
            same += again_directives == directives
            largest = max([largest] + again_mins)
        answers = 3 * (args.draws + len(wholes))
        reads = args.draws + len(wholes)
        print(f"| {os.path.basename(path)} | {kept} of {answers} | {same} of {reads} | "
              f"{largest:,} B |", flush=True)


if __name__ == "__main__":
    main()
