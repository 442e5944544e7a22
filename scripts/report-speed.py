#!/usr/bin/env python3
"""How fast a `codecbench report` page becomes interactive in Chromium, at scale.

Writes synthetic runs of PAYLOADS x CELLS cells (15 samples a direction, as a
--iterations 15 run saves), makes each one's report with the built binary, and opens
it in headless Chromium from file:// several times. The page stamps
`data-ready-ms` on <html> when its script has attached every handler: milliseconds
since navigation began, by the page's own clock. Prints the file size, the time to
write the page, and the median and worst ready time.

Usage: scripts/report-speed.py [--binary target/release/codecbench] [--opens 5]
                               [--shape 10x99 --shape 100x100 ...]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from synthetic_run import run  # noqa: E402


def ready_ms(page):
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom", f"file://{page}"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    found = re.search(r'data-ready-ms="([0-9.]+)"', dom)
    if not found:
        sys.exit(f"{page}: the page never became interactive")
    return float(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/codecbench")
    parser.add_argument("--opens", type=int, default=5)
    parser.add_argument("--shape", action="append", help="PAYLOADSxCELLS")
    args = parser.parse_args()
    # The two: a matrix of 10 payloads, and 10,000 cells (100 bodies of a HAR
    # capture x 100 settings); then 10,000 cells on one body.
    shapes = args.shape or ["10x99", "100x100", "1x10000"]
    with tempfile.TemporaryDirectory() as dir:
        for shape in shapes:
            payloads, cells = (int(n) for n in shape.split("x"))
            saved = os.path.join(dir, f"{shape}.json")
            page = os.path.join(dir, f"{shape}.html")
            with open(saved, "w") as out:
                json.dump(run(payloads, cells), out)
            start = time.monotonic()
            subprocess.run([args.binary, "report", saved, "--out", page],
                           check=True, capture_output=True)
            written = time.monotonic() - start
            times = [ready_ms(page) for _ in range(args.opens)]
            print(
                f"{payloads} payloads x {cells} cells = {payloads * cells:,} cells: "
                f"{os.path.getsize(page) / 1e6:.2f} MB, written in {written:.2f} s; "
                f"interactive after {statistics.median(times):.0f} ms "
                f"(median of {len(times)}, worst {max(times):.0f} ms)"
            )


if __name__ == "__main__":
    main()
