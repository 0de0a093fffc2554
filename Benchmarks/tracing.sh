#!/usr/bin/env bash
# What tracing costs `webimage serve` (issue 26), in one run: the same requests with tracing off (no endpoint: nothing
# bootstrapped) and on (`--otel-endpoint` to nginx answering 200 to every OTLP export, every span sampled):
#   - memory hits of one result (wrk, CONNECTIONS connections): the path where a span's cost shows most;
#   - misses: the result cache off (`--no-result-cache`), so each request fetches its original from the disk cache
#     and makes sharp's thumbnail of the 2725x2225 benchmark JPEG (4 connections).
# Both servers run with `--log-level warn`. Off and on alternate twice per round, and each ratio uses the means.
#
# It builds with SwiftPM, so run it under the shared build lock, which also keeps other builds from skewing it:
#   flock /tmp/swift-build.lock Benchmarks/tracing.sh [BENCH_DIR]      (default ../shared/bench)
# Environment: DURATION (seconds per wrk run, default 10), ROUNDS (default 1), CONNECTIONS (default 64).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=$(realpath "${1:-../shared/bench}")
PHOTO=2569067123_aca715a2ee_o.jpg
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-1}
CONNECTIONS=${CONNECTIONS:-64}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }
swift build -c release --scratch-path .build-release --product webimage >/dev/null
BIN=$PWD/.build-release/release
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
source Benchmarks/wrk.sh

mkdir -p "$WORK/origin" "$WORK/logs"
cp "$BENCH_DIR/$PHOTO" "$WORK/origin/photo.jpg"
python3 -m http.server 18120 --bind 127.0.0.1 --directory "$WORK/origin" >/dev/null 2>&1 &
PIDS+=($!)
ORIGIN=http://127.0.0.1:18120
HIT_PATH="/insecure/rs:fill:300:245/q:80/plain/$ORIGIN/photo.jpg@jpg"
MISS_PATH="/insecure/rs:fit:720:588/q:80/plain/$ORIGIN/photo.jpg@jpg"

# The collector: nginx answering 200 to every export, counting them in its access log.
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/logs/nginx-error.log;
events { worker_connections 256; }
http {
    client_body_buffer_size 1m;
    server { listen 127.0.0.1:18125; access_log $WORK/logs/exports.log; location / { default_type application/x-protobuf; return 200 ""; } }
}
CONF
nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
PIDS+=($!)

# serve NAME PORT ARGS...: webimage serve with its own cache directory, warmed with both paths.
serve() {
    local name=$1 port=$2
    shift 2
    OTEL_TRACES_SAMPLER=always_on "$BIN/webimage" serve --port "$port" --cache-dir "$WORK/cache-$name" \
        --allow-loopback-sources --log-level warn "$@" >/dev/null 2>"$WORK/logs/$name.log" &
    PIDS+=($!)
    wait_for "http://127.0.0.1:$port/health"
    curl -sf -o /dev/null "http://127.0.0.1:$port$HIT_PATH"
    curl -sf -o /dev/null "http://127.0.0.1:$port$MISS_PATH"
}
serve off 18121
serve on 18122 --otel-endpoint http://127.0.0.1:18125
serve off-miss 18123 --no-result-cache
serve on-miss 18124 --no-result-cache --otel-endpoint http://127.0.0.1:18125

echo "# tracing off and on: memory hits (-c$CONNECTIONS) and misses (-c4), wrk -t2 -d${DURATION}s, $(nproc) cores"
HITS=$CONNECTIONS
for round in $(seq 1 "$ROUNDS"); do
    echo
    echo "## round $round"
    echo "| server | requests/s | p50 | p99 | errors |"
    echo "|---|---:|---:|---:|---|"
    for pass in 1 2; do
        CONNECTIONS=$HITS
        measure "memory hit, tracing off ($pass)" "http://127.0.0.1:18121$HIT_PATH"
        measure "memory hit, tracing on ($pass)" "http://127.0.0.1:18122$HIT_PATH"
        CONNECTIONS=4
        measure "miss, tracing off ($pass)" "http://127.0.0.1:18123$MISS_PATH"
        measure "miss, tracing on ($pass)" "http://127.0.0.1:18124$MISS_PATH"
    done
    mean() { awk -v a="${RPS[$1 (1)]}" -v b="${RPS[$1 (2)]}" 'BEGIN { print (a + b) / 2 }'; }
    echo
    echo "| on / off, requests/s | ratio |"
    echo "|---|---:|"
    echo "| memory hit | $(ratio "$(mean "memory hit, tracing on")" "$(mean "memory hit, tracing off")") |"
    echo "| miss | $(ratio "$(mean "miss, tracing on")" "$(mean "miss, tracing off")") |"
done
echo
echo "OTLP exports received: $(wc -l <"$WORK/logs/exports.log")"
