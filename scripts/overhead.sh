#!/usr/bin/env bash
# Does codecbench's harness cost speed? Compares the compression MB/s codecbench reports
# on the large payload with a minimal loop over the same library (examples/direct_loop.rs:
# a fresh encoder per response, median of N), for zstd 1, brotli 1 (the C library) and
# gzip 1. The two alternate, REPEATS times each, each time reporting the median of
# ITERATIONS compressions. This machine has slow spells that move a whole repeat by up to
# 1.5x either way, so the verdict compares each side's fastest repeat (noise only ever
# slows a run down; harness overhead would slow every repeat); the medians of the repeats
# are shown beside it. Target: codecbench >= 0.95 x direct for each.
# Where the zstd CLI exists, `zstd -b1` is shown too, for scale (it reuses one context and
# knows the input size, so it is not the same work).
#
#   scripts/overhead.sh [ITERATIONS [REPEATS]]     defaults: 60 and 9
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=${1:-60}
repeats=${2:-9}
payload=payloads/large.json

cargo build --release --locked --quiet --bin codecbench --example direct_loop
bench=target/release/codecbench
direct=target/release/examples/direct_loop

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
best() { sort -g | tail -1; }

# codecbench's compress_mb_s for one codec at level 1.
codecbench_mb_s() {
  local codec=$1 extra=()
  [[ $codec == brotli ]] && extra=(--brotli-impl c)
  "$bench" run --payload "$payload" --codecs "$codec" "--$codec-levels" 1 "${extra[@]}" \
    --iterations "$iterations" --format csv --quiet 2> /dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "compress_mb_s") c = i; next }
             { print $c }'
}

status=0
printf '%-8s %26s %26s %12s\n' "" "codecbench MB/s" "direct loop MB/s" "ratio"
printf '%-8s %12s %13s %12s %13s %6s %5s\n' codec best median best median best median
for codec in zstd brotli gzip; do
  ours=() theirs=()
  for _ in $(seq "$repeats"); do
    ours+=("$(codecbench_mb_s "$codec")")
    theirs+=("$("$direct" "$codec" 1 "$payload" "$iterations")")
  done
  a_best=$(printf '%s\n' "${ours[@]}" | best)
  a_median=$(printf '%s\n' "${ours[@]}" | median)
  b_best=$(printf '%s\n' "${theirs[@]}" | best)
  b_median=$(printf '%s\n' "${theirs[@]}" | median)
  ratio=$(awk -v a="$a_best" -v b="$b_best" 'BEGIN { printf "%.3f", a / b }')
  ratio_median=$(awk -v a="$a_median" -v b="$b_median" 'BEGIN { printf "%.2f", a / b }')
  verdict=ok
  if awk -v r="$ratio" 'BEGIN { exit !(r < 0.95) }'; then verdict="BELOW 0.95"; status=1; fi
  printf '%-8s %12.1f %13.1f %12.1f %13.1f %6s %5s  %s\n' "$codec 1" \
    "$a_best" "$a_median" "$b_best" "$b_median" "$ratio" "$ratio_median" "$verdict"
done

if command -v zstd > /dev/null; then
  echo
  echo "for scale, $(zstd --version | head -1):"
  zstd -b1 -i3 "$payload" 2>&1 | tr '\r' '\n' | grep 'MB/s' | tail -1 | tr -s ' '
  echo "codecbench's zstd 1 above: fresh streaming encoder per response, size not pledged"
fi
exit "$status"
