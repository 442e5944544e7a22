#!/usr/bin/env bash
# The bad-input and fault matrix, run against the release binary: one line per case,
# PASS or FAIL. Every case is bounded in time (timeout) and talks to loopback only.
#
#   scripts/soak.sh            every case, with 30 HTTP runs in a row
#   HTTP_RUNS=5 scripts/soak.sh
#
# Exit status: 0 when every case passes, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet || exit 2
bin=$PWD/target/release/codecbench
work=$(mktemp -d)
trap 'rm -rf "$work"; [[ -n ${busy:-} ]] && kill "$busy" 2>/dev/null' EXIT
http_runs=${HTTP_RUNS:-30}
failures=0
quick=(--codecs zstd --zstd-levels 1 --iterations 3 --quiet --format csv)

# case NAME COMMAND...: runs COMMAND (a shell function) and prints PASS or FAIL.
case_() {
  local name=$1
  shift
  if "$@" >"$work/out" 2>"$work/err"; then
    printf 'PASS  %s\n' "$name"
  else
    printf 'FAIL  %s (%s)\n' "$name" "$(head -c 200 "$work/err" | tr '\n' ' ')"
    failures=$((failures + 1))
  fi
}

# exits CODE COMMAND...: COMMAND exits with CODE within 60 s.
exits() {
  local want=$1
  shift
  timeout 60 "$@" >/dev/null 2>"$work/err.inner"
  local got=$?
  [[ $got == "$want" ]] || { echo "exit $got, wanted $want: $(cat "$work/err.inner")" >&2; return 1; }
}

echo '{"a": [1, 2, 3]}' >"$work/b.json"
cp tests/fixtures/base.json "$work/run.json"
mkdir -p "$work/dir" && cp "$work/b.json" "$work/dir/one.json"

output_is_input() {
  exits 2 "$bin" run --payload "$work/b.json" --json "$work/b.json" "${quick[@]}" &&
    grep -q '"a"' "$work/b.json"
}
output_inside_payload_dir() {
  exits 2 "$bin" run --payload "$work/dir" --json "$work/dir/out.json" "${quick[@]}" &&
    [[ ! -e $work/dir/out.json ]]
}
plot_over_its_run() { exits 2 "$bin" plot "$work/run.json" -o "$work/run.json" && cmp -s "$work/run.json" tests/fixtures/base.json; }
reproduce_over_its_run() { exits 2 "$bin" reproduce --from "$work/run.json" --out "$work/run.json"; }
symlink_followed() {
  echo old >"$work/target.json" && ln -sf "$work/target.json" "$work/link.json" &&
    exits 0 "$bin" run --payload single --json "$work/link.json" "${quick[@]}" &&
    [[ -L $work/link.json ]] && grep -q schema_version "$work/target.json"
}
device_written_through() { exits 0 "$bin" run --payload single --json /dev/null "${quick[@]}" && [[ -c /dev/null ]]; }
broken_pipe() {
  "$bin" run --payload small --codecs zstd,gzip --zstd-levels 1..6 --iterations 20 --quiet \
    --processes 1 --format csv --json "$work/pipe.json" | head -1 >/dev/null
  [[ ${PIPESTATUS[0]} == 0 ]] && grep -q '"interrupted": true' "$work/pipe.json"
}
huge_level_range() { exits 2 "$bin" run --brotli-levels 0..100000000; }
huge_rounds() { exits 2 "$bin" run --iterations 1 --rounds 4294967295; }
tiny_bandwidth() { exits 2 "$bin" http --bandwidth 1e-300; }
throttled_past_duration() {
  local start=$SECONDS
  exits 1 "$bin" http --payload small --encodings identity --bandwidth 0.01 --duration 2 &&
    ((SECONDS - start < 15))
}
negative_size_in_csv() {
  "$bin" run --payload single "${quick[@]}" >"$work/r.csv" &&
    sed -i '2s/,241,/,-5,/' "$work/r.csv" &&
    exits 2 "$bin" compare "$work/r.csv" "$work/r.csv"
}
zero_median_in_json() {
  python3 - "$work/run.json" "$work/zero.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["payloads"][0]["cells"][0]["compress"]["median_s"] = 0
json.dump(run, open(sys.argv[2], "w"))
PY
  exits 2 "$bin" compare "$work/run.json" "$work/zero.json"
}
codec_named_twice() {
  "$bin" run --payload single --codecs gzip,zstd,gzip --zstd-levels 1 --gzip-levels 1 \
    --iterations 3 --quiet --format csv | tail -n +2 | cut -d, -f3 | tr '\n' ' ' | grep -qx 'gzip zstd '
}
recommend_all_failed() {
  CODECBENCH_TEST_CORRUPT=gzip "$bin" run --payload single --codecs gzip --iterations 3 \
    --quiet --format csv --json "$work/failed.json" >/dev/null 2>&1
  exits 2 "$bin" recommend --from "$work/failed.json"
}
sigterm_at_once() {
  "$bin" run --payload large --quiet --format csv >/dev/null 2>&1 &
  local pid=$!
  sleep 0.05
  kill -TERM "$pid"
  wait "$pid"
  [[ $? == 143 ]]
}
sigint_during_http() {
  "$bin" http --payload small --duration 5 --json "$work/h.json" >/dev/null 2>&1 &
  local pid=$!
  sleep 2
  kill -INT "$pid"
  wait "$pid"
  local code=$?
  [[ $code == 130 ]] && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/h.json"
}
http_in_a_row() {
  local i
  for ((i = 1; i <= http_runs; i++)); do
    exits 0 "$bin" http --payload small --duration 1 || { echo "run $i" >&2; return 1; }
  done
}
http_64_connections() { exits 0 "$bin" http --payload small --duration 1 --concurrency 64; }

# peak_under MB COMMAND...: COMMAND's exit status, failing past MB of peak resident memory.
peak_under() {
  local mb=$1
  shift
  /usr/bin/time -f %M -o "$work/peak" "$@"
  local code=$?
  local kb
  kb=$(tail -1 "$work/peak")
  ((kb < mb * 1024)) || { echo "peak $((kb / 1024)) MB" >&2; return 1; }
  return "$code"
}
# serve_python DIR HANDLER: a Python HTTP server on a free loopback port; sets $port, $server.
serve_python() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  python3 - "$1" "$port" "$2" >/dev/null 2>&1 <<'PY' &
import http.server, os, sys, zlib
root, port, handler = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.chdir(root)
class Bomb(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        accept = self.headers.get("Accept-Encoding", "")
        if accept == "identity":
            body, coding = b"a" * 1000, None
        else:
            body, coding = open("bomb.gz", "rb").read(), "gzip"
        self.send_response(200)
        if coding:
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
cls = Bomb if handler == "bomb" else http.server.SimpleHTTPRequestHandler
http.server.ThreadingHTTPServer(("127.0.0.1", port), cls).serve_forever()
PY
  server=$!
  sleep 1
}
# python3 -m http.server answers HTTP/1.0 and closes each connection.
probe_python_http_server() {
  echo '{"a": 1}' >"$work/dir/page.json"
  serve_python "$work/dir" plain
  exits 0 "$bin" probe "http://127.0.0.1:$port/page.json" --requests 20
  local code=$?
  kill "$server"
  return "$code"
}
# A gzip body that decodes to 10 GiB: stopped past the 1,000-byte identity body.
probe_10_gib_gzip_bomb() {
  python3 -c '
import sys, zlib
z = zlib.compressobj(9, zlib.DEFLATED, 31)
zeros = bytes(1 << 20)
with open(sys.argv[1], "wb") as out:
    for _ in range(10 << 10):
        out.write(z.compress(zeros))
    out.write(z.flush())' "$work/dir/bomb.gz"
  serve_python "$work/dir" bomb
  peak_under 300 timeout 60 "$bin" probe "http://127.0.0.1:$port/" --requests 2 --quiet
  local code=$?
  kill "$server"
  rm -f "$work/dir/bomb.gz"
  [[ $code == 1 ]]
}
# compare of a million CSV rows against itself, within a minute.
compare_a_million_rows() {
  python3 - results/reference.csv "$work/million.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(rows[0])
    for i in range(10102):
        for r in rows[1:]:
            w.writerow([f"{r[0]}-{i}"] + r[1:])
PY
  exits 0 "$bin" compare "$work/million.csv" "$work/million.csv"
}

case_ "an output equal to its input is refused, the input kept" output_is_input
case_ "an output inside a payload directory is refused" output_inside_payload_dir
case_ "plot -o X X is refused, X kept" plot_over_its_run
case_ "reproduce --from X --out X is refused" reproduce_over_its_run
case_ "a symlinked output is followed, the link kept" symlink_followed
case_ "--json /dev/null is written through, the device kept" device_written_through
case_ "| head -1: exit 0, the JSON complete and interrupted" broken_pipe
case_ "--brotli-levels 0..100000000 refused at once" huge_level_range
case_ "--rounds 4294967295 refused at once" huge_rounds
case_ "http --bandwidth 1e-300 refused" tiny_bandwidth
case_ "http --bandwidth 0.01 --duration 2 ends, exit 1" throttled_past_duration
case_ "compare: compressed_bytes -5 in CSV is exit 2" negative_size_in_csv
case_ "compare: a median of 0 in JSON is exit 2" zero_median_in_json
case_ "--codecs gzip,zstd,gzip measures gzip once" codec_named_twice
case_ "recommend on a run whose cells all failed is exit 2" recommend_all_failed
case_ "SIGTERM 50 ms after start exits 143" sigterm_at_once
case_ "SIGINT during http exits 130, the JSON valid" sigint_during_http
case_ "$http_runs runs of http --payload small --duration 1 in a row" http_in_a_row
case_ "http --concurrency 64" http_64_connections
case_ "probe python3 -m http.server (HTTP/1.0, a connection a request)" probe_python_http_server
case_ "probe a 10 GiB gzip bomb: exit 1, under 300 MB" probe_10_gib_gzip_bomb
case_ "compare 1,000,098 CSV rows against themselves within 60 s" compare_a_million_rows
# The same two with one core kept busy.
(while :; do :; done) &
busy=$!
case_ "$http_runs runs of http --duration 1, one core busy" http_in_a_row
case_ "http --concurrency 64, one core busy" http_64_connections
kill "$busy" 2>/dev/null
busy=

echo "$((24 - failures)) passed, $failures failed"
((failures == 0))
