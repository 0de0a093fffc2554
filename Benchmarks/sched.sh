#!/usr/bin/env bash
# Where a cache hit's time goes on this machine (issue 29): for nginx, the bare Hummingbird route and `webimage serve`'s
# hits, one clean wrk run counted with `perf stat` (CPU time and context switches of the whole machine, per request)
# and one run under `perf sched record` (how long each side's threads waited for a core after being woken, by
# `perf sched timehist`). On two cores the client and the server share the CPUs: a request's latency is its own CPU
# time plus the time its threads wait behind the others' work, and the second is what makes p99 a multiple of p50.
#
# Builds with SwiftPM and keeps the CPUs to itself, so run it under the shared build lock:
#   flock /tmp/swift-build.lock Benchmarks/sched.sh [BENCH_DIR]      (default ../shared/bench)
# Environment: DURATION (seconds per wrk run, default 8), CONNECTIONS (default 64).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-8}
CONNECTIONS=${CONNECTIONS:-64}
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null; }
source Benchmarks/hit-servers.sh
WINDOW=$((DURATION / 2))

# delays FILE: from `perf sched timehist`, each time a thread was put on a core its scheduling delay (from its wake-up
# to running): "p50 p99 max count" over the server's threads (nginx's workers, the NIO loops and the Swift pool of
# `webimage`) and "p50 p99 max" over wrk's.
delays() {
    perf sched timehist -i "$1" 2>/dev/null | awk '
        NF >= 6 && $2 ~ /^\[[0-9]+\]$/ {
            name = $3; sub(/\[.*/, "", name)
            if (name == "wrk") print "client", $(NF - 1)
            else if (name ~ /^(nginx|NIO-|webimage)/) print "server", $(NF - 1)
        }' | sort -k1,1 -k2,2g | awk '
        { v[$1, ++n[$1]] = $2 }
        function pct(side, q,   i) { i = int(n[side] * q); if (i < 1) i = 1; return v[side, i] + 0 }
        END {
            printf "%.3f %.3f %.2f %d %.3f %.3f %.2f\n", pct("server", 0.5), pct("server", 0.99), \
                v["server", n["server"]], n["server"], pct("client", 0.5), pct("client", 0.99), v["client", n["client"]]
        }'
}

echo "# cache hits: a $(stat -c %s "$WORK/www/hit.jpg")-byte JPEG, wrk -t2 -c$CONNECTIONS -d${DURATION}s, $(nproc) cores"
echo "# CPU and switches: perf stat -a over ${WINDOW}s of a clean run; waits: perf sched over ${WINDOW}s of a second run"
echo
echo "| server | requests/s | p50 ms | p99 ms | CPU µs/request (all) | switches/request | server runs/request | server delay p50/p99/max ms | wrk delay p50/p99/max ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for config in "${CONFIGS[@]}"; do
    IFS='|' read -r name url header <<<"$config"
    case $name in *disk*) continue ;; esac
    args=(-t 2 -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s --latency)
    [ -n "$header" ] && args+=(-H "$header")
    wrk "${args[@]}" "$url" >"$WORK/wrk.txt" &
    client=$!
    sleep 1
    perf stat -a -x, -e task-clock,context-switches -o "$WORK/stat.txt" sleep "$WINDOW" 2>/dev/null
    wait "$client"
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
    p50=$(in_ms "$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")")
    p99=$(in_ms "$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")")
    read -r cpu switches < <(awk -F, -v n="$(awk -v r="$rps" -v w="$WINDOW" 'BEGIN { print r * w }')" '
        $3 == "task-clock" { cpu = $1 * 1000 / n } $3 == "context-switches" { sw = $1 / n }
        END { printf "%.1f %.2f\n", cpu, sw }' "$WORK/stat.txt")
    wrk "${args[@]}" "$url" >/dev/null &
    client=$!
    sleep 1
    perf sched record -a -o "$WORK/sched.data" sleep "$WINDOW" >/dev/null 2>&1
    wait "$client"
    read -r s50 s99 smax runs c50 c99 cmax < <(delays "$WORK/sched.data")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s |\n' "$name" "$rps" "$p50" "$p99" "$cpu" \
        "$switches" "$(awk -v r="$runs" -v n="$rps" -v w="$WINDOW" 'BEGIN { printf "%.2f", r / (n * w) }')" \
        "$s50" "$s99" "$smax" "$c50" "$c99" "$cmax"
done
