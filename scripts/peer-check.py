#!/usr/bin/env python3
"""How codecbench's speeds compare with lzbench and `zstd -b` for the same work.

lzbench and `zstd -b` compress the whole input in one call with its size known, so
codecbench is run with `--api oneshot`, the same call. They alternate REPEATS times on
one payload, every other repeat in reverse order. This machine has slow spells that move
a whole repeat, and fast ones: so each side's fastest repeat is compared, and so is each
repeat's own ratio (paired: both sides ran within seconds of each other), by its median
over the repeats. The table gives codecbench's MB/s divided by each peer's for the same
codec and level (codecbench and lzbench give medians, `zstd -b` its fastest run), with
each side's library version: a ratio is only meaningful where the versions match
(target: >= 0.95 in both directions, by either comparison).

Peers are used where installed: lzbench from $LZBENCH or the PATH (build it from
https://github.com/inikep/lzbench with `make`), the `zstd` CLI from the PATH, and
python-zstandard (`pip install zstandard`), a direct one-shot loop over its bundled libzstd:
a fresh compressor or decompressor per call, median of as many calls as codecbench's
default count for the payload, after 3 warm-up calls.

With `--schedule default`, codecbench runs with its default iterations and processes (on
the large payload, 15 iterations over 5 processes) instead of `--min-time`. Its median
then pools 5 fresh processes, while a one-process loop's fastest repeat is its luckiest
process: a cell can run 20-50% slower for the life of a process on this VM (docs/run.md).
So python-zstandard is also run as `python-zstandard x5`: the same calls spread the same way
(5 processes, their samples pooled), which isolates what the harness itself costs.

    scripts/peer-check.py [--payload large] [--repeats 3] [--seconds 1] [--schedule default]
                          [--cells zstd:1,zstd:3]
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "target" / "release" / "codecbench"
# (codec, level) pairs measured, and each one's name in lzbench.
CELLS = [("zstd", 1), ("zstd", 3), ("brotli", 1), ("brotli", 11), ("gzip", 1), ("gzip", 6)]
LZBENCH_NAMES = {"zstd": "zstd", "brotli": "brotli", "gzip": "zlib"}


def codecbench(payload, seconds, schedule):
    """{(codec, level): (compress MB/s, decompress MB/s, bytes, library)}"""
    timing = ["--min-time", str(seconds)] if schedule == "min-time" else []
    codecs = sorted({c for c, _ in CELLS})
    levels = [arg for codec in codecs for arg in (
        f"--{codec}-levels", ",".join(str(l) for c, l in CELLS if c == codec))]
    args = [str(BENCH), "run", "--payload", str(payload), "--api", "oneshot",
            "--codecs", ",".join(codecs), *levels, "--brotli-impl", "c", *timing,
            "--format", "csv", "--quiet"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    result = {}
    for row in csv.DictReader(io.StringIO(out)):
        key = (row["codec"], int(row["level"]))
        result[key] = (float(row["compress_mb_s"]), float(row["decompress_mb_s"]),
                       int(row["compressed_bytes"]), f'{row["library"]} {row["version"]}')
    return result


def lzbench(binary, payload, seconds):
    spec = "/".join(f"{LZBENCH_NAMES[c]},{l}" for c, l in CELLS)
    args = [binary, "-o4", "-p3", f"-t{seconds},{seconds}", f"-e{spec}", str(payload)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    result = {}
    for row in csv.reader(io.StringIO(out)):
        match = re.match(r"(\w+) ([\w.]+) -(\d+)$", row[0]) if row else None
        if not match:
            continue
        name, version, level = match.groups()
        codec = {v: k for k, v in LZBENCH_NAMES.items()}.get(name)
        if codec:
            result[(codec, int(level))] = (float(row[1]), float(row[2]), int(row[4]),
                                           f"{name} {version}")
    return result


def zstd_cli(payload, seconds):
    version = subprocess.run(["zstd", "--version"], capture_output=True, text=True).stdout
    version = re.search(r"v(\d+\.\d+\.\d+)", version).group(1)
    result = {}
    for level in sorted({l for c, l in CELLS if c == "zstd"}):
        run = subprocess.run(["zstd", f"-b{level}", f"-i{seconds}", str(payload)],
                             capture_output=True, text=True)
        text = (run.stdout + run.stderr).replace("\r", "\n")
        found = re.findall(r"->\s+(\d+) \(x[\d.]+\),\s+([\d.]+) MB/s,\s+([\d.]+) MB/s", text)
        if found:
            size, c, d = found[-1]
            result[("zstd", level)] = (float(c), float(d), int(size), f"zstd CLI {version}")
    return result


PYZSTD_LOOP = """
import json, sys, time, zstandard
data = open(sys.argv[1], "rb").read()
level, calls = int(sys.argv[2]), int(sys.argv[3])
frame = zstandard.ZstdCompressor(level=level).compress(data)
def timed(call):
    for _ in range(3):
        call()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples
print(json.dumps({
    "compress": timed(lambda: zstandard.ZstdCompressor(level=level).compress(data)),
    "decompress": timed(lambda: zstandard.ZstdDecompressor().decompress(frame)),
    "bytes": len(frame), "version": ".".join(map(str, zstandard.ZSTD_VERSION)),
}))
"""


def default_calls(payload):
    """codecbench's default iterations for a payload of this size."""
    size = payload.stat().st_size
    return 1000 if size <= 10_000 else 60 if size <= 1_000_000 else 15


def pyzstd(payload, processes):
    """python-zstandard's one-shot loop, its calls spread over `processes` processes and
    their samples pooled."""
    calls = default_calls(payload)
    result = {}
    for level in sorted({l for c, l in CELLS if c == "zstd"}):
        runs = []
        for process in range(processes):
            share = calls // processes + (process < calls % processes)
            out = subprocess.run([sys.executable, "-c", PYZSTD_LOOP, str(payload), str(level),
                                  str(share)], check=True, capture_output=True, text=True)
            runs.append(json.loads(out.stdout))
        median = lambda key: sorted(x for r in runs for x in r[key])[calls // 2]
        size = payload.stat().st_size / 1e6
        result[("zstd", level)] = (size / median("compress"), size / median("decompress"),
                                   runs[0]["bytes"], f"libzstd v{runs[0]['version']}")
    return result


def paired_median(ours, theirs, key, direction):
    """The median over repeats of codecbench's MB/s over the peer's in the same repeat."""
    ratios = sorted(o[key][direction] / t[key][direction] for o, t in zip(ours, theirs)
                    if key in o and key in t)
    return ratios[len(ratios) // 2] if ratios else float("nan")


def best(runs):
    """Per cell, the fastest compression and decompression over the repeats."""
    merged = {}
    for run in runs:
        for key, (c, d, size, lib) in run.items():
            old = merged.get(key, (0.0, 0.0, size, lib))
            merged[key] = (max(old[0], c), max(old[1], d), size, lib)
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payload", default="large", help="single, small or large")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=1, help="time per cell and direction")
    parser.add_argument("--schedule", choices=["min-time", "default"], default="min-time",
                        help="codecbench's timing: --min-time SECONDS, or its defaults")
    parser.add_argument("--cells", help="e.g. zstd:1,gzip:6 (default: all six)")
    options = parser.parse_args()
    if options.cells:
        CELLS[:] = [(c, int(l)) for c, l in (cell.split(":") for cell in options.cells.split(","))]
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "--bin", "codecbench"],
                   cwd=ROOT, check=True)
    lz = os.environ.get("LZBENCH") or shutil.which("lzbench")
    peers = {"lzbench": (lambda p: lzbench(lz, p, options.seconds)) if lz else None,
             "zstd -b": (lambda p: zstd_cli(p, options.seconds)) if shutil.which("zstd") else None}
    try:
        import zstandard  # noqa: F401  (only whether it is installed)
        peers["python-zstandard"] = lambda p: pyzstd(p, 1)
        if options.schedule == "default":
            peers["python-zstandard x5"] = lambda p: pyzstd(p, 5)
    except ImportError:
        peers["python-zstandard"] = None
    for name, peer in peers.items():
        if peer is None:
            print(f"{name}: not installed, left out", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(BENCH), "payloads", "--out", tmp], check=True, capture_output=True)
        payload = Path(tmp) / f"{options.payload}.json"
        runs = {"codecbench": []} | {n: [] for n, p in peers.items() if p}
        measure = {"codecbench": lambda p: codecbench(p, options.seconds, options.schedule)}
        measure |= {name: peer for name, peer in peers.items() if peer}
        for repeat in range(options.repeats):
            print(f"repeat {repeat + 1}/{options.repeats}", file=sys.stderr)
            # Every other repeat the other way round, so that neither side always goes first.
            order = list(measure) if repeat % 2 == 0 else list(reversed(measure))
            for name in order:
                runs[name].append(measure[name](payload))
    our_runs = runs.pop("codecbench")
    ours = best(our_runs)
    timing = (f"--min-time {options.seconds}" if options.schedule == "min-time"
              else "its default iterations and processes")
    print(f"{options.payload}: codecbench --api oneshot ({timing}) against its peers, fastest "
          f"of {options.repeats} repeats, MB/s of uncompressed bytes (10^6); paired: the "
          f"median of the {options.repeats} repeats' own ratios")
    header = ("peer", "cell", "codecbench lib", "peer lib", "bytes (ours/peer)",
              "compress", "decompress", "paired")
    rows = []
    failing = 0
    for name, repeats in runs.items():
        theirs = best(repeats)
        for key in CELLS:
            if key not in ours or key not in theirs:
                continue
            (oc, od, osize, olib), (pc, pd, psize, plib) = ours[key], theirs[key]
            same = olib.split()[-1] == plib.split()[-1]
            ratio_c, ratio_d = oc / pc, od / pd
            paired = [paired_median(our_runs, repeats, key, d) for d in (0, 1)]
            verdict = max(min(ratio_c, ratio_d), min(paired))
            mark = "" if not same else (" ok" if verdict >= 0.95 else " LOW")
            failing += mark == " LOW"
            rows.append((name, f"{key[0]} {key[1]}", olib, plib, f"{osize}/{psize}",
                         f"{oc:.0f}/{pc:.0f} = {ratio_c:.2f}",
                         f"{od:.0f}/{pd:.0f} = {ratio_d:.2f}",
                         f"{paired[0]:.2f} and {paired[1]:.2f}{mark}"))
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
    print("ok: >= 0.95 of the peer in both directions, by the fastest repeats or by the "
          "paired ratios, where the library versions match; other rows are for scale only")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
