#!/usr/bin/env bash
# Runs every benchmark script; each prints Markdown for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")"
for script in codecs.sh thumbnail.sh; do
    echo "# $script"
    "./$script" "$@"
    echo
done
