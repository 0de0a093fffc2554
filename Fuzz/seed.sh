#!/usr/bin/env bash
# Seeds each fuzz target's corpus directory (argument 1) from the conformance corpus, the formats fixtures (AVIF, HEIC,
# colour, BMP, ICO, CUR, TIFF, JPEG XL and SVG; fuzz-jxl takes only the JPEG XL ones) and the regression files, with
# the prefix bytes each entry point reads first
# (Sources/WebImageTesting/FuzzEntries.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$1
for target in fuzz-decode fuzz-thumbnail fuzz-info fuzz-partial fuzz-transform fuzz-url fuzz-info-url fuzz-jxl fuzz-svg fuzz-svg-sanitize; do
    mkdir -p "$root/$target"
done
# URL paths for fuzz-url: every option family, numbers of every spelling Go takes, both source forms.
n=0
for path in "/x/rs:fill:300:200:1:1:so/plain/http://a.example/b.jpg@webp" \
    "/x/mb:10000/skp:jpg:png/raw:1/kcr:0/eth:1/ph:1/plain/http://a.example/b.jpg" \
    "/x/w:2/plain/http://a.example/640" \
    "/x/msr:2.5/msfs:-1/maf:3/mafr:0.5/mrd:99999999999/aHR0cDovL2EuZXhhbXBsZS9iLmpwZw.png" \
    "/x/c:99999999999:Infinity:fp:0.5:0.5/w:9223372036854775807/dpr:0x1p1/bl:1.000000000000000000001/plain/local:///a" \
    "/x/wm:0.5:re:10:-5:0.25/t:10:ff00ff:1:0/pd:1:2:3:4/pr:p:s/fq:webp:70:jpg:60/plain/s3://bucket/key"; do
    n=$((n + 1))
    printf %s "$path" > "$root/fuzz-url/seed-$n"
done
# The same entry with imgproxy's source rewriting on (a first byte 0x01): base URL, replacements, base64 file names.
for path in "/x/rs:fit:10:10/plain/mys3://bucket/a/b.jpg" "/x/w:5/plain/aQQb/c.png@png" \
    "/x/h:5/aHR0cDovL2EuZXhhbXBsZS9iLmpwZw.png/name.png" "/x/plain/http://base.example/x.jpg"; do
    n=$((n + 1))
    printf '\001%s' "$path" > "$root/fuzz-url/seed-$n"
done
# And with `~` as the arguments separator (a first byte 0x02).
for path in "/x/rs~fill~300~200~1~1~so/pr~p/plain/http://a.example/b.jpg@webp" "/x/cb~a:b/w~5/plain/http://a/b" \
    "/x/c~99999999999~Infinity~fp~0.5~0.5/fq~webp~70~jpg~60/aHR0cDovL2EuZXhhbXBsZS9iLmpwZw.png"; do
    n=$((n + 1))
    printf '\002%s' "$path" > "$root/fuzz-url/seed-$n"
done
# /info paths: every info option with ordinary and hostile numbers.
i=0
for path in '/_/plain/http://a/b.png' '/_/avg:1:0/dc:1:1/bh:4:3/th:1/ph:1/p:16/plain/http://a/b.png' \
    '/_/a:1:1/cs:1/b:1/sf:1/pn:1/chs:md5:sha1:sha256:sha512/exif:1:1/xmp:1/plain/http://a/b.png' \
    '/_/bh:9:9/p:256/msr:0.5/msfs:99999999999/exp:99999999999/pr:p/aHR0cDovL2EvYi5wbmc' \
    '/_/bh:-1:1e9/p:1/cb:x/plain/local:///b.png' \
    '/_/hs:sha256:00ff/vm:1/vts:1e308/vtk:1/iptc:1/do:0/cl:0:face/c:0:0:ce/op:ce:0:0/pg:0/bc:0/ct:/plain/http://a/b.png'; do
    printf '%s' "$path" > "$root/fuzz-info-url/path$i"
    i=$((i + 1))
done
# fuzz-jxl: the JPEG XL fixtures and its own regression files only.
for file in Tests/Fixtures/formats/images/*.jxl Tests/Fixtures/fuzz-regressions/fuzz-jxl/*; do
    [ -f "$file" ] || continue
    cp "$file" "$root/fuzz-jxl/$(basename "$file")"
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
