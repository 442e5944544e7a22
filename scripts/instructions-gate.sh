#!/usr/bin/env bash
# The instruction gate: counts every cell's instructions (under valgrind's callgrind) with
# the code at BASE and with the code here, on this machine, and compares them exactly.
#
#   scripts/instructions-gate.sh BASE          BASE: a commit, e.g. origin/main or HEAD~1
#
# Both builds run on the same machine because counts hang on the CPU too: libzstd and
# glibc's memcpy pick their code by CPU features, so a count from another machine is
# another count. Markdown goes to stdout (CI appends it to the job summary).
# Exit status: 0 clean, 1 a cell with more than CODECBENCH_INSTRUCTIONS_THRESHOLD percent
# (default 1) more instructions per byte, or a size drift; 2 bad input.
# CODECBENCH_INSTRUCTIONS_ARGS replaces the run options (default: the small payload's
# whole matrix, about 4 minutes a build on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/base-and-head.sh
source scripts/lib/base-and-head.sh

[[ $# -eq 1 ]] || { echo "usage: $0 BASE" >&2; exit 2; }
resolve_base "$1"
threshold=${CODECBENCH_INSTRUCTIONS_THRESHOLD:-1}
read -r -a run_args <<< "${CODECBENCH_INSTRUCTIONS_ARGS:---payload small}"
command -v valgrind > /dev/null || {
  echo "codecbench: error: the instruction gate needs valgrind (apt-get install valgrind)" >&2
  exit 2
}

work=target/instructions-gate
build_base_and_head "$work" "$base"

count() { # BINARY OUT.json
  "$1" run "${run_args[@]}" --measure instructions --export-json "$2" --quiet > /dev/null
}
count "$base_bin" "$work/base.json"
count "$head_bin" "$work/head.json"

echo "## Instructions: $(git rev-parse --short "$base") → $(git rev-parse --short HEAD)"
echo
target/release/codecbench compare "$work/base.json" "$work/head.json" \
  --instructions-threshold "$threshold" --threshold 1000 --format markdown
