#!/bin/sh
# Makes the JPEG XL fixtures (jxl_*) with libjxl's cjxl and their references with djxl, and the grey-profile JPEGs
# (jpeg_gray_linear, jpeg_gray_lstar; and the reference of jpeg_gray_profile) with references from libvips'
# `icc_transform` (run from anywhere; needs libjxl-tools, imagemagick, libvips-tools, liblcms2-dev, python3).
# Sources are the synthetic pictures of make_sources.py. References are RGBA PNGs without a profile, converted to
# sRGB by vips where the file carries another colour space.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/images" "$out/expected"
python3 "$here/make_sources.py" "$work"
cd "$work"
# The reference of FILE (a JPEG XL) as djxl decodes it, reduced to 8 bits by ImageMagick (djxl 0.7's own
# --bits_per_sample=8 writes a broken PNG), with the profile applied when $2 is "icc".
reference() {
    djxl "$out/images/$1" "$work/ref.png" >/dev/null 2>&1
    if [ "${2:-}" = icc ]; then vips icc_transform "$work/ref.png" "$work/ref2.png" srgb; mv "$work/ref2.png" "$work/ref.png"; fi
    convert "$work/ref.png" -depth 8 -strip "PNG32:$out/expected/$1.png"
}

# A JPEG with an EXIF orientation of 6 (right-top), packed by hand.
convert src_rgb.png -quality 90 src.jpg
python3 - <<'PY'
import struct
data = open("src.jpg", "rb").read()
tiff = b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHII", 0x0112, 3, 1, 6) + struct.pack("<I", 0)
payload = b"Exif\x00\x00" + tiff
open("o6.jpg", "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:])
PY
# 16-bit samples that are no multiple of 257; -strip drops the gAMA chunk, which cjxl would take for a gamma curve.
convert src_rgb.png -depth 16 -evaluate multiply 0.9973 -evaluate add 97 -strip PNG48:src16.png
convert src_rgb.png -colorspace Gray -depth 8 -strip -define png:color-type=0 grey.png
convert -delay 10 src_frame0.png src_frame1.png -delay 25 src_frame2.png src_frame3.png -loop 0 anim.gif
convert src_rgb.png -profile "$out/DisplayP3.icc" p3.png

cjxl -d 1 -e 7 src_rgb.png "$out/images/jxl_lossy.jxl" >/dev/null 2>&1
cjxl -d 0 src_rgb.png "$out/images/jxl_lossless.jxl" >/dev/null 2>&1
cjxl -d 0 src16.png "$out/images/jxl_16bit.jxl" >/dev/null 2>&1
cjxl -d 1 src_alpha.png "$out/images/jxl_alpha.jxl" >/dev/null 2>&1
cjxl -d 0 grey.png "$out/images/jxl_grey.jxl" >/dev/null 2>&1
cjxl -d 1 src_odd.png "$out/images/jxl_odd.jxl" >/dev/null 2>&1
cjxl -d 0 anim.gif "$out/images/jxl_anim.jxl" >/dev/null 2>&1
cjxl -j 0 -d 1 o6.jpg "$out/images/jxl_orient6.jxl" >/dev/null 2>&1
cjxl src.jpg "$out/images/jxl_jpeg_recon.jxl" >/dev/null 2>&1
cjxl -d 0 p3.png "$out/images/jxl_p3_lossless.jxl" >/dev/null 2>&1
cjxl -d 1 p3.png "$out/images/jxl_p3_lossy.jxl" >/dev/null 2>&1
for name in jxl_lossy jxl_lossless jxl_16bit jxl_alpha jxl_grey jxl_odd jxl_anim jxl_orient6 jxl_jpeg_recon; do
    reference "$name.jxl"
done
reference jxl_p3_lossless.jxl icc
reference jxl_p3_lossy.jxl icc

# Greyscale JPEGs tagged (not converted) with a linear and an L* grey profile (tools/make_grey_profiles.c).
cc "$here/make_grey_profiles.c" -llcms2 -lm -o make_grey_profiles
./make_grey_profiles linear.icc lstar.icc
convert src_rgb.png -colorspace Gray -quality 95 grey.jpg
convert grey.jpg -profile linear.icc "$out/images/jpeg_gray_linear.jpg"
convert grey.jpg -profile lstar.icc "$out/images/jpeg_gray_lstar.jpg"
for name in jpeg_gray_linear jpeg_gray_lstar jpeg_gray_profile; do
    vips icc_transform "$out/images/$name.jpg" "$work/$name.png" srgb
    convert "$work/$name.png" -strip "PNG32:$out/expected/$name.jpg.png"
done
