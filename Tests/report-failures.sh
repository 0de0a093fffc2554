#!/usr/bin/env bash
# Runs a test command as it is, and when it fails repeats its failing lines at the very end of the output: a run of a
# thousand tests prints tens of thousands of lines, and CI keeps only the last part of them.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
	echo "=== failed (exit $status): $* ==="
	# Swift Testing's failures (✘), XCTest's, a trap, and the sanitizers' reports; the servers' own log lines, which
	# say "error" too, are left out.
	grep -E '^✘ |: error: -\[|Fatal error: |^SUMMARY: |^WARNING: (Thread|Address|Leak)Sanitizer' "$log" | head -n 60
fi
exit "$status"
