#!/usr/bin/env python3
"""How well `codecbench compare` gates CI: its detection power and false-alarm rate.

Measures 2 x PAIRS unmodified runs with the given `run` options, then for each pair
(baseline, candidate):

- false alarm: compares the two unmodified runs; any flagged cell is a false alarm;
- power: for each cell tried and each slowdown factor, multiplies that cell's samples
  in the candidate (both directions) by the factor and checks that compare flags it.

Prints one table: per factor, how many (cell, pair) trials were flagged, and the false
alarms. Needs only Python 3 and a release build (cargo build --release).

With --mode instructions the runs count instructions (`run --measure instructions`,
valgrind needed), the factor multiplies one cell's instruction counts, and a trial is
flagged when compare finds more instructions than --instructions-threshold allows.

    scripts/detection-power.py                           # CI settings, 5 pairs
    scripts/detection-power.py --label quick -- --quick  # the --quick preset
    scripts/detection-power.py --pairs 3 --compare-args=--absolute
    scripts/detection-power.py --mode instructions --pairs 2
    scripts/detection-power.py --interleave 10 --label "time gate"    # as time-gate.sh
    scripts/detection-power.py --mode ab --pairs 20      # `ab`, slowed by its hook

With --mode ab each try is one `codecbench ab` of this build against itself: unmodified
(any flagged cell is a false alarm), then once per factor with the calibration hook
slowing --cell in the candidate (docs/ab.md). --pairs sets the tries.
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time

# CODECBENCH_BIN names another build, e.g. a copy that a rebuild cannot swap mid-measurement.
BIN = os.environ.get("CODECBENCH_BIN") or os.path.join(
    os.path.dirname(__file__), "..", "target", "release", "codecbench"
)
CI_SETTINGS = ["--payload", "small", "--iterations", "30", "--warmup", "1", "--processes", "10"]
# scripts/time-gate.sh: each of its one-process runs; it alternates 10 of each build.
TIME_GATE_SETTINGS = ["--payload", "small", "--iterations", "3", "--warmup", "1", "--processes", "1"]
# Instruction mode: the cells tried, each counted once per direction.
INSTRUCTION_SETTINGS = [
    "--payload", "small", "--zstd-levels", "-1,1,3", "--brotli-levels", "4",
    "--gzip-levels", "6", "--measure", "instructions",
]
# Cells tried: (codec, level) with the library servers run and a fresh encoder.
CELLS = [("zstd", 3), ("zstd", -1), ("brotli", 4), ("gzip", 6)]
SERVER_LIBRARY = {"zstd": "libzstd", "brotli": "libbrotli", "gzip": "zlib-rs"}


def measure(path, run_args):
    subprocess.run(
        [BIN, "run", "--quiet", "--format", "csv", "--json", path, *run_args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with open(path) as f:
        return json.load(f)


def measure_interleaved(paths, run_args, alternations):
    """Both runs of a pair, as scripts/time-gate.sh measures a base and a head: one-process
    runs of each in turn (ABBA, so a drift in time weighs on both alike), each side then
    pooled with `codecbench pool`."""
    parts = ([], [])
    for i in range(alternations):
        for side in (0, 1) if i % 2 == 0 else (1, 0):
            part = f"{paths[side][:-len('.json')]}-part{i}.json"
            measure(part, run_args)
            parts[side].append(part)
    runs = []
    for path, side_parts in zip(paths, parts):
        subprocess.run(
            [BIN, "pool", *side_parts, "--json", path], check=True, stdout=subprocess.DEVNULL
        )
        with open(path) as f:
            runs.append(json.load(f))
    return runs


def is_cell(cell, codec, level):
    return (
        cell["codec"] == codec
        and cell["level"] == level
        and cell["library"] == SERVER_LIBRARY[codec]
        and cell["variant"] == "fresh"
    )


def slowed(run, codec, level, factor, mode="time"):
    run = copy.deepcopy(run)
    for payload in run["payloads"]:
        for cell in payload["cells"]:
            if not is_cell(cell, codec, level):
                continue
            if mode == "instructions":
                for key in ("compress_instructions", "decompress_instructions"):
                    cell[key] = round(cell[key] * factor)
                continue
            for direction in ("compress", "decompress"):
                summary = cell[direction]
                for key in ("median_s", "min_s", "max_s", "mean_s"):
                    summary[key] *= factor
                summary["samples_s"] = [s * factor for s in summary["samples_s"]]
    return run


def flagged_rows(baseline_path, candidate, workdir, compare_args, mode="time"):
    candidate_path = os.path.join(workdir, "candidate.json")
    with open(candidate_path, "w") as f:
        json.dump(candidate, f)
    out = subprocess.run(
        [BIN, "compare", baseline_path, candidate_path, "--format", "json", *compare_args],
        capture_output=True,
        text=True,
    )
    if out.returncode not in (0, 1):
        sys.exit(f"compare failed: {out.stderr}")
    comparison = json.loads(out.stdout)
    flagged = set()
    inconclusive = sum(
        1
        for row in comparison["rows"]
        for _, change in row["speeds"]
        if change and change["verdict"] == "inconclusive"
    )
    for row in comparison["rows"]:
        if mode == "instructions":
            verdicts = [change["verdict"] for _, change in row["instructions"]]
        else:
            verdicts = [change["verdict"] for _, change in row["speeds"] if change]
        if "regressed" in verdicts:
            identity = row["key"]["id"]
            flagged.add((identity["codec"], identity["library"], identity["variant"], identity["level"]))
    return flagged, out.returncode, inconclusive


def ab_try(run_args, slowdown, path):
    """One `ab` of this build against itself, the candidate slowed as `slowdown` says
    (none if None): the cells it flagged (slower either way, or a size drift), seconds."""
    env = dict(os.environ)
    env.pop("CODECBENCH_CALIBRATE_SLOWDOWN", None)
    if slowdown:
        env["CODECBENCH_CALIBRATE_SLOWDOWN"] = slowdown
    started = time.monotonic()
    out = subprocess.run(
        [BIN, "ab", "--baseline", BIN, "--quiet", "--export-json", path, *run_args],
        env=env, capture_output=True, text=True,
    )
    if out.returncode not in (0, 1):
        sys.exit(f"ab failed: {out.stderr}")
    with open(path) as f:
        report = json.load(f)
    flagged = {
        f"{c['codec']} {c['level']} ({c['library']})"
        for c in report["cells"]
        if "slower" in c["verdicts"] or c["candidate_bytes"] != c["baseline_bytes"]
    }
    return flagged, time.monotonic() - started


def ab_mode(args):
    """Detection power and false alarms of `ab`, with its calibration hook."""
    factors = [float(f) for f in (args.factors or "1.05,1.1").split(",")]
    codec, level = args.cell.split(":")
    target = f"{codec} {level} ({SERVER_LIBRARY[codec]})"
    rows = {f: [0, 0, []] for f in [1.0, *factors]}  # caught, others flagged, seconds
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.runs_dir or scratch  # --runs-dir keeps each try's JSON report
        os.makedirs(workdir, exist_ok=True)
        for t in range(args.pairs):
            for factor in rows:
                slowdown = None if factor == 1.0 else f"{args.cell}={factor}"
                path = os.path.join(workdir, f"try{t}-{factor}.json")
                flagged, seconds = ab_try(args.run_args, slowdown, path)
                row = rows[factor]
                row[0] += target in flagged
                row[1] += len(flagged - {target}) > 0
                row[2].append(seconds)
                print(f"try {t + 1}, {factor}x: {sorted(flagged)} in {seconds:.0f} s", file=sys.stderr)
    print(f"ab: `{' '.join(args.run_args) or 'defaults (small, every setting)'}`, {args.pairs} tries, {target} slowed")
    print()
    print("| candidate | target flagged | tries with another cell flagged | seconds (min–max) |")
    print("| --- | --- | --- | --- |")
    for factor, (caught, others, seconds) in rows.items():
        label = "unmodified" if factor == 1.0 else f"{target} x{factor}"
        caught_text = "-" if factor == 1.0 else f"{caught} of {args.pairs}"
        print(f"| {label} | {caught_text} | {others} of {args.pairs} | {min(seconds):.0f}–{max(seconds):.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--mode", choices=["time", "instructions", "ab"], default="time")
    parser.add_argument("--cell", default="zstd:3", help="with --mode ab: the cell slowed")
    parser.add_argument("--factors", help="default 1.1,...,2.0 for time, 1.005,...,1.05 for instructions")
    parser.add_argument("--label", default="CI settings")
    parser.add_argument("--compare-args", default="", help="extra compare options, space-separated")
    parser.add_argument(
        "--runs-dir",
        help="keep the runs here; runs already there (run0.json, ...) are reused, not measured "
        "(with --mode ab: each try's report is kept, never reused)",
    )
    parser.add_argument(
        "--interleave",
        type=int,
        metavar="K",
        help="measure each pair as scripts/time-gate.sh does: K one-process runs of each "
        "side in turn, each side pooled (run options default to the time gate's)",
    )
    parser.add_argument("run_args", nargs="*", help="run options (default: the CI settings)")
    args = parser.parse_args()
    if args.mode == "ab":
        return ab_mode(args)
    instructions = args.mode == "instructions"
    default_args = TIME_GATE_SETTINGS if args.interleave else CI_SETTINGS
    run_args = args.run_args or (INSTRUCTION_SETTINGS if instructions else default_args)
    if instructions and args.label == "CI settings":
        args.label = "instructions"
    if not args.factors:
        args.factors = "1.005,1.01,1.02,1.05" if instructions else "1.1,1.2,1.3,1.5,2.0"
    settings_file = os.path.join(args.runs_dir, "settings.txt") if args.runs_dir else None
    if settings_file and os.path.exists(settings_file):
        with open(settings_file) as f:
            run_args = f.read().split()
    compare_args = args.compare_args.split()
    factors = [float(f) for f in args.factors.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.runs_dir or scratch
        os.makedirs(workdir, exist_ok=True)
        if settings_file and not os.path.exists(settings_file):
            with open(settings_file, "w") as f:
                f.write(" ".join(run_args))
        runs = []
        for i in range(2 * args.pairs):
            path = os.path.join(workdir, f"run{i}.json")
            if os.path.exists(path):
                with open(path) as f:
                    runs.append(json.load(f))
                continue
            if args.interleave and i % 2 == 1:
                continue  # measured with its pair's first run
            print(f"run {i + 1}/{2 * args.pairs}: {' '.join(run_args)}", file=sys.stderr)
            if args.interleave:
                pair = (path, os.path.join(workdir, f"run{i + 1}.json"))
                runs.extend(measure_interleaved(pair, run_args, args.interleave))
            else:
                runs.append(measure(path, run_args))
        false_alarms = 0
        inconclusive = []
        caught = {f: 0 for f in factors}
        trials = 0
        for p in range(args.pairs):
            baseline, candidate = runs[2 * p], runs[2 * p + 1]
            baseline_path = os.path.join(workdir, f"run{2 * p}.json")
            flagged, code, unsure = flagged_rows(baseline_path, candidate, workdir, compare_args, args.mode)
            inconclusive.append(unsure)
            if code != 0:
                false_alarms += 1
                print(f"pair {p + 1}: false alarm: {sorted(flagged)}", file=sys.stderr)
            for codec, level in CELLS:
                trials += 1
                for factor in factors:
                    slower = slowed(candidate, codec, level, factor, args.mode)
                    flagged, _, _ = flagged_rows(baseline_path, slower, workdir, compare_args, args.mode)
                    key = (codec, SERVER_LIBRARY[codec], "fresh", level)
                    caught[factor] += key in flagged
    cells = ", ".join(f"{c} {l}" for c, l in CELLS)
    print(f"{args.label}: `{' '.join(run_args)}` {' '.join(compare_args)}".rstrip())
    print(f"cells tried: {cells}; {args.pairs} pairs of unmodified runs")
    print()
    change = "more instructions in one cell" if instructions else "slowdown of one cell"
    print(f"| {change} | flagged |")
    print("| --- | --- |")
    for factor in factors:
        print(f"| {factor}x | {caught[factor]} of {trials} |")
    print(f"| none (false alarms) | {false_alarms} of {args.pairs} pairs |")
    if not instructions:
        print(f"| none (inconclusive speeds per pair) | {', '.join(map(str, inconclusive))} |")


if __name__ == "__main__":
    main()
