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
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-1}
REPS=${REPS:-3}
CONNECTIONS=${CONNECTIONS:-64}
source Benchmarks/hit-servers.sh

echo "# cache hits: a $(stat -c %s "$WORK/www/hit.jpg")-byte JPEG, wrk -t2 -c$CONNECTIONS -d${DURATION}s, $(nproc) cores"
echo "# each row: the median of $REPS runs (requests/s min-max beside it), the runs of a round interleaved"

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
