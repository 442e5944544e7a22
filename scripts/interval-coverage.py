#!/usr/bin/env python3
"""How often `ab`'s 95% intervals leave out the true centre, on this machine's own ratios.

Reads `ab --export-json` reports of a build against itself. For each direction of each
cell, it takes the log ratios its verdict read, makes them symmetric about 0 (two copies
of one build are: either could have run first), and redraws 15 and 30 pairs from them
40 times each. For every draw it computes the signed-rank interval of the
Hodges-Lehmann estimate, the sign-test interval of the median, and the narrower of the
two (what `ab` reads, src/stats/paired.rs), and counts the intervals that leave out 0.

    scripts/interval-coverage.py run1.json [run2.json ...]
"""

import json
import math
import random
import sys

ALPHA = 0.05
DRAWS = 40
SIZES = (15, 30)


def signed_rank(logs):
    """(low, high) of the Hodges-Lehmann estimate's signed-rank interval, or None."""
    n = len(logs)
    most = n * (n + 1) // 2
    ways = [0.0] * (most + 1)
    ways[0] = 1.0
    for rank in range(1, n + 1):
        for total in range(most, rank - 1, -1):
            ways[total] += ways[total - rank]
    below, critical = 0.0, 0
    for total, count in enumerate(ways):
        below += count / 2**n
        if below > ALPHA / 2:
            break
        critical = total + 1
    if critical == 0:
        return None
    walsh = sorted((logs[i] + logs[j]) / 2 for i in range(n) for j in range(i, n))
    return walsh[critical - 1], walsh[len(walsh) - critical]


def sign_test(logs):
    """(low, high) of the median's sign-test interval, or None."""
    n = len(logs)
    ordered = sorted(logs)
    below, critical = 0.0, 0
    for count in range(n):
        below += math.comb(n, count) / 2**n
        if below > ALPHA / 2:
            break
        critical = count + 1
    if critical == 0:
        return None
    return ordered[critical - 1], ordered[n - critical]


def basis_logs(direction):
    """The log ratios of the clock the verdict read."""
    ratios = direction["cpu_ratios"] if direction.get("basis") == "cpu" else direction["ratios"]
    return [math.log(r) for r in ratios]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rng = random.Random(1)
    misses = {"signed rank": 0, "sign test": 0, "narrower": 0}
    draws = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            report = json.load(f)
        for cell in report["cells"]:
            for name in ("compress", "decompress"):
                logs = basis_logs(cell[name])
                if len(logs) < 6:
                    continue
                population = logs + [-x for x in logs]
                for size in SIZES:
                    for _ in range(DRAWS):
                        drawn = [rng.choice(population) for _ in range(size)]
                        ranks, signs = signed_rank(drawn), sign_test(drawn)
                        narrower = min(ranks, signs, key=lambda i: i[1] - i[0])
                        draws += 1
                        for label, (low, high) in zip(misses, (ranks, signs, narrower)):
                            misses[label] += not low <= 0.0 <= high
    print(f"{draws} draws from {len(sys.argv) - 1} report(s); intervals that left out the centre:")
    for label, missed in misses.items():
        print(f"  {label}: {missed} ({100 * missed / draws:.1f}%)")


if __name__ == "__main__":
    main()
