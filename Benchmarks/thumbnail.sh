#!/usr/bin/env bash
# The headline benchmark (sharp's task): the 2725x2225 JPEG resized to 720x588 with Lanczos3 and written as JPEG
# quality 80, as whole processes, side by side with vipsthumbnail and Pillow in one hyperfine run; then a batch of
# 50 such images in one process each; the resampler alone against Pillow's resize on the same decoded pixels; and
# the peak memory of a 256-pixel thumbnail of a generated 20000x14000 JPEG. webimage runs with --no-cache: with its
# disk cache on (the default) every run after the first would be a cache hit, not the work being measured.
#   Benchmarks/thumbnail.sh [BENCH_DIR]      (default ../shared/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${1:-../shared/bench}
PHOTO="$BENCH_DIR/2569067123_aca715a2ee_o.jpg"
command -v vipsthumbnail >/dev/null && command -v hyperfine >/dev/null && command -v time >/dev/null || {
    apt-get update -qq && apt-get install -y -qq libvips-tools hyperfine time >/dev/null; }
python3 -c 'import PIL' 2>/dev/null || pip install -q pillow
swift build -c release --scratch-path .build-release --product webimage >/dev/null
swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null
BIN=$PWD/.build-release/release
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PILLOW='from PIL import Image
import sys
for src in sys.argv[2:]:
    im = Image.open(src); im.draft("RGB", (720, 588))
    im.resize((720, 588), Image.LANCZOS).save(sys.argv[1] + "/" + src.rsplit("/", 1)[-1], quality=80)'

echo "## One image, whole process"
hyperfine -N -w 3 -r 30 --export-markdown "$WORK/single.md" \
    -n webimage "$BIN/webimage fetch $PHOTO --resize 720x588 --fit fill --quality 80 -o $WORK/w.jpg --no-cache" \
    -n vipsthumbnail "vipsthumbnail $PHOTO -s 720x588! -o $WORK/v.jpg[Q=80]" \
    -n Pillow "python3 -c '$PILLOW' $WORK $PHOTO" >/dev/null
cat "$WORK/single.md"

echo
echo "## 50 images, one process each tool"
mkdir -p "$WORK/in" "$WORK/w" "$WORK/v" "$WORK/p"
for i in $(seq -w 1 50); do cp "$PHOTO" "$WORK/in/photo$i.jpg"; done
hyperfine -w 1 -r 5 --export-markdown "$WORK/batch.md" \
    -n webimage "$BIN/webimage fetch $WORK/in/*.jpg --resize 720x588 --fit fill --quality 80 --output-dir $WORK/w --no-cache" \
    -n vipsthumbnail "vipsthumbnail $WORK/in/*.jpg -s 720x588! -o $WORK/v/%s.jpg[Q=80]" \
    -n Pillow "python3 -c '$PILLOW' $WORK/p $WORK/in/*.jpg" >/dev/null
cat "$WORK/batch.md"

echo
echo "## Resampler alone, 1363x1113 -> 720x588 Lanczos3 (the image after 1/2 DCT shrink)"
vips resize "$PHOTO" "$WORK/half.png" 0.5 >/dev/null 2>&1 || python3 -c "from PIL import Image; Image.open('$PHOTO').reduce(2).save('$WORK/half.png')"
python3 -c "from PIL import Image; Image.open('$WORK/half.png').convert('RGB').save('$WORK/half.png')"
$BIN/webimage-bench resample "$WORK/half.png" --size 720x588
python3 - "$WORK/half.png" <<'PY'
import sys, time, json
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGBA"); im.load()
samples = []
deadline = time.perf_counter() + 2
while len(samples) < 5 or time.perf_counter() < deadline:
    start = time.perf_counter(); im.resize((720, 588), Image.LANCZOS); samples.append((time.perf_counter() - start) * 1000)
samples.sort()
print(json.dumps({"pillow_rgba_median_ms": round(samples[len(samples) // 2], 3),
                  "mpix_per_s": round(im.width * im.height / 1e6 / (samples[len(samples) // 2] / 1000), 1)}))
PY

echo
echo "## Peak memory: 256-pixel thumbnail of a 20000x14000 JPEG"
python3 -c "from PIL import Image; Image.new('RGB', (20000, 14000), (90, 140, 200)).save('$WORK/huge.jpg', quality=85)"
kb=$( { command time -f '%M' "$BIN/webimage" fetch "$WORK/huge.jpg" --resize 256x256 -o "$WORK/huge-thumb.jpg" --no-cache >/dev/null; } 2>&1 | tail -1)
echo "webimage max RSS: $((kb / 1024)) MiB"
kb=$( { command time -f '%M' vipsthumbnail "$WORK/huge.jpg" -s 256 -o "$WORK/huge-vips.jpg" >/dev/null; } 2>&1 | tail -1)
echo "vipsthumbnail max RSS: $((kb / 1024)) MiB"
