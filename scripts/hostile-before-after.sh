#!/usr/bin/env bash
# Issue 44's cases against two builds of codecbench: exit code, wall time, peak memory
# and what came out. Usage: scripts/hostile-before-after.sh OLD_BINARY NEW_BINARY
# (e.g. a release build of 2a0c42f beside target/release/codecbench). Needs python3.
# Writes only under a temporary directory. Run as root for the planted-link case.
set -uo pipefail
old=$1 new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Inputs: a quick run of single at zstd 1, a quick recommend run of the test capture
# with a content type planted in it, and what the cases below make of them.
"$new" run --payload single --quick --quiet --codecs zstd --zstd-levels 1 \
    --export-json one.json >/dev/null
"$new" recommend --payload "$OLDPWD/tests/fixtures/capture.har" --quick --codecs gzip \
    --gzip-levels 1 --quiet --export-json har.json >/dev/null
python3 - <<'PY'
import json
run = json.load(open("har.json"))
p = next(p for p in run["payloads"] if p.get("content_type") == "application/json")
p["content_type"] = "application/json;\n}\nserver { listen 127.0.0.1:8081; location / { root /etc; autoindex on; } }\nhttp {"
json.dump(run, open("planted.json", "w"))
base = json.load(open("one.json"))
cell = base["payloads"][0]["cells"][0]
slow = json.loads(json.dumps(cell))
for d in ("compress", "decompress"):
    for k, v in slow[d].items():
        if isinstance(v, float): slow[d][k] = v * 10
        elif isinstance(v, list): slow[d][k] = [x * 10 for x in v]
base["payloads"][0]["cells"].append(slow)
json.dump(base, open("twice.json", "w"))
live = json.load(open("one.json"))
live["payloads"][0]["payload"] = "\x1b]0;owned\x07\x1b[2Jname"
json.dump(live, open("live.json", "w"))
many = json.load(open("one.json"))
c = many["payloads"][0]["cells"][0]
many["payloads"][0]["cells"] = [dict(c, level=-1 - i) for i in range(16500)]
json.dump(many, open("many.json", "w"))
e = '{"request":{"method":"GET","url":"https://x.example/a"},"response":{"status":200,"content":{"mimeType":"application/json","text":"{\\"a\\":1}"}}}'
open("tiny.har", "w").write('{"log":{"version":"1.2","entries":[' + ",".join([e] * 100000) + "]}}")
PY
echo '[{"id":1}]' >'=SUM(2,5)'
mkdir sparse && for i in $(seq -w 1 30); do truncate -s 200M "sparse/b$i.json"; done

# One row: CASE, then exit, seconds, peak MB and a note from CHECK on the output, for
# the binary in $bin (called $label); a command gets 60 s.
measure() {
    local case=$1 check=$2; shift 2
    /usr/bin/time -o stats.txt -f "%x %e %M" timeout 60 "$bin" "$@" >out.txt 2>err.txt
    read -r code seconds kb < <(grep -v '^Command' stats.txt | tail -1)
    printf '| %s | %s | %s | %s s | %s MB | %s |\n' "$case" "$label" "$code" "$seconds" \
        "$((kb / 1024))" "$(eval "$check" | tr -d '\n' | head -c 90)"
}

echo "| case | build | exit | time | peak | what came out |"
echo "|---|---|---:|---:|---:|---|"
for label in before after; do
    bin=$old
    [ "$label" = after ] && bin=$new
    measure "1 config" 'grep -c "autoindex on" out.txt | sed "s/^/autoindex lines: /"' \
        recommend --from planted.json --emit nginx
    measure "2 CSV" "grep -o \"'\\?=SUM(2,5)\" out.csv | head -1" \
        run --payload '=SUM(2,5)' --quick --quiet --codecs gzip --gzip-levels 1 --export-csv out.csv
    measure "6 sparse" 'cat err.txt' run --payload sparse --quick --quiet
    measure "6 HAR" 'cat err.txt' serve --payload tiny.har --port 0 --encodings identity
    measure "7 plot" 'echo "16,500 cells"' plot many.json -o many.svg
    for signal in INT TERM; do
        start=$(date +%s.%N)
        "$bin" plot many.json -o many.svg >/dev/null 2>&1 &
        sleep 1 && kill -"$signal" $!
        wait $! && code=0 || code=$?
        seconds=$(echo "$(date +%s.%N) - $start" | bc)
        printf '| 7 SIG%s | %s | %s | %.2f s | | sent at 1 s |\n' "$signal" "$label" "$code" "$seconds"
    done
    measure "8 terminal" 'grep -c "$(printf "\x1b")" out.txt | sed "s/^/lines with a raw ESC: /"' \
        merge live.json
    measure "9 twice" 'cat err.txt' compare one.json twice.json
    # 3: 300 clients that ask for the large payload and read none of it.
    python3 - "$bin" "$label" <<'PY'
import re, socket, subprocess, sys, time
binary, label = sys.argv[1], sys.argv[2]
serve = subprocess.Popen([binary, "serve", "--port", "0", "--payload", "large",
                          "--encodings", "identity"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
host, port = re.search(r"http://([\d.]+):(\d+)", serve.stdout.readline().decode()).groups()
def rss():
    status = open(f"/proc/{serve.pid}/status").read()
    return int(status.split("VmRSS:")[1].split()[0]) // 1024
started, clients = rss(), []
for _ in range(300):
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.connect((host, int(port)))
    client.sendall(b"GET /identity/large HTTP/1.1\r\nHost: x\r\n\r\n")
    clients.append(client)
time.sleep(3)
print(f"| 3 serve | {label} | | | {rss()} MB | {started} MB at start, then 300 clients that "
      "never read the 3 MB body |")
serve.kill()
PY
    if [ "$(id -u)" -eq 0 ]; then
        mkdir -p shared && chmod 1777 shared && echo mine >shared/victim && chmod 600 shared/victim
        ln -sfn "$work/shared/victim" shared/out.json && chown -h 65534:65534 shared/out.json
        measure "4 link" 'head -c 30 shared/victim | sed "s/^/victim now: /"' run --payload single \
            --quick --quiet --codecs zstd --zstd-levels 1 --export-json shared/out.json
    fi
done
