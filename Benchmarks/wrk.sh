# Shared by the wrk benchmarks (hit.sh, tracing.sh); sourced, with WORK and CONNECTIONS and DURATION set.
# wait_for URL: until it answers 2xx (20 s at most).
wait_for() { for _ in $(seq 1 200); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer: $1" >&2; exit 1; }

# measure NAME URL [HEADER]: one wrk run; prints a table row and keeps requests/s and p99 (in ms) under NAME.
declare -A RPS P99
measure() {
    local name=$1 url=$2 header=${3:-}
    local args=(-t 2 -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s --latency)
    [ -n "$header" ] && args+=(-H "$header")
    wrk "${args[@]}" "$url" >"$WORK/wrk.txt"
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
    errors=$(awk '/Non-2xx|Socket errors/ {printf "%s ", $0}' "$WORK/wrk.txt")
    RPS[$name]=$rps
    P99[$name]=$(echo "$p99" | awk '/us$/ {sub("us", ""); print $1 / 1000; next} /ms$/ {sub("ms", ""); print $1; next} /s$/ {sub("s", ""); print $1 * 1000}')
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99" "${errors:-}"
}

# ratio A B: A / B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
