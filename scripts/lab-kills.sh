#!/usr/bin/env bash
# Kills `codecbench lab` with SIGKILL, its whole process group at once (as a CI job's
# timeout does), at a random moment from 0 to MAX_MS after it starts, KILLS times, each
# server in turn. After each kill it waits up to 3 s for every server started from the
# lab's TMPDIR to be gone; at the end one more lab starts, which must remove every
# directory the killed ones left. Prints a line per kill and the totals.
#
#   scripts/lab-kills.sh [KILLS] [MAX_MS]      # default 100 and 5000
#   CODECBENCH_BIN=target/release/codecbench scripts/lab-kills.sh
set -uo pipefail
cd "$(dirname "$0")/.."

kills=${1:-100}
max_ms=${2:-5000}
bin=${CODECBENCH_BIN:-target/release/codecbench}
[ -x "$bin" ] || cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
servers=(nginx apache caddy express)

# Server processes (not zombies) whose command line names the lab's TMPDIR.
running() {
    local found=0
    for dir in /proc/[0-9]*; do
        grep -qs -- "$tmp" "$dir/cmdline" || continue
        grep -qs '^State:.*Z' "$dir/status" && continue
        found=$((found + 1))
    done
    echo "$found"
}

outlived=0
for ((i = 0; i < kills; i++)); do
    server=${servers[i % ${#servers[@]}]}
    moment=$((RANDOM * 32768 + RANDOM))
    moment=$((moment % (max_ms + 1)))
    # A lab of several seconds: the small payload at br 5 and gzip 6, 100 batches.
    TMPDIR=$tmp setsid "$bin" lab --servers "$server" --payload small --brotli-levels 5 \
        --gzip-levels 6 --batches 100 --requests 3 --cuts none --quiet >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((moment / 1000)) $((moment % 1000)))"
    kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    left=0
    for _ in $(seq 30); do
        left=$(running)
        [ "$left" -eq 0 ] && break
        sleep 0.1
    done
    [ "$left" -eq 0 ] || outlived=$((outlived + 1))
    printf 'kill %3d: %-7s at %4d ms: %d server processes left after 3 s\n' \
        $((i + 1)) "$server" "$moment" "$left"
done

dirs_before=$(find "$tmp" -maxdepth 1 -name 'codecbench-lab-*' | wc -l)
TMPDIR=$tmp "$bin" lab --servers nginx --payload single --batches 6 --requests 1 \
    --cuts none --quiet >/dev/null 2>&1
dirs_after=$(find "$tmp" -maxdepth 1 -name 'codecbench-lab-*' | wc -l)
echo "kills: $kills, each server in turn, at 0 to $max_ms ms"
echo "kills after which a server still ran 3 s later: $outlived"
echo "lab directories left by the killed labs: $dirs_before; after the next lab started: $dirs_after"
echo "server processes running from the lab's TMPDIR at the end: $(running)"
[ "$outlived" -eq 0 ] && [ "$dirs_after" -eq 0 ]
