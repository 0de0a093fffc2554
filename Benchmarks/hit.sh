#!/usr/bin/env bash
# The cache-hit path (issue 29): in one run, wrk at 64 connections against the same result bytes served by
#   - nginx, as a static file (the limit for serving bytes), access log on and off;
#   - a bare Hummingbird route answering them from a constant (`webimage-bench constant-server`: the framework's
#     ceiling);
#   - `webimage serve` from its memory tier, from its disk tier (`--memory-cache-size 0`), and a conditional request
#     whose `If-None-Match` matches (304), each with the request log on (`info`, to a file) and off
#     (`--log-level warn`).
# Reports requests/s, p50 and p99 for each, and the ratios the issue sets targets for. Every configuration is
# measured REPS times in each round, the passes interleaved and each starting further along the list, and every row
# is the median of its runs, so that a machine that slows down or speeds up during a round (a neighbour on the host)
# moves every side of a ratio alike.
#
# It builds with SwiftPM, so run it under the shared build lock, which also keeps other builds from skewing it:
#   flock /tmp/swift-build.lock Benchmarks/hit.sh [BENCH_DIR]      (default ../shared/bench)
# Environment: DURATION (seconds per wrk run, default 15), ROUNDS (default 1), REPS (runs of each configuration in a
# round, default 3), CONNECTIONS (default 64).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=$(realpath "${1:-../shared/bench}")
PHOTO=2569067123_aca715a2ee_o.jpg
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-1}
REPS=${REPS:-3}
CONNECTIONS=${CONNECTIONS:-64}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }
swift build -c release --scratch-path .build-release --product webimage >/dev/null
swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null
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

mkdir -p "$WORK/origin" "$WORK/www" "$WORK/logs"
chmod 755 "$WORK" "$WORK/www"  # nginx's workers run as an unprivileged user
cp "$BENCH_DIR/$PHOTO" "$WORK/origin/photo.jpg"
# The origin: Python's static file server with an ETag (its own sends none), as the server's ETag is the origin's, as
# imgproxy's is: the 304 rows need one.
python3 - 18110 "$WORK/origin" >/dev/null 2>&1 <<'PY' &
import functools, http.server, os, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        path = self.translate_path(self.path)
        if os.path.isfile(path):
            info = os.stat(path)
            self.send_header("ETag", '"%x-%x"' % (info.st_mtime_ns, info.st_size))
        super().end_headers()
handler = functools.partial(Handler, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
PY
PIDS+=($!)
ORIGIN=http://127.0.0.1:18110
# A result of about 10 KB, as behind a CDN most are.
RESULT_PATH="/insecure/rs:fill:300:245/q:80/plain/$ORIGIN/photo.jpg@jpg"

# serve NAME PORT ARGS...: webimage serve with its own cache directory, its log in $WORK/logs/NAME.log.
serve() {
    local name=$1 port=$2
    shift 2
    "$BIN/webimage" serve --port "$port" --cache-dir "$WORK/cache-$name" --allow-loopback-sources "$@" \
        >/dev/null 2>"$WORK/logs/$name.log" &
    PIDS+=($!)
    wait_for "http://127.0.0.1:$port/health"
    curl -sf -o /dev/null "http://127.0.0.1:$port$RESULT_PATH"
}
serve memory-log 18111
serve memory-quiet 18112 --log-level warn
serve disk-log 18113 --memory-cache-size 0
serve disk-quiet 18114 --memory-cache-size 0 --log-level warn
curl -sf -D "$WORK/headers" -o "$WORK/www/hit.jpg" "http://127.0.0.1:18111$RESULT_PATH"
ETAG=$(awk 'tolower($1) == "etag:" {print $2}' "$WORK/headers" | tr -d '\r')
[ -n "$ETAG" ] || { echo "the result carries no ETag" >&2; exit 1; }

# nginx: as many workers as cores, one access log line per request written to a file (or none), keep-alive
# connections never closed by a request count (wrk's are long-lived, as a CDN's are).
cat >"$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/logs/nginx-error.log;
events { worker_connections 1024; }
http {
    types { image/jpeg jpg; }
    keepalive_requests 1000000;
    sendfile on;
    server { listen 127.0.0.1:18115; root $WORK/www; access_log $WORK/logs/nginx-access.log; }
    server { listen 127.0.0.1:18116; root $WORK/www; access_log off; }
}
CONF
nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
PIDS+=($!)
"$BIN/webimage-bench" constant-server "$WORK/www/hit.jpg" 18117 >/dev/null 2>&1 &
PIDS+=($!)
wait_for http://127.0.0.1:18115/hit.jpg
wait_for http://127.0.0.1:18117/health

echo "# cache hits: a $(stat -c %s "$WORK/www/hit.jpg")-byte JPEG, wrk -t2 -c$CONNECTIONS -d${DURATION}s, $(nproc) cores"
echo "# each row: the median of $REPS runs (requests/s min-max beside it), the runs of a round interleaved"

# NAME|URL|HEADER of each configuration, measured in this order in a round's first pass.
CONFIGS=(
    "nginx, log|http://127.0.0.1:18115/hit.jpg|"
    "nginx, no log|http://127.0.0.1:18116/hit.jpg|"
    "bare Hummingbird route|http://127.0.0.1:18117/hit.jpg|"
    "memory hit, log|http://127.0.0.1:18111$RESULT_PATH|"
    "memory hit, no log|http://127.0.0.1:18112$RESULT_PATH|"
    "304, log|http://127.0.0.1:18111$RESULT_PATH|If-None-Match: $ETAG"
    "304, no log|http://127.0.0.1:18112$RESULT_PATH|If-None-Match: $ETAG"
    "disk hit, log|http://127.0.0.1:18113$RESULT_PATH|"
    "disk hit, no log|http://127.0.0.1:18114$RESULT_PATH|"
)
declare -A RPS P99
for round in $(seq 1 "$ROUNDS"); do
    SAMPLE_RPS=() SAMPLE_P50=() SAMPLE_P99=() ERRORS=()
    # Each pass starts further along the list, so that no configuration always runs at the same point of a round:
    # a machine that slows down or speeds up meanwhile (a neighbour on the host) moves every row alike.
    for pass in $(seq 0 $((REPS - 1))); do
        for i in "${!CONFIGS[@]}"; do
            IFS='|' read -r name url header <<<"${CONFIGS[$(((i + pass * ${#CONFIGS[@]} / REPS) % ${#CONFIGS[@]}))]}"
            sample "$name" "$url" "$header"
        done
    done
    echo
    echo "## round $round"
    echo "| server | requests/s | (min-max) | p50 ms | p99 ms | errors |"
    echo "|---|---:|---:|---:|---:|---|"
    for config in "${CONFIGS[@]}"; do
        name=${config%%|*}
        # shellcheck disable=SC2086  # the samples are space-separated numbers
        RPS[$name]=$(median ${SAMPLE_RPS[$name]})
        # shellcheck disable=SC2086
        P99[$name]=$(median ${SAMPLE_P99[$name]})
        # shellcheck disable=SC2086
        printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "${RPS[$name]}" "$(spread ${SAMPLE_RPS[$name]})" \
            "$(median ${SAMPLE_P50[$name]})" "${P99[$name]}" "${ERRORS[$name]:-}"
    done
    echo
    echo "| ratio (target) | log | no log |"
    echo "|---|---:|---:|"
    echo "| memory hit / nginx, requests/s (>= 0.5) | $(ratio "${RPS[memory hit, log]}" "${RPS[nginx, log]}") | $(ratio "${RPS[memory hit, no log]}" "${RPS[nginx, no log]}") |"
    echo "| memory hit / nginx, p99 (<= 2) | $(ratio "${P99[memory hit, log]}" "${P99[nginx, log]}") | $(ratio "${P99[memory hit, no log]}" "${P99[nginx, no log]}") |"
    echo "| memory hit / bare route, requests/s (>= 0.8) | $(ratio "${RPS[memory hit, log]}" "${RPS[bare Hummingbird route]}") | $(ratio "${RPS[memory hit, no log]}" "${RPS[bare Hummingbird route]}") |"
    echo "| disk hit / memory hit, requests/s (>= 0.5) | $(ratio "${RPS[disk hit, log]}" "${RPS[memory hit, log]}") | $(ratio "${RPS[disk hit, no log]}" "${RPS[memory hit, no log]}") |"
    echo "| 304 / memory hit, requests/s (>= 1) | $(ratio "${RPS[304, log]}" "${RPS[memory hit, log]}") | $(ratio "${RPS[304, no log]}" "${RPS[memory hit, no log]}") |"
done
echo
echo "log lines written: webimage $(wc -l <"$WORK/logs/memory-log.log"), nginx $(wc -l <"$WORK/logs/nginx-access.log")"
