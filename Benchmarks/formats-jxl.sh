#!/usr/bin/env bash
# JPEG XL rows of the formats benchmark (run by Benchmarks/formats.sh, or alone), printed as Markdown:
#   1. decoding side by side with libjxl's own djxl, on the same files in the same run: each benchmark JPEG as a lossy
#      JPEG XL (cjxl -d 1 -e 3, from pixels) and recompressed losslessly from the JPEG (cjxl's default for a JPEG);
#   2. encoding side by side with cjxl at the same distance and effort: our quality 50/70/80/90 against `cjxl -q` at
#      the same quality (the same quality-to-distance mapping) and effort 3 (our default speed), with the sizes and a
#      quality measure (PSNR against the source, both decoded by djxl).
#   Benchmarks/formats-jxl.sh [BENCH_DIR]      (default ../shared/bench; its JPEGs are the inputs)
# Ours are in-process medians (webimage-bench). djxl and cjxl run as processes: their time is the median of 9 runs
# minus the median of 9 runs on a 16x16 file (process start, library set-up). Both sides use every core. On a machine
# busy with other work only the ratios mean anything.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${1:-../shared/bench}
command -v cjxl >/dev/null && command -v djxl >/dev/null && command -v convert >/dev/null || {
    apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=600 libjxl-tools imagemagick >/dev/null; }
swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null
BIN=.build-release/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$1'])" "$2"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
runs() { python3 - "$@" <<'PY'
import subprocess, sys, time
samples = []
for _ in range(9):
    start = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    samples.append((time.perf_counter() - start) * 1000)
print('%.3f' % sorted(samples)[4])
PY
}
psnr() { djxl "$1" "$work/psnr.png" >/dev/null 2>&1; compare -metric PSNR "$2" "$work/psnr.png" null: 2>&1 || true; }
convert -size 16x16 xc:gray "$work/tiny.png"
cjxl -d 1 -e 3 "$work/tiny.png" "$work/tiny.jxl" >/dev/null 2>&1
djxl_start=$(runs djxl "$work/tiny.jxl" "$work/out.ppm")
cjxl_start=$(runs cjxl -d 1 -e 3 "$work/tiny.png" "$work/tiny-enc.jxl")

echo "### Decoding JPEG XL (djxl writing PPM, start-up subtracted)"
echo
echo "| file | size | ours ms | djxl ms | ours/djxl |"
echo "|---|---|---|---|---|"
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg; do
    name=$(basename "$file"); name=${name%.*}
    convert "$file" -strip "$work/$name.png"
    cjxl -d 1 -e 3 "$work/$name.png" "$work/$name-lossy.jxl" >/dev/null 2>&1
    cjxl "$file" "$work/$name-jpeg.jxl" >/dev/null 2>&1
    for kind in lossy jpeg; do
        ours=$($BIN/webimage-bench decode "$work/$name-$kind.jxl" | tail -1)
        net=$(python3 -c "print('%.3f' % ($(runs djxl "$work/$name-$kind.jxl" "$work/out.ppm") - $djxl_start))")
        echo "| $name-$kind.jxl | $(field size "$ours") | $(field median_ms "$ours") | $net | $(ratio "$(field median_ms "$ours")" "$net") |"
    done
done

echo
echo "### Encoding JPEG XL: our quality against cjxl -q at effort 3 (cjxl start-up subtracted)"
echo
echo "| file | quality | distance | ours ms | ours bytes | ours PSNR dB | cjxl ms | cjxl bytes | cjxl PSNR dB | ours/cjxl time | ours/cjxl bytes |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for file in "${ENCODE_FILE:-$BENCH_DIR/flowers.jpeg}"; do
    name=$(basename "$file"); name=${name%.*}
    convert "$file" -strip "$work/$name.png"
    for quality in 50 70 80 90; do
        line=$($BIN/webimage-bench encode "$work/$name.png" --format jxl --quality $quality --seconds 1 \
            --output "$work/ours.jxl" | tail -1)
        distance=$(python3 -c "q=$quality; print('%.2f' % (0.1 + (100 - q) * 0.09))")
        tool_ms=$(runs cjxl -q $quality -e 3 "$work/$name.png" "$work/cjxl.jxl")
        net=$(python3 -c "print('%.3f' % ($tool_ms - $cjxl_start))")
        ours_bytes=$(field bytes "$line"); tool_bytes=$(stat -c %s "$work/cjxl.jxl")
        echo "| $name | $quality | $distance | $(field median_ms "$line") | $ours_bytes | $(psnr "$work/ours.jxl" "$work/$name.png") | $net | $tool_bytes | $(psnr "$work/cjxl.jxl" "$work/$name.png") | $(ratio "$(field median_ms "$line")" "$net") | $(ratio "$ours_bytes" "$tool_bytes") |"
    done
done
