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

# in_ms VALUE: wrk's latency (`812.00us`, `1.20ms`, `1.01s`) in milliseconds.
in_ms() { echo "$1" | awk '/us$/ {sub("us", ""); print $1 / 1000; next} /ms$/ {sub("ms", ""); print $1; next} /s$/ {sub("s", ""); print $1 * 1000}'; }

# sample NAME URL [HEADER]: one wrk run, its requests/s, p50 and p99 (ms) appended to the samples of NAME, its
# errors (non-2xx/3xx answers, socket errors) to ERRORS[NAME].
declare -A SAMPLE_RPS SAMPLE_P50 SAMPLE_P99 ERRORS
sample() {
    local name=$1 url=$2 header=${3:-}
    local args=(-t 2 -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s --latency)
    [ -n "$header" ] && args+=(-H "$header")
    wrk "${args[@]}" "$url" >"$WORK/wrk.txt"
    SAMPLE_RPS[$name]+=" $(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")"
    SAMPLE_P50[$name]+=" $(in_ms "$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")")"
    SAMPLE_P99[$name]+=" $(in_ms "$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")")"
    ERRORS[$name]+=$(awk '/Non-2xx|Socket errors/ {printf "%s ", $0}' "$WORK/wrk.txt")
}

# median VALUES...: the median of the numbers given (the lower middle one of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# spread VALUES...: "min-max" of the numbers given, without decimals.
spread() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }
