#!/usr/bin/env python3
"""Whether `recommend` gives one answer run after run: measures a payload set N times
with `recommend --quick --format json` and prints, per scenario, the settings it named
each time, with their minimum sizes and the settings named at the budget's edge, and
how many runs agreed.

Needs only Python 3 and a release build (cargo build --release).

    scripts/stability.py                       # real-json, 10 runs
    scripts/stability.py --runs 5 --payload small --payload large
"""

import argparse
import collections
import json
import os
import subprocess
import time

BINARY = os.path.join(os.path.dirname(__file__), "..", "target", "release", "codecbench")


def name(encoding):
    """`zstd 3`, as the answer names a setting."""
    coding = {"zstd": "zstd", "brotli": "br", "gzip": "gzip"}[encoding["id"]["codec"]]
    return f"{coding} {encoding['id']['level']}"


def answer(payloads, extra, keep):
    """One measured answer: {scenario: (settings in order, first minimum)}, and seconds;
    the run is saved to `keep` when given."""
    args = [BINARY, "recommend", "--quick", "--format", "json", "--quiet"]
    if keep:
        args += ["--export-json", keep]
    for payload in payloads:
        args += ["--payload", payload]
    started = time.monotonic()
    out = subprocess.run(args + extra, check=True, capture_output=True).stdout
    report = json.loads(out)
    lines = {}
    for line in report["answers"][0]["lines"]:
        settings = " → ".join(name(e) for e in line["encodings"]) or "don't compress"
        first = line["encodings"][0]["min_body"]["bytes"] if line["encodings"] else None
        edge = ", ".join(name(e) for e in line.get("at_edge", [])) or "-"
        lines[line["scenario"]] = (settings, first, edge)
    return lines, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--payload", action="append", default=None)
    parser.add_argument("--keep", help="a folder to save each run in, as run-N.json")
    parser.add_argument("extra", nargs="*", help="more recommend options, after --")
    args = parser.parse_args()
    payloads = args.payload or ["real-json"]
    runs = []
    for i in range(args.runs):
        keep = args.keep and os.path.join(args.keep, f"run-{i + 1}.json")
        lines, seconds = answer(payloads, args.extra, keep)
        runs.append(lines)
        print(f"run {i + 1}: {seconds:.0f} s", flush=True)
    print()
    print(f"recommend --quick on {', '.join(payloads)}, {args.runs} runs\n")
    print("| Scenario | Settings named | Runs | Minimum sizes (first setting) | At the budget's edge |")
    print("|---|---|--:|---|---|")
    for scenario in ["dynamic", "cached", "static"]:
        named = collections.Counter(run[scenario][0] for run in runs)
        for settings, count in named.most_common():
            minima = sorted(r[scenario][1] for r in runs if r[scenario][0] == settings)
            shown = ", ".join(f"{m:,}" for m in minima if m is not None) or "-"
            edges = collections.Counter(r[scenario][2] for r in runs if r[scenario][0] == settings)
            edge = "; ".join(f"{e} ({n})" for e, n in edges.most_common())
            print(f"| {scenario} | {settings} | {count}/{args.runs} | {shown} | {edge} |")


if __name__ == "__main__":
    main()
