#!/usr/bin/env bash
# Seeds each fuzz target's corpus directory (argument 1) from the conformance corpus, the formats fixtures (AVIF, HEIC,
# colour, BMP, ICO, CUR, TIFF and SVG) and the regression files, with the prefix bytes each entry point reads first
# (Sources/WebImageTesting/FuzzEntries.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$1
for target in fuzz-decode fuzz-thumbnail fuzz-info fuzz-partial fuzz-transform fuzz-svg fuzz-svg-sanitize; do
    mkdir -p "$root/$target"
done
for file in Tests/Fixtures/corpus/images/* Tests/Fixtures/formats/images/* Tests/Fixtures/regressions/* \
    Tests/Fixtures/fuzz-regressions/*/*; do
    [ -f "$file" ] || continue
    case "$file" in *.py) continue ;; esac
    name=$(basename "$file")
    cp "$file" "$root/fuzz-decode/$name"
    cp "$file" "$root/fuzz-info/$name"
    { printf '\100\060'; cat "$file"; } > "$root/fuzz-thumbnail/$name"
    { printf '\177'; cat "$file"; } > "$root/fuzz-partial/$name"
    { printf '\000\001\002\003\004\005\006\007\010\011\012\013'; cat "$file"; } > "$root/fuzz-transform/$name"
done
# The SVG targets: the SVG fixtures, the sanitiser's fixtures and their own regression files (fuzz-svg reads a target
# size from two leading bytes: 64x48 here, and 0 0 for the document's own size).
for file in Tests/Fixtures/formats/images/svg_* Tests/Fixtures/svg-sanitize/*.svg Tests/Fixtures/fuzz-regressions/fuzz-svg*/*; do
    [ -f "$file" ] || continue
    name=$(basename "$file")
    { printf '\077\057'; cat "$file"; } > "$root/fuzz-svg/$name"
    { printf '\000\000'; cat "$file"; } > "$root/fuzz-svg/own-$name"
    cp "$file" "$root/fuzz-svg-sanitize/$name"
done
