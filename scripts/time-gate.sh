#!/usr/bin/env bash
# The time gate between two builds on one machine: the code at BASE and the code here,
# measured in turn, one process of each after the other, then each side's runs pooled
# (`codecbench pool`) and compared.
#
#   scripts/time-gate.sh BASE          BASE: a commit, e.g. origin/main or HEAD~1
#
# Why in turn: on a shared machine a cell can run 10-20% slower for minutes (another
# tenant, most likely, filling the cache), long enough to cover a whole run. Two runs one
# after the other then differ by what the machine did, and compare must call that noise;
# alternating the builds puts both through the same minutes. Markdown goes to stdout.
# Exit status: 0 clean, 1 a regression, a size drift, or a failed or missing cell;
# 2 bad input.
# CODECBENCH_TIME_ARGS replaces each run's options (default: the small payload's whole
# matrix, 3 iterations after 1 warm-up); CODECBENCH_ALTERNATIONS sets how many runs of
# each build (default 10, about 5 minutes in all on 2 cores); CODECBENCH_THRESHOLD sets
# compare's --threshold in percent (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/base-and-head.sh
source scripts/lib/base-and-head.sh

[[ $# -eq 1 ]] || { echo "usage: $0 BASE" >&2; exit 2; }
resolve_base "$1"
threshold=${CODECBENCH_THRESHOLD:-10}
alternations=${CODECBENCH_ALTERNATIONS:-10}
read -r -a run_args <<< "${CODECBENCH_TIME_ARGS:---payload small --iterations 3 --warmup 1}"
[[ $alternations =~ ^[1-9][0-9]*$ ]] || {
  echo "codecbench: error: CODECBENCH_ALTERNATIONS=$alternations must be a whole number from 1" >&2
  exit 2
}

work=target/time-gate
build_base_and_head "$work" "$base"
declare -A binaries=([base]="$base_bin" [head]="$head_bin")

# Each run in one process, as the gate was measured: newer builds spread a fixed count
# of 6 or more over processes by default, older ones have no --processes at all.
declare -A side_args=([base]="" [head]="")
if [[ " ${run_args[*]} " != *" --processes"* ]]; then
  for side in base head; do
    if "${binaries[$side]}" run --help | grep -q -- '--processes'; then
      side_args[$side]="--processes 1"
    fi
  done
fi

# ABBA: base first in even turns, head first in odd ones, so a drift in time weighs on
# both alike.
for ((i = 0; i < alternations; i++)); do
  order=(base head)
  ((i % 2 == 0)) || order=(head base)
  for side in "${order[@]}"; do
    part=$(printf '%s/%s-%03d.json' "$work" "$side" "$i")
    # shellcheck disable=SC2086 # side_args is empty or one option and its value
    "${binaries[$side]}" run "${run_args[@]}" ${side_args[$side]} --quiet --export-json "$part" > /dev/null
  done
done
for side in base head; do
  target/release/codecbench pool "$work/$side"-*.json --export-json "$work/$side.json" --quiet > /dev/null
done

echo "## Time: $(git rev-parse --short "$base") → $(git rev-parse --short HEAD), $alternations runs of each in turn"
echo
target/release/codecbench compare "$work/base.json" "$work/head.json" \
  --threshold "$threshold" --format markdown
