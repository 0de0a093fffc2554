#!/usr/bin/env bash
# Decode benchmark: WebImage's coders against each codec's own tool and Pillow, on the same files in one run.
#   Benchmarks/codecs.sh [BENCH_DIR]      (default ../shared/bench)
# JPEG anchor: tjbench (TurboJPEG's own benchmark, 4-byte RGBX output like ours). WebP anchor: dwebp -v.
# Pillow: Image.open().load(). All numbers are in-process milliseconds per decode (median of ~2 s of runs).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${1:-../shared/bench}
command -v tjbench >/dev/null && command -v dwebp >/dev/null && command -v time >/dev/null || {
    apt-get update -qq && apt-get install -y -qq libjpeg-turbo-progs webp time >/dev/null; }
python3 -c 'import PIL' 2>/dev/null || pip install -q pillow
swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null
swift build -c release --scratch-path .build-release --product webimage >/dev/null
BIN=.build-release/release
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$1'])" "$2"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

echo "| file | format | ours ms | anchor | anchor ms | ours/anchor | Pillow ms | ours/Pillow |"
echo "|---|---|---|---|---|---|---|---|"
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg "$BENCH_DIR"/*.png "$BENCH_DIR"/*.webp "$BENCH_DIR"/*.gif; do
    ours=$($BIN/webimage-bench decode "$file" | tail -1)
    pillow=$(python3 Benchmarks/pillow_decode.py "$file" | tail -1)
    ours_ms=$(field median_ms "$ours"); pillow_ms=$(field median_ms "$pillow")
    case "$file" in
    *.jpg|*.jpeg)
        fps=$(tjbench "$file" -rgbx -nowrite -benchtime 2 -warmup 1 | awk '/Decompress.*Frame rate/ {print $(NF-1)}' | head -1)
        anchor="tjbench"; anchor_ms=$(python3 -c "print('%.3f' % (1000 / $fps))");;
    *.webp)
        anchor="dwebp"
        anchor_ms=$(for i in 1 2 3 4 5 6 7 8 9; do dwebp -v "$file" 2>&1 | awk '/Time to decode/ {print $5}' | tr -d s; done \
            | sort -n | sed -n 5p | python3 -c "import sys; print('%.3f' % (float(sys.stdin.read()) * 1000))");;
    *) anchor="-"; anchor_ms="";;
    esac
    rel=""; [ -n "$anchor_ms" ] && rel=$(ratio "$ours_ms" "$anchor_ms")
    echo "| $(basename "$file") | $(field format "$ours") | $ours_ms | $anchor | $anchor_ms | $rel | $pillow_ms | $(ratio "$ours_ms" "$pillow_ms") |"
done

echo
echo "Shrink-on-load: 256-pixel thumbnail decode vs full decode (tjbench at 1/8 scale shows TurboJPEG's own floor)"
echo "| file | full ms | thumbnail ms | speed-up | decoded size | Pillow draft ms | tjbench 1/8 ms |"
echo "|---|---|---|---|---|---|---|"
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg "$BENCH_DIR"/*.webp; do
    full=$($BIN/webimage-bench decode "$file" | tail -1)
    thumb=$($BIN/webimage-bench decode "$file" --target 256 | tail -1)
    pillow=$(python3 Benchmarks/pillow_decode.py --target 256 "$file" | tail -1)
    eighth=""
    case "$file" in *.jpg|*.jpeg)
        fps=$(tjbench "$file" -rgbx -nowrite -scale 1/8 -benchtime 2 -warmup 1 | awk '/Decompress.*Frame rate/ {print $(NF-1)}' | head -1)
        eighth=$(python3 -c "print('%.3f' % (1000 / $fps))");;
    esac
    echo "| $(basename "$file") | $(field median_ms "$full") | $(field median_ms "$thumb") | $(ratio "$(field median_ms "$full")" "$(field median_ms "$thumb")")x | $(field size "$thumb") | $(field median_ms "$pillow") | $eighth |"
done

echo
echo "Peak memory refusing the decompression bombs (max RSS of the whole webimage process):"
for bomb in Tests/Fixtures/corpus/images/bomb_*; do
    command time -f '%M' -o /tmp/bomb-rss $BIN/webimage fetch "$bomb" -o /tmp/bomb.png --no-cache >/dev/null 2>&1 || true
    kb=$(tail -1 /tmp/bomb-rss)
    echo "- $(basename "$bomb"): $((kb / 1024)) MiB"
done
