#!/usr/bin/env bash
# Runs every benchmark; each part prints Markdown for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")"
for script in codecs.sh formats.sh thumbnail.sh loader.sh; do
    echo "# $script"
    "./$script" "$@"
    echo
done
echo "# webimage-bench cache, manager"
(cd .. && swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null &&
    .build-release/release/webimage-bench cache &&
    .build-release/release/webimage-bench manager)
