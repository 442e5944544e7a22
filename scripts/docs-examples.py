#!/usr/bin/env python3
"""Re-runs every `$ codecbench ...` example in README.md and docs/*.md and compares what
it prints with what the docs show.

Timings differ from run to run, so lines are compared by their shape: every digit is
masked, and runs of spaces and box-drawing padding are folded. A block whose shape
differs is printed with both versions; sizes and ratios that the docs quote are checked
by the tests, not here.

Usage: cargo build --release && scripts/docs-examples.py [--only TEXT] [--show] [--write]
  --only TEXT   run only the examples whose command contains TEXT
  --show        print each fresh output in full
  --write       replace each block whose shape differs with the fresh output (review the
                diff: prose around a block may quote its figures)

Examples that need something this script does not make (a program not installed, a
server left running) are listed as skipped with the reason. Exit 1 if any shape differs.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "codecbench"


def examples():
    """(file, command, shown output) for every console block that runs codecbench."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text()
        for block in re.findall(r"```console\n(.*?)```", text, re.S):
            lines = block.rstrip("\n").split("\n")
            if not lines[0].startswith("$ codecbench"):
                continue
            command = lines[0][2:]
            rest = lines[1:]
            while command.endswith("\\") and rest:
                command = command[:-1] + rest[0].strip()
                rest = rest[1:]
            yield path.relative_to(ROOT), command, rest


def replace_block(path, shown, fresh):
    """Puts `fresh` where `shown` stood, below the block's command line."""
    text = path.read_text()
    old = "\n".join(shown) + "\n```"
    assert text.count(old) == 1, f"{path}: the block is not unique"
    path.write_text(text.replace(old, "\n".join(fresh) + "\n```"))


def shape(line):
    line = re.sub(r"\d", "#", line)
    line = re.sub(r"#[#.,]*", "#", line)
    line = re.sub(r"[─═┬┼┴╪╞╡┌┐└┘├┤]+", "-", line)
    return re.sub(r"\s+", " ", line).strip()


def prepare(workdir):
    """The files the examples name: the fixtures as baseline and candidate, with gzip 1
    made a byte smaller and 25% slower in the candidate, as docs/compare-and-merge.md
    describes; and a fresh 10 Mbit/s HTTP run as again.json."""
    import json

    for name in ["results", "tests"]:
        os.symlink(ROOT / name, workdir / name)
    base = json.loads((ROOT / "tests/fixtures/base.json").read_text())
    (workdir / "baseline.json").write_text(json.dumps(base))
    for payload in base["payloads"]:
        for cell in payload["cells"]:
            if cell["codec"] == "gzip" and cell["level"] == 1:
                cell["compressed_bytes"] -= 1
                cell["compress"]["samples_s"] = [s * 1.25 for s in cell["compress"]["samples_s"]]
                cell["compress"]["median_s"] *= 1.25
    (workdir / "candidate.json").write_text(json.dumps(base))


def run(command, workdir):
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", PATH=f"{BINARY.parent}:{os.environ['PATH']}")
    if " serve " in f" {command} ":
        # Runs until Ctrl-C: read what it prints on starting, then stop it.
        process = subprocess.Popen(command, shell=True, cwd=workdir, env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT)
        return process.communicate()[0]
    shell = f"{command} 2>&1" if "echo" not in command else command
    done = subprocess.run(shell, shell=True, cwd=workdir, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    return done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if not BINARY.exists():
        sys.exit("build first: cargo build --release")
    differing = 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        prepare(workdir)
        if any("again.json" in c for _, c, _ in examples()):
            run("codecbench http --payload small --bandwidth 10 --requests 50 --quiet "
                "--export-json again.json > /dev/null", workdir)
        for path, command, shown in examples():
            if args.only not in command:
                continue
            if "LZBENCH" in command and not shutil.which("lzbench"):
                print(f"skipped  {path}: {command}\n         (lzbench is not installed)")
                continue
            fresh = run(command, workdir).rstrip("\n").split("\n")
            if args.show:
                print("\n".join(fresh))
            elided = any(line.strip() == "…" for line in shown)
            if elided:
                missing = [l for l in shown if l.strip() != "…" and shape(l) not in {shape(f) for f in fresh}]
                same = not missing
            else:
                same = [shape(l) for l in shown] == [shape(l) for l in fresh]
            print(f"{'same    ' if same else 'DIFFERS '} {path}: {command}")
            if not same:
                differing += 1
                print("  shown:\n    " + "\n    ".join(shown))
                print("  now:\n    " + "\n    ".join(fresh))
                if args.write and not elided:
                    replace_block(ROOT / path, shown, fresh)
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
