#!/usr/bin/env bash
# Runs each fuzz target for $1 seconds on its corpus in .build-fuzz/corpus; fails if any target finds a crash,
# leaving the input in .build-fuzz/findings. Usage: Fuzz/run.sh SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=$1
shift
bin=$(WEBIMAGE_FUZZ=1 swift build --scratch-path .build-fuzz --show-bin-path)
mkdir -p .build-fuzz/findings .build-fuzz/logs
status=0
for target in "$@"; do
    echo "== $target: ${seconds}s"
    # Swift's own backtracer off: on a trap it would read the stack under ASan (a false stack-buffer-overflow that
    # hides the trap's message) and could outlive the target, holding the build lock's file descriptor.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" -max_total_time="$seconds" -max_len=262144 -timeout=30 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=".build-fuzz/findings/$target-" \
        ".build-fuzz/corpus/$target" > ".build-fuzz/logs/$target.log" 2>&1
    result=$?
    grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs)" \
        ".build-fuzz/logs/$target.log" | tail -3
    if [ $result -ne 0 ]; then
        echo "$target FAILED (status $result); see .build-fuzz/logs/$target.log and .build-fuzz/findings/"
        tail -40 ".build-fuzz/logs/$target.log"
        status=1
    fi
done
exit $status
