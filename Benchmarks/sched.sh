#!/usr/bin/env bash
# Where a cache hit's time goes on this machine (issue 29): for nginx, the bare Hummingbird route and `webimage serve`'s
# hits, one clean wrk run counted with `perf stat` (CPU time and context switches of the whole machine, per request)
# and one run under `perf sched record` (how long each side's threads waited for a core after being woken, by
# `perf sched latency`). On two cores the client and the server share the CPUs: a request's latency is its own CPU
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

# delays FILE: "avg max switches" of the server's threads and "avg max" of wrk's, from `perf sched latency` (each task's
# average and longest wait from wake-up to running; the average weighted by its switches).
delays() {
    perf sched latency -i "$1" 2>/dev/null | awk -F'|' '
        /avg:/ {
            split($1, task, ":"); name = task[1]; gsub(/ /, "", name)
            switches = $3 + 0; avg = $4; maximum = $5
            gsub(/[^0-9.]/, "", avg); gsub(/[^0-9.]/, "", maximum)
            side = (name == "wrk") ? "client" : (name ~ /^(perf|swapper|kworker|ksoftirqd|rcu|migration)/ ? "" : "server")
            if (side == "") next
            count[side] += switches; weighted[side] += switches * avg
            if (maximum + 0 > longest[side]) longest[side] = maximum + 0
        }
        END {
            printf "%.3f %.2f %d %.3f %.2f\n", weighted["server"] / (count["server"] ? count["server"] : 1), \
                longest["server"], count["server"], weighted["client"] / (count["client"] ? count["client"] : 1), \
                longest["client"]
        }'
}

echo "# cache hits: a $(stat -c %s "$WORK/www/hit.jpg")-byte JPEG, wrk -t2 -c$CONNECTIONS -d${DURATION}s, $(nproc) cores"
echo "# CPU and switches: perf stat -a over ${WINDOW}s of a clean run; waits: perf sched over ${WINDOW}s of a second run"
echo
echo "| server | requests/s | p50 ms | p99 ms | CPU µs/request (all) | switches/request | server wait avg ms | server wait max ms | wrk wait avg ms | wrk wait max ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
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
    read -r server_avg server_max _ client_avg client_max < <(delays "$WORK/sched.data")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99" "$cpu" "$switches" \
        "$server_avg" "$server_max" "$client_avg" "$client_max"
done
