#!/usr/bin/env bash
# The time gate between two builds on one machine: the code at BASE and the code here.
#
#   scripts/time-gate.sh BASE          BASE: a commit, e.g. origin/main or HEAD~1
#
# It runs `codecbench ab --baseline BASE's build` (docs/ab.md): every cell of the small
# payload's matrix measured by both builds in pairs of short batches, seconds apart, in
# turn, until each is decided against the threshold (and, the same, could see its aim,
# the threshold plus one point). A spell of the machine then weighs on
# both builds of a pair alike. A BASE from before the worker protocol (issue 46) cannot be
# driven so; it is measured the older way instead: 10 one-process runs of each build in
# turn, each side pooled (`codecbench pool`) and compared. Markdown goes to stdout; `ab`'s
# JSON and its page go to target/time-gate/ab.json and ab.html.
# Exit status: 0 clean, 1 a slower cell, a size drift, or a failed or missing cell;
# 2 bad input.
# CODECBENCH_TIME_ARGS replaces the measuring options (default: the small payload's whole
# matrix); CODECBENCH_THRESHOLD sets the threshold in percent (default: ab's 2, or 10 for
# the older way); CODECBENCH_ALTERNATIONS sets the older way's runs of each build (10).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/base-and-head.sh
source scripts/lib/base-and-head.sh

[[ $# -eq 1 ]] || { echo "usage: $0 BASE" >&2; exit 2; }
resolve_base "$1"
alternations=${CODECBENCH_ALTERNATIONS:-10}
[[ $alternations =~ ^[1-9][0-9]*$ ]] || {
  echo "codecbench: error: CODECBENCH_ALTERNATIONS=$alternations must be a whole number from 1" >&2
  exit 2
}

work=target/time-gate
build_base_and_head "$work" "$base"

# A build that speaks the worker protocol answers a job of version 0 with its own.
if echo '{"protocol":0}' | "$base_bin" time-worker 2> /dev/null | grep -q 'this build speaks'; then
  read -r -a ab_args <<< "${CODECBENCH_TIME_ARGS:---payload small}"
  echo "## Time: $(git rev-parse --short "$base") → $(git rev-parse --short HEAD), measured in pairs"
  echo
  status=0
  "$head_bin" ab --baseline "$base_bin" "${ab_args[@]}" \
    --threshold "${CODECBENCH_THRESHOLD:-2}" --format markdown --quiet \
    --export-json "$work/ab.json" --export-html "$work/ab.html" || status=$?
  exit "$status"
fi
threshold=${CODECBENCH_THRESHOLD:-10}
read -r -a run_args <<< "${CODECBENCH_TIME_ARGS:---payload small --iterations 3 --warmup 1}"
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
