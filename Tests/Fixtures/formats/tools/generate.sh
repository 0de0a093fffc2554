#!/bin/sh
# Regenerates Tests/Fixtures/formats from nothing but Debian's tools (run from anywhere; needs libavif-bin,
# libheif-examples, imagemagick, liblcms2-dev, libgs-common for ghostscript's CMYK profile, python3).
# Sources are synthetic pictures (make_sources.py); references come from the formats' own tools: avifdec,
# heif-convert, and ImageMagick's lcms2-backed `-profile` for colour conversion to sRGB.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
srgb=/usr/share/color/icc/colord/sRGB.icc
adobe=/usr/share/color/icc/colord/AdobeRGB1998.icc
prophoto=/usr/share/color/icc/colord/ProPhotoRGB.icc
cmyk=/usr/share/color/icc/ghostscript/ps_cmyk.icc
mkdir -p "$out/images" "$out/expected"

python3 "$here/make_sources.py" "$work"
cc "$here/make_p3_profile.c" -llcms2 -o "$work/make_p3_profile"
"$work/make_p3_profile" "$out/DisplayP3.icc"
p3="$out/DisplayP3.icc"

# AVIF: 8, 10 and 12 bits, alpha, odd size, a 4-frame sequence, irot/imir, an ICC profile.
avif() { avifenc -s 8 --min 8 --max 8 --minalpha 0 --maxalpha 0 "$@" >/dev/null; }
avif -y 420 "$work/src_rgb.png" "$out/images/avif_8bit.avif"
avif -d 10 -y 420 "$work/src_rgb.png" "$out/images/avif_10bit.avif"
avif -d 12 -y 444 "$work/src_rgb.png" "$out/images/avif_12bit.avif"
avif -y 444 "$work/src_alpha.png" "$out/images/avif_alpha.avif"
avif -y 420 "$work/src_odd.png" "$out/images/avif_odd.avif"
avif --timescale 1000 --duration 100 "$work/src_frame0.png" "$work/src_frame1.png" --duration 250 \
    "$work/src_frame2.png" "$work/src_frame3.png" "$out/images/avif_anim.avif"
avif -y 420 --irot 1 "$work/src_rgb.png" "$out/images/avif_irot1.avif"
avif -y 420 --imir 1 "$work/src_rgb.png" "$out/images/avif_imir1.avif"
avif -y 420 --irot 3 --imir 0 "$work/src_rgb.png" "$out/images/avif_irot3_imir0.avif"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$p3" "$work/p3.png"
avif -y 444 --icc "$p3" "$work/p3.png" "$out/images/avif_p3.avif"
for name in avif_8bit avif_10bit avif_12bit avif_alpha avif_odd avif_anim; do
    avifdec -d 8 "$out/images/$name.avif" "$work/$name.png" >/dev/null
    convert "$work/$name.png" -strip "PNG32:$out/expected/$name.avif.png"
done
# avifdec leaves irot/imir to the viewer; libheif applies them, so it makes the references of the rotated files.
for name in avif_irot1 avif_imir1 avif_irot3_imir0; do
    heif-convert "$out/images/$name.avif" "$work/$name.png" >/dev/null
    convert "$work/$name.png" -strip "PNG32:$out/expected/$name.avif.png"
done
avifdec -d 8 "$out/images/avif_p3.avif" "$work/avif_p3.png" >/dev/null
convert "$work/avif_p3.png" -profile "$srgb" -strip "PNG32:$out/expected/avif_p3.avif.png"
# AVIF with a 32-pixel thumbnail (libavif cannot write one; libheif can, with its AV1 encoder).
heif-enc -A -q 90 -t 32 "$work/src_rgb.png" -o "$out/images/avif_thumb.avif" >/dev/null
avifdec -d 8 "$out/images/avif_thumb.avif" "$work/avif_thumb.png" >/dev/null
convert "$work/avif_thumb.png" -strip "PNG32:$out/expected/avif_thumb.avif.png"

# HEIC: opaque, alpha, with a 32-pixel thumbnail, with an ICC profile.
heif-enc -q 90 "$work/src_rgb.png" -o "$out/images/heic_rgb.heic" >/dev/null
heif-enc -q 90 "$work/src_alpha.png" -o "$out/images/heic_alpha.heic" >/dev/null
heif-enc -q 90 -t 32 "$work/src_rgb.png" -o "$out/images/heic_thumb.heic" >/dev/null
heif-enc -q 90 "$work/p3.png" -o "$out/images/heic_p3.heic" >/dev/null
for name in heic_rgb heic_alpha heic_thumb; do
    heif-convert "$out/images/$name.heic" "$work/$name.png" >/dev/null
    convert "$work/$name.png" -strip "PNG32:$out/expected/$name.heic.png"
done
heif-convert "$out/images/heic_p3.heic" "$work/heic_p3.png" >/dev/null
convert "$work/heic_p3.png" -profile "$p3" -profile "$srgb" -strip "PNG32:$out/expected/heic_p3.heic.png"

# Wide-gamut and CMYK JPEG, PNG and WebP with embedded profiles; references converted to sRGB by lcms2.
convert "$work/src_rgb.png" -profile "$srgb" -profile "$p3" -quality 95 "$out/images/jpeg_p3.jpg"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$adobe" -quality 95 "$out/images/jpeg_adobergb.jpg"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$prophoto" -quality 95 "$out/images/jpeg_prophoto.jpg"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$cmyk" -quality 95 "$out/images/jpeg_cmyk_profile.jpg"
convert "$work/src_rgb.png" -profile "$srgb" -quality 95 "$out/images/jpeg_srgb_profile.jpg"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$p3" "$out/images/png_p3.png"
convert "$work/src_alpha.png" -profile "$srgb" -profile "$adobe" "$out/images/png_adobergb_alpha.png"
convert "$work/src_rgb.png" -profile "$srgb" -profile "$p3" -define webp:lossless=true "$out/images/webp_p3.webp"
# A greyscale JPEG with ghostscript's sGray profile; its reference (the profile applied to the grey levels) is made
# by make_jxl_grey.sh with vips, below.
convert "$work/src_rgb.png" -colorspace Gray -profile /usr/share/color/icc/ghostscript/sgray.icc -quality 95 \
    "$out/images/jpeg_gray_profile.jpg"
for file in jpeg_p3.jpg jpeg_adobergb.jpg jpeg_prophoto.jpg jpeg_cmyk_profile.jpg jpeg_srgb_profile.jpg \
    png_p3.png png_adobergb_alpha.png webp_p3.webp; do
    convert "$out/images/$file" -profile "$srgb" -strip "PNG32:$out/expected/$file.png"
done

# JPEG XL (cjxl, references djxl) and the grey-profile JPEGs (references vips).
"$here/make_jxl_grey.sh"
"$here/make_metadata.sh"
