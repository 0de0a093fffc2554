#!/bin/sh
# Makes the metadata fixtures (jxl_meta_*, heic_meta) with libjxl's cjxl and libheif's heif-enc, and their references
# with djxl and heif-convert (run from anywhere; needs libjxl-tools, libheif-examples, imagemagick, python3). All
# carry the same EXIF block (Orientation 6, Artist, Copyright, little-endian) and XMP packet (dc:creator):
# - jxl_meta_brob.jxl: cjxl's lossless recompression of a JPEG whose APP1 segments hold them; cjxl stores them in
#   Brotli-compressed `brob` boxes (and, from the EXIF, orientation 6 in the codestream).
# - jxl_meta_plain.jxl: a JPEG without metadata re-encoded by cjxl (a bare codestream, orientation 1), wrapped here
#   in a container with an uncompressed `Exif` box before the codestream and an `xml ` box after it. Its EXIF says 6
#   but its codestream says 1: the picture stays as stored.
# - heic_meta.heic: heif-enc's encode of the same JPEG, which copies both into the file's `Exif` and XMP (`mime`)
#   items, and leaves the pixels as stored (no `irot`): HEIF's EXIF orientation is not applied.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/images" "$out/expected"
python3 "$here/make_sources.py" "$work"
cd "$work"
convert src_rgb.png -quality 90 plain.jpg
python3 - <<'PY'
import struct
artist, copyright = b"Jane Doe\x00", b"(c) 2026 Jane Doe\x00"
data_offset = 8 + 2 + 3 * 12 + 4
tiff = b"II*\x00" + struct.pack("<IH", 8, 3)
tiff += struct.pack("<HHII", 0x0112, 3, 1, 6)
tiff += struct.pack("<HHII", 0x013B, 2, len(artist), data_offset)
tiff += struct.pack("<HHII", 0x8298, 2, len(copyright), data_offset + len(artist))
tiff += struct.pack("<I", 0) + artist + copyright
xmp = (b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>'
       b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
       b'<dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>'
       b'</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>')
open("exif.bin", "wb").write(tiff)
open("xmp.bin", "wb").write(xmp)
def segment(payload):
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
jpeg = open("plain.jpg", "rb").read()
app1 = segment(b"Exif\x00\x00" + tiff) + segment(b"http://ns.adobe.com/xap/1.0/\x00" + xmp)
open("meta.jpg", "wb").write(jpeg[:2] + app1 + jpeg[2:])
PY
cjxl meta.jpg "$out/images/jxl_meta_brob.jxl" >/dev/null 2>&1
cjxl -j 0 -d 1 plain.jpg bare.jxl >/dev/null 2>&1
python3 - "$out/images/jxl_meta_plain.jxl" <<'PY'
import struct, sys
def box(kind, payload):
    return struct.pack(">I", len(payload) + 8) + kind + payload
codestream = open("bare.jxl", "rb").read()
assert codestream[:2] == b"\xff\x0a"
signature = box(b"JXL ", b"\r\n\x87\n") + box(b"ftyp", b"jxl \x00\x00\x00\x00jxl ")
exif = box(b"Exif", struct.pack(">I", 0) + open("exif.bin", "rb").read())
open(sys.argv[1], "wb").write(signature + exif + box(b"jxlc", codestream) + box(b"xml ", open("xmp.bin", "rb").read()))
PY
heif-enc -q 90 meta.jpg -o "$out/images/heic_meta.heic" >/dev/null
heif-convert "$out/images/heic_meta.heic" "$work/ref.png" >/dev/null
convert "$work/ref.png" -strip "PNG32:$out/expected/heic_meta.heic.png"
for name in jxl_meta_brob jxl_meta_plain; do
    djxl "$out/images/$name.jxl" "$work/ref.png" >/dev/null 2>&1
    convert "$work/ref.png" -depth 8 -strip "PNG32:$out/expected/$name.jxl.png"
done
