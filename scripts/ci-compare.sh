#!/usr/bin/env bash
# Compare codecbench runs with the committed reference, as CI does.
#
#   scripts/ci-compare.sh                    run the quick matrix here, then merge and compare it
#   scripts/ci-compare.sh RUN.json...        merge and compare existing runs
#   scripts/ci-compare.sh --run-only OUT     only run the quick matrix, JSON to OUT
#
# Markdown goes to stdout (CI appends it to the job summary); progress goes to stderr.
# Exit status: 0 all clean, 1 a size drift or speed regression, 2 bad input.
# CODECBENCH_THRESHOLD sets compare's --threshold in percent (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."

reference=results/reference.json
threshold=${CODECBENCH_THRESHOLD:-10}
# The quick matrix: the small payload, every default setting, enough iterations for a
# stable median in well under two minutes.
quick=(--payload small --iterations 15 --warmup 2)

cargo build --release --locked --quiet
bin=target/release/codecbench

run_quick() {
  "$bin" run "${quick[@]}" --json "$1" --format markdown
}

if [[ ${1:-} == --run-only ]]; then
  [[ $# -eq 2 ]] || { echo "usage: $0 --run-only OUT.json" >&2; exit 2; }
  run_quick "$2"
  exit 0
fi

runs=("$@")
if [[ ${#runs[@]} -eq 0 ]]; then
  mkdir -p target/ci-compare
  runs=(target/ci-compare/local.json)
  run_quick "${runs[0]}" > /dev/null
fi

echo "## codecbench across machines"
echo
"$bin" merge "$reference" "${runs[@]}" --format markdown
status=0
for run in "${runs[@]}"; do
  echo
  echo "### $(basename "$run") against $(basename "$reference")"
  echo
  code=0
  "$bin" compare "$reference" "$run" --threshold "$threshold" --format markdown || code=$?
  if (( code > status )); then status=$code; fi
done
exit "$status"
