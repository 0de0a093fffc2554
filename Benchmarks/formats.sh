#!/usr/bin/env bash
# Formats benchmark, printed as Markdown for docs/benchmarks.md:
#   1. AVIF and HEIC decoding against libavif's and libheif's own tools (avifdec, heif-convert);
#   2. AVIF encoding at each encoder speed (size and time), against avifenc at the same settings;
#   3. what ICC colour conversion adds to a JPEG decode (Display P3 and sRGB-tagged against untagged), full size
#      and in a 720x720 thumbnail converted at decode or after the resize (webimage-bench colour);
#   4. libvips side by side (vips copy, vips icc_transform), as processes with start-up subtracted; TIFF decoding
#      (LZW and Deflate with a predictor, made by ImageMagick from the JPEGs) against vips copy and against
#      libtiff's own `tiffcp -c none`, which only decompresses (no conversion to RGBA);
#   5. JPEG XL decoding and encoding against djxl and cjxl (Benchmarks/formats-jxl.sh, which also runs alone);
#   6. SVG rendering (librsvg and cairo, to 8-bit RGBA) against rsvg-convert (librsvg's own tool, writing PNG) and
#      vips copy (libvips' svgload, writing .v), on generated documents at their own size and at twice it;
#   7. BMP and ICO decoding (ours in Swift) against Pillow (in process, its C decoders; RLE8 in Python) and vips copy
#      (libvips loads both through ImageMagick), on the 2725x2225 photo as a 24-bit BMP, a 32-bit BMP with alpha
#      (V5 header, bit fields), an RLE8 BMP (256 colours), and 256x256 icons with a PNG entry and a BMP entry.
#   Benchmarks/formats.sh [BENCH_DIR]      (default ../shared/bench; its JPEGs are the inputs)
#   ONLY=svg Benchmarks/formats.sh          (section 6 alone)
#   ONLY=bmp Benchmarks/formats.sh          (section 7 alone)
# Ours are in-process medians (webimage-bench). The tools run as processes: their time is the median of 9 runs
# minus the median of 9 runs on a 16x16 file of the same format (process start, library and codec set-up), and
# they write y4m, that is they skip the YUV to RGB conversion that ours includes.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${1:-../shared/bench}
command -v avifdec >/dev/null && command -v heif-convert >/dev/null && command -v convert >/dev/null \
    && command -v vips >/dev/null && command -v tiffcp >/dev/null && command -v rsvg-convert >/dev/null || {
    apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=600 libavif-bin libheif-examples imagemagick \
        colord-data libvips-tools libtiff-tools librsvg2-bin >/dev/null; }
swift build -c release --scratch-path .build-release --product webimage-bench >/dev/null
BIN=.build-release/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])['$1'])" "$2"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
# Median wall milliseconds of 9 runs of a command.
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
# Section 5: SVG documents made here (seeded, so every run renders the same ones), rendered by ours in process and by
# rsvg-convert and vips as processes, start-up subtracted (a 16x16 document).
svg_section() {
    python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
rng = random.Random(25)
def colour(): return '#%02x%02x%02x' % (rng.randrange(256), rng.randrange(256), rng.randrange(256))
head = '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768" viewBox="0 0 1024 768">'
shapes = [head, '<defs>'] + [
    '<linearGradient id="g%d" x2="1" y2="1"><stop offset="0" stop-color="%s"/><stop offset="1" stop-color="%s" stop-opacity="0.3"/></linearGradient>' % (i, colour(), colour())
    for i in range(20)] + ['</defs>']
for i in range(2000):
    x, y, r = rng.uniform(0, 1024), rng.uniform(0, 768), rng.uniform(4, 60)
    fill = 'url(#g%d)' % rng.randrange(20) if i % 3 == 0 else colour()
    shapes.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" fill-opacity="%.2f"/>' % (x, y, r, fill, rng.uniform(0.3, 1)) if i % 2
                  else '<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" transform="rotate(%d %.1f %.1f)"/>' % (x, y, r * 2, r, fill, rng.randrange(360), x, y))
open(work + '/shapes.svg', 'w').write('\n'.join(shapes + ['</svg>']))
paths = [head]
for i in range(400):
    points = ['%.1f %.1f' % (rng.uniform(0, 1024), rng.uniform(0, 768)) for _ in range(10)]
    paths.append('<path d="M %s C %s" fill="none" stroke="%s" stroke-width="%.1f" stroke-linecap="round"/>' % (
        points[0], ' '.join(points[1:]), colour(), rng.uniform(1, 8)))
open(work + '/paths.svg', 'w').write('\n'.join(paths + ['</svg>']))
open(work + '/tiny.svg', 'w').write('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>')
PY
    local rsvg_start vips_start
    rsvg_start=$(runs rsvg-convert "$work/tiny.svg" -o "$work/out.png")
    vips_start=$(runs vips copy "$work/tiny.svg" "$work/out.v")
    echo
    echo "### Rendering SVG (librsvg)"
    echo
    echo "| file | render size | ours ms | rsvg-convert ms (start-up subtracted, writes PNG) | ours/rsvg-convert | vips copy ms (start-up subtracted) | ours/vips |"
    echo "|---|---|---|---|---|---|---|"
    for name in shapes paths; do
        for scale in 1 2; do
            local width=$((1024 * scale)) height=$((768 * scale)) target=""
            [ "$scale" = 1 ] || target="--target $width"
            ours=$(field median_ms "$($BIN/webimage-bench decode "$work/$name.svg" $target | tail -1)")
            rsvg=$(python3 -c "print('%.3f' % ($(runs rsvg-convert -w $width -h $height "$work/$name.svg" -o "$work/out.png") - $rsvg_start))")
            vips=$(python3 -c "print('%.3f' % ($(runs vips copy "$work/$name.svg[scale=$scale]" "$work/out.v") - $vips_start))")
            echo "| $name.svg | ${width}x$height | $ours | $rsvg | $(ratio "$ours" "$rsvg") | $vips | $(ratio "$ours" "$vips") |"
        done
    done
}
# Section 7: BMP and ICO from the 2725x2225 photo, decoded by ours and by Pillow in process (medians of at least 2 s,
# Benchmarks/pillow_decode.py) and by vips as a process (start-up subtracted: a 16x16 file of the same kind).
bmp_section() {
    local photo="$BENCH_DIR/2569067123_aca715a2ee_o.jpg"
    [ -x .venv-bench/bin/python ] || python3 -m venv .venv-bench
    .venv-bench/bin/python -c 'import PIL' 2>/dev/null || .venv-bench/bin/pip install -q pillow
    convert "$photo" -type TrueColor BMP3:"$work/photo-24.bmp"
    convert "$photo" \( -size "$(identify -format %wx%h "$photo")" gradient: \) -alpha off -compose CopyOpacity \
        -composite -define bmp:format=bmp4 BMP:"$work/photo-32-alpha.bmp"
    convert "$photo" +dither -colors 256 -compress RLE BMP3:"$work/photo-rle8.bmp"
    convert -size 16x16 xc:gray -type TrueColor BMP3:"$work/tiny.bmp"
    .venv-bench/bin/python - "$photo" "$work" <<'PY'
import sys
from PIL import Image
photo, work = sys.argv[1], sys.argv[2]
icon = Image.open(photo).convert("RGBA").resize((256, 256), Image.LANCZOS)
icon.putalpha(Image.linear_gradient("L").resize((256, 256)))
icon.save(work + "/icon-png.ico", sizes=[(256, 256)])
icon.save(work + "/icon-bmp.ico", sizes=[(256, 256)], bitmap_format="bmp")
Image.new("RGBA", (16, 16)).save(work + "/tiny.ico", sizes=[(16, 16)], bitmap_format="bmp")
PY
    local vips_bmp_start vips_ico_start
    vips_bmp_start=$(runs vips copy "$work/tiny.bmp" "$work/out.v")
    vips_ico_start=$(runs vips copy "$work/tiny.ico" "$work/out.v")
    echo
    echo "### Decoding BMP and ICO (ours in Swift)"
    echo
    echo "| file | size | ours ms | Pillow ms (in process) | ours/Pillow | vips copy ms (ImageMagick loader, start-up subtracted) | ours/vips |"
    echo "|---|---|---|---|---|---|---|"
    for name in photo-24.bmp photo-32-alpha.bmp photo-rle8.bmp icon-png.ico icon-bmp.ico; do
        local ours pillow start vips
        ours=$($BIN/webimage-bench decode "$work/$name" | tail -1)
        pillow=$(field median_ms "$(.venv-bench/bin/python Benchmarks/pillow_decode.py "$work/$name" | tail -1)")
        case $name in *.ico) start=$vips_ico_start ;; *) start=$vips_bmp_start ;; esac
        vips=$(python3 -c "print('%.3f' % ($(runs vips copy "$work/$name" "$work/out.v") - $start))")
        echo "| $name | $(field size "$ours") | $(field median_ms "$ours") | $pillow | $(ratio "$(field median_ms "$ours")" "$pillow") | $vips | $(ratio "$(field median_ms "$ours")" "$vips") |"
    done
}
if [ "${ONLY:-}" = svg ]; then
    svg_section
    exit 0
fi
if [ "${ONLY:-}" = bmp ]; then
    bmp_section
    exit 0
fi
srgb=/usr/share/color/icc/colord/sRGB.icc
p3=Tests/Fixtures/formats/DisplayP3.icc
convert -size 16x16 xc:gray "$work/tiny.png"
avifenc -s 8 "$work/tiny.png" "$work/tiny.avif" >/dev/null
heif-enc -q 80 "$work/tiny.png" -o "$work/tiny.heic" >/dev/null
avif_start=$(runs avifdec -j all "$work/tiny.avif" "$work/out.y4m")
heif_start=$(runs heif-convert "$work/tiny.heic" "$work/out.y4m")

echo "### Decoding AVIF and HEIC"
echo
echo "| file | size | ours ms | tool | tool ms (start-up subtracted) | ours/tool |"
echo "|---|---|---|---|---|---|"
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg; do
    name=$(basename "$file"); name=${name%.*}
    avifenc -j all -s 6 -y 420 --min 13 --max 13 --ignore-exif --ignore-xmp "$file" "$work/$name.avif" >/dev/null
    heif-enc -q 80 "$file" -o "$work/$name.heic" >/dev/null
    for format in avif heic; do
        ours=$($BIN/webimage-bench decode "$work/$name.$format" | tail -1)
        if [ $format = avif ]; then
            tool=avifdec; tool_ms=$(runs avifdec -j all "$work/$name.avif" "$work/out.y4m"); start=$avif_start
        else
            tool=heif-convert; tool_ms=$(runs heif-convert "$work/$name.heic" "$work/out.y4m"); start=$heif_start
        fi
        net=$(python3 -c "print('%.3f' % ($tool_ms - $start))")
        echo "| $name.$format | $(field size "$ours") | $(field median_ms "$ours") | $tool | $net | $(ratio "$(field median_ms "$ours")" "$net") |"
    done
done

echo
echo "### AVIF encoder speed (quality 80 = quantizer 13, 4:2:0; avifenc with the same settings)"
echo
echo "| file | speed | ours ms | bytes | avifenc ms (start-up subtracted) | avifenc bytes | ours/avifenc time |"
echo "|---|---|---|---|---|---|---|"
# One 1920x1080 photo: the slow speeds take seconds per encode on two cores.
for file in "${ENCODE_FILE:-$BENCH_DIR/flowers.jpeg}"; do
    name=$(basename "$file"); name=${name%.*}
    convert "$file" "$work/$name.png"
    $BIN/webimage-bench encode "$work/$name.png" --format avif --quality 80 --speeds 4,5,6,7,8,9,10 --seconds 1 \
        | while read -r line; do
            speed=$(field speed "$line")
            tool_ms=$(runs avifenc -j all -s "$speed" -y 420 --min 13 --max 13 --ignore-exif --ignore-xmp --ignore-icc \
                "$work/$name.png" "$work/enc.avif")
            start=$(runs avifenc -j all -s "$speed" -y 420 --min 13 --max 13 "$work/tiny.png" "$work/enc-tiny.avif")
            net=$(python3 -c "print('%.3f' % ($tool_ms - $start))")
            echo "| $name | $speed | $(field median_ms "$line") | $(field bytes "$line") | $net | $(stat -c %s "$work/enc.avif") | $(ratio "$(field median_ms "$line")" "$net") |"
        done
done

echo
echo "### Colour conversion in a JPEG decode"
echo
echo "Full size (converted at decode), and a 720x720 thumbnail (shrink-on-load decode, Lanczos3 resize) converted"
echo "at decode or after the resize (decode with keepsColorProfile, resize, convertedToSRGB)."
echo
echo "| file | untagged ms | sRGB profile ms | sRGB/untagged | Display P3 ms | P3/untagged | thumbnail untagged ms | P3 converted at decode ms | /untagged | P3 converted after resize ms | /untagged |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg; do
    name=$(basename "$file"); name=${name%.*}
    convert "$file" -strip -quality 90 "$work/$name-plain.jpg"
    convert "$file" -strip -profile "$srgb" -quality 90 "$work/$name-srgb.jpg"
    convert "$file" -strip -profile "$srgb" -profile "$p3" -quality 90 "$work/$name-p3.jpg"
    plain=$($BIN/webimage-bench colour "$work/$name-plain.jpg" --size 720x720 | tail -1)
    tagged=$(field full_ms "$($BIN/webimage-bench colour "$work/$name-srgb.jpg" --size 720x720 | tail -1)")
    wide=$($BIN/webimage-bench colour "$work/$name-p3.jpg" --size 720x720 | tail -1)
    base=$(field full_ms "$plain"); thumb=$(field thumbnail_converted_at_decode_ms "$plain")
    at_decode=$(field thumbnail_converted_at_decode_ms "$wide"); after=$(field thumbnail_converted_after_resize_ms "$wide")
    echo "| $name.jpg | $base | $tagged | $(ratio "$tagged" "$base") | $(field full_ms "$wide") | $(ratio "$(field full_ms "$wide")" "$base") | $thumb | $at_decode | $(ratio "$at_decode" "$thumb") | $after | $(ratio "$after" "$thumb") |"
done

echo
echo "### libvips side by side (vips as a process, start-up subtracted, writing its own .v format)"
echo
echo "| file | operation | ours ms | vips command | vips ms (start-up subtracted) | ours/vips |"
echo "|---|---|---|---|---|---|"
convert -size 16x16 xc:gray "$work/tiny.jpg"
vips_start=$(runs vips copy "$work/tiny.jpg" "$work/out.v")
convert "$work/tiny.jpg" -compress LZW "$work/tiny.tif"
vips_tiff_start=$(runs vips copy "$work/tiny.tif" "$work/out.v")
tiffcp_start=$(runs tiffcp -c none "$work/tiny.tif" "$work/out.tif")
for file in "$BENCH_DIR"/*.jpg "$BENCH_DIR"/*.jpeg; do
    name=$(basename "$file"); name=${name%.*}
    for format in avif heic; do
        ours=$(field median_ms "$($BIN/webimage-bench decode "$work/$name.$format" | tail -1)")
        net=$(python3 -c "print('%.3f' % ($(runs vips copy "$work/$name.$format" "$work/out.v") - $vips_start))")
        echo "| $name.$format | decode | $ours | vips copy | $net | $(ratio "$ours" "$net") |"
    done
    ours=$(field median_ms "$($BIN/webimage-bench decode "$work/$name-plain.jpg" | tail -1)")
    net=$(python3 -c "print('%.3f' % ($(runs vips copy "$work/$name-plain.jpg" "$work/out.v") - $vips_start))")
    echo "| $name.jpg | decode | $ours | vips copy | $net | $(ratio "$ours" "$net") |"
    ours=$(field median_ms "$($BIN/webimage-bench decode "$work/$name-p3.jpg" | tail -1)")
    net=$(python3 -c "print('%.3f' % ($(runs vips icc_transform "$work/$name-p3.jpg" "$work/out.v" srgb) - $vips_start))")
    echo "| $name-p3.jpg | decode to sRGB | $ours | vips icc_transform srgb | $net | $(ratio "$ours" "$net") |"
    for compression in LZW Zip; do
        tiff="$work/$name-$compression.tif"
        convert "$file" -compress $compression -define tiff:predictor=2 "$tiff"
        ours=$(field median_ms "$($BIN/webimage-bench decode "$tiff" | tail -1)")
        net=$(python3 -c "print('%.3f' % ($(runs vips copy "$tiff" "$work/out.v") - $vips_tiff_start))")
        echo "| $name-$compression.tif | decode | $ours | vips copy | $net | $(ratio "$ours" "$net") |"
        net=$(python3 -c "print('%.3f' % ($(runs tiffcp -c none "$tiff" "$work/out.tif") - $tiffcp_start))")
        echo "| $name-$compression.tif | decode | $ours | tiffcp -c none | $net | $(ratio "$ours" "$net") |"
    done
done

svg_section
bmp_section
echo
Benchmarks/formats-jxl.sh "$BENCH_DIR"
