#!/usr/bin/env bash
# Compare codecbench runs with the committed reference runs, as CI does.
#
#   scripts/ci-compare.sh                    run the quick matrix here, then merge and compare it
#   scripts/ci-compare.sh RUN.json...        merge and compare existing runs
#   scripts/ci-compare.sh --run-only OUT     only run the quick matrix: JSON to OUT, and the
#                                            HTTP run's JSON to OUT with -http before .json
#
# Markdown goes to stdout (CI appends it to the job summary); progress goes to stderr.
# Each run is compared with the reference of its kind: `run` results with
# results/ci-small.json (the quick matrix's own settings, measured on this project's VM),
# `http` results with results/http-small-10mbit.json. results/reference.json (all three
# payloads, the article's iteration counts) is merged beside them for context.
# Exit status: 0 all clean, 1 a size drift or speed regression, 2 bad input.
# CODECBENCH_THRESHOLD sets compare's --threshold in percent (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."

reference=results/ci-small.json
full_reference=results/reference.json
http_reference=results/http-small-10mbit.json
threshold=${CODECBENCH_THRESHOLD:-10}
# The quick matrix: the small payload, every default setting, 30 iterations spread over 10
# processes, so that a cell slowed for a whole process does not fail the gate
# (docs/compare-and-merge.md, "How well it gates").
quick=(--payload small --iterations 30 --warmup 1 --processes 10)
# The HTTP check: the reference's load (one connection at 10 Mbit/s, where transfer time
# dominates and latencies are steady), with fewer requests; about ten seconds.
quick_http=(--payload small --bandwidth 10 --requests 20)

cargo build --release --locked --quiet
bin=target/release/codecbench

# Runs the quick matrix into $1 and the HTTP check into $1 with -http before .json.
run_quick() {
  "$bin" run "${quick[@]}" --json "$1" --format markdown
  echo
  "$bin" http "${quick_http[@]}" --json "${1%.json}-http.json" --format markdown
}

# The reference for a saved run: the HTTP one for `http --json` documents.
reference_for() {
  if grep -q '"kind": "http"' "$1"; then echo "$http_reference"; else echo "$reference"; fi
}

if [[ ${1:-} == --run-only ]]; then
  [[ $# -eq 2 && $2 == *.json ]] || { echo "usage: $0 --run-only OUT.json" >&2; exit 2; }
  run_quick "$2"
  exit 0
fi

runs=("$@")
if [[ ${#runs[@]} -eq 0 ]]; then
  mkdir -p target/ci-compare
  runs=(target/ci-compare/local.json target/ci-compare/local-http.json)
  run_quick "${runs[0]}" > /dev/null
fi

echo "## codecbench across machines"
echo
"$bin" merge "$full_reference" "$http_reference" "${runs[@]}" --format markdown
status=0
for run in "${runs[@]}"; do
  [[ -f $run ]] || { echo "codecbench: error: no such run: $run" >&2; exit 2; }
  against=$(reference_for "$run")
  echo
  echo "### $(basename "$run") against $(basename "$against")"
  echo
  code=0
  "$bin" compare "$against" "$run" --threshold "$threshold" --format markdown || code=$?
  if (( code > status )); then status=$code; fi
done
exit "$status"
