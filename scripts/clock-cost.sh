#!/bin/sh
# What reading the wall clock and the thread's CPU clock costs here, and their ticks
# (issue 61: CPU time beside wall time in the timed loop). Needs rustc; builds into a
# temporary directory.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rustc -O --edition 2021 -o "$dir/clock-cost" "$(dirname "$0")/lib/clock_cost.rs"
"$dir/clock-cost"
