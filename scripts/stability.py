#!/usr/bin/env python3
"""Whether `recommend` gives one answer run after run: measures a payload set N times
with `recommend --quick --format json` and prints, per scenario, the settings it named
each time, with their minimum sizes and the settings named at the budget's edge, and
how many runs agreed.

Needs only Python 3 and a release build (cargo build --release).

    scripts/stability.py                       # real-json, 10 runs
    scripts/stability.py --runs 5 --payload small --payload large
    scripts/stability.py --emit nginx --keep runs/   # as an operator pastes it

With --emit, each run measures as `recommend --emit SERVER` does and prints the
configuration; the table adds how often each configuration (its directives, comments
left out) came out, and the answer is read back from the run it saved.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import tempfile
import time

BINARY = os.path.join(os.path.dirname(__file__), "..", "target", "release", "codecbench")


def name(encoding):
    """`zstd 3`, as the answer names a setting."""
    coding = {"zstd": "zstd", "brotli": "br", "gzip": "gzip"}[encoding["id"]["codec"]]
    return f"{coding} {encoding['id']['level']}"


def sure(encoding):
    """` (near-tie: zstd 3 46, zstd 5 30)` for a near-tie, else empty."""
    if not encoding.get("near_tie"):
        return ""
    others = ", ".join(f"{name(a)} {a['picked_in']}" for a in encoding["alternatives"])
    return f" (near-tie: {encoding['picked_in']}; {others})"


def answer(payloads, extra, keep, emit):
    """One measured answer: {scenario: (settings in order, first minimum, edge)}, the
    configuration `emit` printed (or None), and seconds; the run is saved to `keep`."""
    args = [BINARY, "recommend", "--quick", "--quiet", "--export-json", keep]
    args += ["--emit", emit] if emit else ["--format", "json"]
    for payload in payloads:
        args += ["--payload", payload]
    started = time.monotonic()
    out = subprocess.run(args + extra, check=True, capture_output=True).stdout
    seconds = time.monotonic() - started
    config = None
    if emit:
        lines = out.decode().splitlines()
        config = " ".join(l for l in lines if l.strip() and not l.lstrip().startswith(("#", "//")))
        again = [BINARY, "recommend", "--format", "json", "--from", keep]
        if "--server" not in extra and emit in ("nginx", "tower-http", "aspnetcore"):
            again += ["--server", emit]
        out = subprocess.run(again + extra, check=True, capture_output=True).stdout
    report = json.loads(out)
    lines = {}
    for line in report["answers"][0]["lines"]:
        settings = " → ".join(name(e) + sure(e) for e in line["encodings"]) or "don't compress"
        first = line["encodings"][0]["min_body"]["bytes"] if line["encodings"] else None
        edge = ", ".join(name(e) for e in line.get("at_edge", [])) or "-"
        lines[line["scenario"]] = (settings, first, edge)
    return lines, config, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--payload", action="append", default=None)
    parser.add_argument("--keep", help="a folder to save each run in, as run-N.json")
    parser.add_argument("--emit", help="a server to print the configuration for")
    parser.add_argument("extra", nargs="*", help="more recommend options, after --")
    args = parser.parse_args()
    payloads = args.payload or ["real-json"]
    runs, configs = [], []
    folder = args.keep or tempfile.mkdtemp()
    for i in range(args.runs):
        keep = os.path.join(folder, f"run-{i + 1}.json")
        lines, config, seconds = answer(payloads, args.extra, keep, args.emit)
        runs.append(lines)
        configs.append(config)
        print(f"run {i + 1}: {seconds:.0f} s", flush=True)
        if config:
            print(f"  {config}", flush=True)
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
    if args.emit:
        print(f"\n`--emit {args.emit}`, directives without minimum lengths:\n")
        blank = collections.Counter(
            re.sub(r"(min(imum)?_length) \d+", r"\1 N", c) for c in configs
        )
        for config, count in blank.most_common():
            print(f"- {count}/{args.runs}: {config}")


if __name__ == "__main__":
    main()
