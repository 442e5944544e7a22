#!/usr/bin/env python3
"""ASP.NET Core's bytes beside the article's: each setting measured in one write (the
article's method) and as the middleware feeds a serialized JSON body, for minimal APIs
and MVC on .NET 9 and later (one path) and for MVC on .NET 8
(`run --server aspnetcore --aspnetcore-writer minimal|mvc-net8`).

Sizes do not depend on timing, so the runs use --quick. Prints one Markdown table per
payload: bytes in one write, on each writer's wire, and the change in percent. Needs
only Python 3 and a release build (cargo build --release).

    scripts/aspnetcore-wire.py                          # single, small, large
    scripts/aspnetcore-wire.py --payloads small --codecs brotli
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

BINARY = os.path.join(os.path.dirname(__file__), "..", "target", "release", "codecbench")
# The libraries ASP.NET Core links, as the article's default cells use them.
SERVER_LIBRARIES = {"libzstd", "libbrotli", "zlib-rs"}


def sizes(csv_path):
    """{(codec, level): bytes} of the server libraries' cells in a run's CSV."""
    with open(csv_path, newline="") as f:
        return {
            (row["codec"], int(row["level"])): int(row["compressed_bytes"])
            for row in csv.DictReader(f)
            if row["library"] in SERVER_LIBRARIES and row["status"] == "ok"
        }


def measure(payload, codecs, extra, directory, name):
    path = os.path.join(directory, f"{name}-{payload}.csv")
    command = [BINARY, "run", "--quick", "--payload", payload, "--codecs", codecs]
    command += extra + ["--export-csv", path]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return sizes(path)


def change(new, old):
    return f"{100.0 * (new - old) / old:+.1f}%"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payloads", default="single,small,large")
    parser.add_argument("--codecs", default="zstd,brotli,gzip")
    args = parser.parse_args()
    if not os.path.exists(BINARY):
        sys.exit("aspnetcore-wire.py: build first: cargo build --release")
    with tempfile.TemporaryDirectory() as directory:
        for payload in args.payloads.split(","):
            one_write = measure(payload, args.codecs, ["--brotli-impl", "c"], directory, "one")
            wires = {
                writer: measure(
                    payload,
                    args.codecs,
                    ["--server", "aspnetcore", "--aspnetcore-writer", writer],
                    directory,
                    writer,
                )
                for writer in ("minimal", "mvc", "mvc-net8")
            }
            # MVC has taken the minimal APIs' path since .NET 9: one column for both.
            assert wires["minimal"] == wires["mvc"], f"{payload}: mvc differs from minimal"
            print(f"\n## {payload}\n")
            print("| setting | one write | minimal APIs and MVC | change | MVC on .NET 8 | change |")
            print("|---|---:|---:|---:|---:|---:|")
            for key in sorted(one_write, key=lambda k: (args.codecs.split(",").index(k[0]), k[1])):
                old = one_write[key]
                minimal, mvc = wires["minimal"][key], wires["mvc-net8"][key]
                print(
                    f"| {key[0]} {key[1]} | {old:,} | {minimal:,} | {change(minimal, old)}"
                    f" | {mvc:,} | {change(mvc, old)} |"
                )


if __name__ == "__main__":
    main()
