#!/usr/bin/env bash
# Download throughput, same server, same run: HTTPImageLoader (queue + coalescing), a raw AsyncHTTPClient loop
# without our queue, and `curl --parallel --parallel-max 6`, over COUNT distinct SIZE-byte images, ROUNDS rounds.
#   Benchmarks/loader.sh            (env: COUNT=200 SIZE=100000 CONCURRENCY=6 ROUNDS=5)
# To keep other builds off the CPU while measuring, build first, then run under the build lock with SKIP_BUILD=1:
#   flock /tmp/swift-build.lock env SKIP_BUILD=1 Benchmarks/loader.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-200} SIZE=${SIZE:-100000} CONCURRENCY=${CONCURRENCY:-6} ROUNDS=${ROUNDS:-5}

if ! command -v curl >/dev/null; then apt-get update -qq && apt-get install -y -qq curl; fi
if [ -z "${SKIP_BUILD:-}" ]; then
    flock /tmp/swift-build.lock swift build -c release --scratch-path .build-release --product webimage-bench >&2
fi
BIN=.build-release/release/webimage-bench

WORK=$(mktemp -d)
"$BIN" loader serve --urls "$WORK/urls.txt" --count "$COUNT" --size "$SIZE" > "$WORK/server.log" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q '^ready' "$WORK/server.log" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$WORK/server.log" || { echo "server did not start" >&2; exit 1; }

# One curl process downloads every URL, at most CONCURRENCY transfers at once.
while read -r url; do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done < "$WORK/urls.txt" > "$WORK/curl.cfg"
run_curl() {
    local start end bytes
    start=$(date +%s.%N)
    bytes=$(curl --parallel --parallel-max "$CONCURRENCY" -s --no-progress-meter -f -K "$WORK/curl.cfg" -w '%{size_download}\n' \
        | awk '{ s += $1 } END { print s }')
    end=$(date +%s.%N)
    awk -v b="$bytes" -v s="$start" -v e="$end" -v n="$COUNT" 'BEGIN {
        t = e - s; printf "client=curl images=%d bytes=%d seconds=%.4f MB/s=%.1f images/s=%.1f\n", n, b, t, b / 1e6 / t, n / t }'
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, $COUNT images of $SIZE bytes, concurrency $CONCURRENCY, $ROUNDS rounds"
echo "# curl: $(curl --version | head -1)"
for round in $(seq "$ROUNDS"); do
    run_curl
    "$BIN" loader run --urls "$WORK/urls.txt" --client loader --concurrency "$CONCURRENCY" --rounds 1
    "$BIN" loader run --urls "$WORK/urls.txt" --client raw --concurrency "$CONCURRENCY" --rounds 1
done | tee "$WORK/results.txt"

echo "# medians"
for client in curl loader raw; do
    grep "client=$client " "$WORK/results.txt" | sed 's/.*MB\/s=\([0-9.]*\) images\/s=\([0-9.]*\)/\1 \2/' | sort -n \
        | awk -v c="$client" '{ m[NR] = $1; i[NR] = $2 } END { k = int((NR + 1) / 2); printf "%-6s median %.1f MB/s, %.1f images/s\n", c, m[k], i[k] }'
done
