#!/usr/bin/env bash
# The server under load (issue 15): wrk against `webimage serve` and against thumbor 7.8, both fetching from one local
# origin (python's http.server) in the same run. Task: sharp's (the 2725x2225 JPEG to 720x588, Lanczos3, JPEG
# quality 80), result caches off in both, originals cached in both (our disk cache; thumbor's file storage).
# Reports requests/s, p50, p99 and peak RSS at 8 and 64 connections; then a memory-cache hit at 64 connections; then
# 64 connections of distinct resizes of a 12-megapixel JPEG for 60 s (peak RSS, and RSS 10 s after), with
# `--malloc tuned` and `--malloc glibc`.
#
# It builds with SwiftPM, so run it under the shared build lock, which also keeps other builds from skewing it:
#   flock /tmp/swift-build.lock Benchmarks/server.sh [BENCH_DIR]      (default ../shared/bench)
# Environment: DURATION (seconds per wrk run, default 20), MALLOC (tuned or glibc, default tuned) for all but the
# 12 MP test, which runs with both; ONLY=slow-origin runs only the slow-origin case (below).
#
# The slow-origin case (issue 27): an origin that answers every request after 200 ms, 64 connections asking for
# distinct small sources. The CPU is nearly idle; what bounds the rate is how many downloads run at once, so it should
# reach 64 / 0.2 s = 320 requests/s (the target is 0.8x of that).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=$(realpath "${1:-../shared/bench}")
PHOTO=2569067123_aca715a2ee_o.jpg
DURATION=${DURATION:-20}
MALLOC=${MALLOC:-tuned}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
[ -x .venv-bench/bin/thumbor ] || { python3 -m venv .venv-bench && .venv-bench/bin/pip install -q "thumbor==7.8.0"; }
swift build -c release --scratch-path .build-release --product webimage >/dev/null
BIN=$PWD/.build-release/release
WORK=$(mktemp -d)
PIDS=()
# Children too (thumbor's worker processes): they would otherwise outlive the script and keep the build lock's file
# descriptor, and with it the lock.
cleanup() {
    for pid in "${PIDS[@]}"; do
        pkill -P "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# The origin: the bench photo and a 4000x3000 (12 MP) JPEG made from it.
mkdir -p "$WORK/origin"
cp "$BENCH_DIR/$PHOTO" "$WORK/origin/photo.jpg"
.venv-bench/bin/python -c 'from PIL import Image; import sys
Image.open(sys.argv[1]).resize((4000, 3000), Image.LANCZOS).save(sys.argv[2], quality=90)' \
    "$WORK/origin/photo.jpg" "$WORK/origin/12mp.jpg"
python3 -m http.server 18090 --bind 127.0.0.1 --directory "$WORK/origin" >/dev/null 2>&1 &
PIDS+=($!)
ORIGIN=http://127.0.0.1:18090

# The slow origin: a 64x64 JPEG for any path, each answer after 200 ms, one thread per request.
.venv-bench/bin/python -c 'from PIL import Image; import sys
Image.open(sys.argv[1]).resize((64, 64)).save(sys.argv[2], quality=85)' "$WORK/origin/photo.jpg" "$WORK/small.jpg"
cat >"$WORK/slow_origin.py" <<'PY'
import http.server, sys, time
body = open(sys.argv[1], "rb").read()
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(0.2)
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer.request_queue_size = 1024
http.server.ThreadingHTTPServer(("127.0.0.1", 18096), Slow).serve_forever()
PY
python3 "$WORK/slow_origin.py" "$WORK/small.jpg" &
PIDS+=($!)
SLOW_ORIGIN=http://127.0.0.1:18096

# Peak resident memory of a process and its children, sampled every 100 ms into FILE until the file PID.stop exists.
sample_rss() {
    local pid=$1 file=$2 peak=0
    while [ ! -e "$file.stop" ]; do
        local total=0
        for p in $pid $(pgrep -P "$pid" || true); do
            total=$((total + $(awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)))
        done
        [ "$total" -gt "$peak" ] && peak=$total
        echo "$peak" >"$file"
        sleep 0.1
    done
}
rss_now() {
    local total=0
    for p in $1 $(pgrep -P "$1" || true); do
        total=$((total + $(awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)))
    done
    echo $((total / 1024))
}

# wrk NAME PID CONNECTIONS URL [SCRIPT]: one line of results.
measure() {
    local name=$1 pid=$2 connections=$3 url=$4 script=${5:-} duration=${6:-$DURATION}
    rm -f "$WORK/rss" "$WORK/rss.stop"
    sample_rss "$pid" "$WORK/rss" &
    local sampler=$!
    local args=(-t 2 -c "$connections" -d "${duration}s" --timeout 30s --latency)
    [ -n "$script" ] && args+=(-s "$script")
    wrk "${args[@]}" "$url" >"$WORK/wrk.txt"
    touch "$WORK/rss.stop"
    wait "$sampler"
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
    errors=$(awk '/Non-2xx|Socket errors/ {printf "%s ", $0}' "$WORK/wrk.txt")
    printf '| %s | %s | %s | %s | %s | %s MiB | %s |\n' "$name" "$connections" "$rps" "$p50" "$p99" \
        "$(($(cat "$WORK/rss") / 1024))" "${errors:-}"
}

wait_for() { for _ in $(seq 1 200); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer: $1" >&2; exit 1; }

# distinct_script FILE PREFIX SUFFIX: a wrk script asking for PREFIX<thread>-<n>SUFFIX, a distinct path per request
# and wrk thread.
distinct_script() {
    cat >"$1" <<LUA
local threads = 0
setup = function(thread)
    threads = threads + 1
    thread:set("id", threads)
end
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", "$2" .. id .. "-" .. counter .. "$3")
end
LUA
}

slow_origin() {
    echo
    echo "## A slow origin (200 ms an answer), 64 connections, distinct small sources (target: 0.8 x 64 / 0.2 s = 256/s)"
    "$BIN/webimage" serve --port 18097 --cache-dir "$WORK/webimage-cache-slow" --allow-loopback-sources \
        --malloc "$MALLOC" >/dev/null 2>"$WORK/webimage-slow.log" &
    local slow=$!
    PIDS+=($slow)
    wait_for http://127.0.0.1:18097/health
    distinct_script "$WORK/slow.lua" "/insecure/rs:fit:32:32/plain/$SLOW_ORIGIN/" ".jpg@jpg"
    echo "| server | connections | requests/s | p50 | p99 | peak RSS | errors |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    measure "webimage, slow origin, distinct sources" $slow 64 http://127.0.0.1:18097 "$WORK/slow.lua"
    curl -s http://127.0.0.1:18097/metrics | grep -E '^webimage_origin_fetches_total' || true
    kill $slow
    wait $slow 2>/dev/null || true
}
slow_origin
[ "${ONLY:-}" = slow-origin ] && exit 0

# webimage serve: results not cached (originals on disk), defaults otherwise (workers = cores).
"$BIN/webimage" serve --port 18091 --cache-dir "$WORK/webimage-cache" --no-result-cache --allow-loopback-sources \
    --malloc "$MALLOC" >/dev/null 2>"$WORK/webimage.log" &
WEBIMAGE=$!
PIDS+=($WEBIMAGE)
# thumbor: two processes, file storage for originals, no result storage, PIL's Lanczos (its default for resizes).
cat >"$WORK/thumbor.conf" <<CONF
ALLOW_UNSAFE_URL = True
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$WORK/thumbor-storage'
RESULT_STORAGE = 'thumbor.result_storages.no_storage'
QUALITY = 80
AUTO_WEBP = False
PROGRESSIVE_JPEG = False
CONF
.venv-bench/bin/thumbor --port 18092 --ip 127.0.0.1 --conf "$WORK/thumbor.conf" --processes 2 -l error >/dev/null 2>&1 &
THUMBOR=$!
PIDS+=($THUMBOR)
OURS="http://127.0.0.1:18091/insecure/rs:fill:720:588/q:80/plain/$ORIGIN/photo.jpg@jpg"
THEIRS="http://127.0.0.1:18092/unsafe/720x588/$ORIGIN/photo.jpg"
wait_for http://127.0.0.1:18091/health
wait_for "$THEIRS"
curl -sf -o "$WORK/ours.jpg" "$OURS"
curl -sf -o "$WORK/theirs.jpg" "$THEIRS"
echo "results: ours $(stat -c %s "$WORK/ours.jpg") bytes, thumbor's $(stat -c %s "$WORK/theirs.jpg") bytes"
echo "idle RSS: webimage $(rss_now $WEBIMAGE) MiB, thumbor $(rss_now $THUMBOR) MiB"

# Distinct URLs (a cachebuster per request and wrk thread): identical concurrent requests share one processing run
# in our server, so the same URL from 8 or 64 connections measures that sharing, not the processing.
distinct_script "$WORK/distinct-task.lua" "/insecure/rs:fill:720:588/q:80/cb:" "/plain/$ORIGIN/photo.jpg@jpg"

echo
echo "## sharp's task, result cache off, originals cached (wrk -t2, ${DURATION}s)"
echo "| server | connections | requests/s | p50 | p99 | peak RSS | errors |"
echo "|---|---:|---:|---:|---:|---:|---|"
for connections in 8 64; do
    measure "webimage, distinct URLs" $WEBIMAGE "$connections" "http://127.0.0.1:18091" "$WORK/distinct-task.lua"
    measure "webimage, one URL (concurrent requests share runs)" $WEBIMAGE "$connections" "$OURS"
    measure thumbor $THUMBOR "$connections" "$THEIRS"
done
pkill -P $THUMBOR || true
kill $THUMBOR
kill $WEBIMAGE
wait $WEBIMAGE 2>/dev/null || true

echo
echo "## A memory-cache hit (result cache on), 64 connections"
"$BIN/webimage" serve --port 18093 --cache-dir "$WORK/webimage-cache-2" --allow-loopback-sources --malloc "$MALLOC" \
    >/dev/null 2>"$WORK/webimage-2.log" &
HITS=$!
PIDS+=($HITS)
wait_for http://127.0.0.1:18093/health
HIT="http://127.0.0.1:18093/insecure/rs:fill:720:588/q:80/plain/$ORIGIN/photo.jpg@jpg"
curl -sf -o /dev/null "$HIT"
echo "| server | connections | requests/s | p50 | p99 | peak RSS | errors |"
echo "|---|---:|---:|---:|---:|---:|---|"
measure "webimage, memory hit" $HITS 64 "$HIT"
kill $HITS
wait $HITS 2>/dev/null || true

cat >"$WORK/distinct.lua" <<LUA
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", "/insecure/rs:fit:" .. (1000 + counter % 2000) .. ":0/plain/$ORIGIN/12mp.jpg@jpg")
end
LUA
echo
echo "## 64 connections of distinct resizes (1000 to 2999 pixels wide) of a 12 MP JPEG for 60 s"
echo "| server | connections | requests/s | p50 | p99 | peak RSS | errors |"
echo "|---|---:|---:|---:|---:|---:|---|"
PORT=18094
for malloc in tuned glibc; do
    "$BIN/webimage" serve --port $PORT --cache-dir "$WORK/webimage-cache-$PORT" --no-result-cache \
        --allow-loopback-sources --malloc $malloc >/dev/null 2>"$WORK/webimage-$PORT.log" &
    BIG=$!
    PIDS+=($BIG)
    wait_for http://127.0.0.1:$PORT/health
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/insecure/w:100/plain/$ORIGIN/12mp.jpg@jpg"
    IDLE=$(rss_now $BIG)
    measure "webimage, 12 MP distinct, malloc $malloc" $BIG 64 http://127.0.0.1:$PORT "$WORK/distinct.lua" 60
    sleep 10
    echo "|  | RSS idle (after one request) $IDLE MiB, 10 s after the load $(rss_now $BIG) MiB | | | | | |"
    curl -s http://127.0.0.1:$PORT/metrics | grep -E '^webimage_(processing_runs_total|origin_fetches_total)' || true
    kill $BIG
    wait $BIG 2>/dev/null || true
    PORT=$((PORT + 1))
done
