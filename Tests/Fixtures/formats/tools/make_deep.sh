#!/bin/sh
# Makes the high-bit-depth fixtures and their 16-bit references (run from anywhere; needs libheif-examples,
# libvips-tools, libjxl-tools, liblcms2-dev, python3). Pictures are smooth 64x48 ramps (make_deep.py), so lossy
# coding changes little; references are libvips' decodes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/images" "$out/expected"
cc "$here/make_grey_profiles.c" -llcms2 -lm -o "$work/make_grey_profiles"
"$work/make_grey_profiles" "$work/linear.icc" "$work/lstar.icc"
python3 "$here/make_deep.py" "$work" "$out/images" "$work/linear.icc"

# HEIC of 10 and 12 bits (x265), 10 bits with alpha and with a 32-pixel thumbnail; AVIF of 10 bits with a 32-pixel
# thumbnail (libheif's AV1 encoder: libaom 3.6 asserts on its 10-bit 4:2:0 and 4:4:4, so 4:2:2), read as imgproxy
# reads them: by libvips' heifload, to 16-bit samples.
heif-enc -b 10 -q 90 "$work/ramp16.png" -o "$out/images/heic_10bit.heic" >/dev/null
heif-enc -b 12 -q 90 "$work/ramp16.png" -o "$out/images/heic_12bit.heic" >/dev/null
heif-enc -b 10 -q 90 "$work/ramp16_alpha.png" -o "$out/images/heic_10bit_alpha.heic" >/dev/null
heif-enc -b 10 -q 90 -t 32 "$work/ramp16.png" -o "$out/images/heic_10bit_thumb.heic" >/dev/null
heif-enc -A -b 10 -q 90 -t 32 -p chroma=422 "$work/ramp16.png" -o "$out/images/avif_10bit_thumb.avif" >/dev/null
# libvips shifts the samples left (a 10-bit 1023 becomes 65472); the tests shift them back.
for name in heic_10bit.heic heic_12bit.heic heic_10bit_alpha.heic heic_10bit_thumb.heic; do
    vips copy "$out/images/$name" "$out/expected/$name.16.png"
done
vips heifload "$out/images/avif_10bit_thumb.avif" "$out/expected/avif_10bit_thumb.avif.thumb16.png" --thumbnail
vips heifload "$out/images/heic_10bit_thumb.heic" "$out/expected/heic_10bit_thumb.heic.thumb16.png" --thumbnail
# Linear floats to sRGB-encoded 16-bit samples, as imgproxy's colorspace step converts them (scRGB to RGB16, and
# scRGB-as-grey to GREY16 for a grey float TIFF).
vips colourspace "$out/images/tiff_float_rgb.tif" "$out/expected/tiff_float_rgb.tif.16.png" rgb16
vips colourspace "$out/images/tiff_float_rgba.tif" "$out/expected/tiff_float_rgba.tif.16.png" rgb16
# A grey profile applied to 16-bit grey levels at 16 bits (imgproxy converts them to libvips' sGrey; libvips 8.14
# has no sGrey built in, so to sRGB, whose curve sGrey has: the tests compare the grey levels with red).
for name in png_grey16_linear.png tiff_grey16_linear.tif; do
    vips icc_transform "$out/images/$name" "$out/expected/$name.16.png" srgb --embedded --depth 16
done
# The same grey levels and profile in a lossless 16-bit JPEG XL: decoded, they must equal the PNG's.
cjxl -d 0 "$out/images/png_grey16_linear.png" "$out/images/jxl_grey16_linear.jxl" >/dev/null 2>&1
