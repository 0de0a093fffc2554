# The servers of the cache-hit benchmarks (hit.sh, sched.sh), sourced from the repository's root: a Python origin
# with the benchmark photo, four `webimage serve` nodes (memory and disk tier, request log on and off) each holding the
# result, nginx serving the same bytes (access log on and off) and the bare Hummingbird route; CONFIGS lists them as
# NAME|URL|HEADER. Sets BENCH_DIR (from $1, default ../shared/bench), BIN, WORK (removed at exit), ETAG and PIDS.
BENCH_DIR=$(realpath "${1:-../shared/bench}")
PHOTO=2569067123_aca715a2ee_o.jpg
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
