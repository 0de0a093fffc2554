"""Writes the TIFF fixtures and their reference decodes.

Usage: python3 make_tiff.py [OUT]   (OUT defaults to the formats fixture folder; needs Pillow and libtiff-tools)

Pillow (with the libtiff it bundles) writes the files it can: 8-bit RGB uncompressed, LZW, Deflate, PackBits and JPEG;
RGBA with unassociated alpha and RGBa with associated alpha; grey 8-bit, grey with alpha and 16-bit; bilevel (CCITT
Group 4); a palette; CMYK with and without an ICC profile; an Orientation tag of 6; two pages. The 16-bit big-endian
RGB file and the associated-alpha one (Pillow cannot write RGBa) are packed here by hand with `struct`. Debian's `tiffcp` (libtiff-tools, used only here) makes the
big-endian, tiled and planar copies. Every reference is Pillow's decode of the written file, saved as an RGBA PNG,
with these corrections:
- 16-bit samples: Pillow keeps grey as 16-bit integers, which the script scales to 8 bits as (v + 128) // 257; it
  reads 16-bit RGB by keeping the high byte; libtiff's own scaling differs from both by one step at most (hence the
  `lossless` tolerance of 2);
- Orientation: Pillow does not apply it on open, so the reference is `ImageOps.exif_transpose` of the decode;
- the CMYK file with a profile: converted to sRGB by Pillow's ImageCms (lcms2), perceptual intent.
Prints the manifest entries to add to ../manifest.json.
"""
import io
import json
import os
import struct
import subprocess
import sys

from PIL import Image, ImageCms, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(HERE)
W, H = 37, 23
entries = []


def picture(width, height, alpha=False):
    """A small picture with gradients, blocks and a disc; with alpha, a horizontal ramp in the lower half."""
    image = Image.new("RGBA", (width, height))
    for y in range(height):
        for x in range(width):
            r, g, b = int(40 + 200 * x / (width - 1)), int(60 + 150 * y / (height - 1)), 160
            if (x - width * 0.7) ** 2 + (y - height * 0.35) ** 2 < (height * 0.25) ** 2:
                r, g, b = 250, 210, 40
            if x < width // 4 and y > height // 2:
                r, g, b = 200, 20, 30
            a = 255 if not alpha or y < height // 2 else int(255 * x / (width - 1))
            image.putpixel((x, y), (r, g, b, a))
    return image


def path(name):
    return os.path.join(OUT, "images", name)


def reference(name, decoded, note, tolerance="lossless", frames=1):
    """Saves the reference decode and records the manifest entry, checking the file stays small."""
    assert os.path.getsize(path(name)) < 20_000, name
    decoded.convert("RGBA").save(os.path.join(OUT, "expected", name + ".png"), icc_profile=None)
    entries.append({"file": f"images/{name}", "format": "tiff", "expect": "decode", "tolerance": tolerance,
                    "frames": frames, "width": decoded.width, "height": decoded.height,
                    "reference": f"expected/{name}.png", "note": note})


def save(name, image, note, tolerance="lossless", **options):
    image.save(path(name), format="TIFF", **options)
    reference(name, Image.open(path(name)), note, tolerance)


def tiffcp(source, name, note, *arguments):
    subprocess.run(["tiffcp", *arguments, path(source), path(name)], check=True)
    reference(name, Image.open(path(name)), note)


def scaled16(decoded):
    """A 16-bit grey decode as 8-bit grey, rounded."""
    values = struct.unpack(f"<{decoded.width * decoded.height}H", decoded.tobytes())
    grey = Image.new("L", decoded.size)
    grey.putdata([(v + 128) // 257 for v in values])
    return grey


def packed(width, height, samples, bits, pixels, extra=None, order=">"):
    """A baseline RGB TIFF, uncompressed in one strip: `samples` samples of `bits` bits per pixel, `extra` the
    ExtraSamples value of the fourth, in byte order `order`."""
    fields = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, samples, "bits"), (259, 3, 1, 1), (262, 3, 1, 2),
              (273, 4, 1, "pixels"), (277, 3, 1, samples), (278, 4, 1, height), (279, 4, 1, len(pixels))]
    if extra is not None:
        fields.append((338, 3, 1, extra))
    bits_at = 8 + 2 + 12 * len(fields) + 4
    pixels_at = bits_at + 2 * samples
    out = io.BytesIO()
    out.write((b"MM\x00\x2a" if order == ">" else b"II\x2a\x00") + struct.pack(order + "IH", 8, len(fields)))
    for tag, kind, count, value in fields:
        value = {"bits": bits_at, "pixels": pixels_at}.get(value, value)
        if kind == 3 and count == 1:
            out.write(struct.pack(order + "HHIHH", tag, kind, count, value, 0))
        else:
            out.write(struct.pack(order + "HHII", tag, kind, count, value))
    out.write(struct.pack(order + "I", 0) + struct.pack(order + f"{samples}H", *[bits] * samples) + pixels)
    return out.getvalue()


def write(name, data, note):
    with open(path(name), "wb") as out:
        out.write(data)
    reference(name, Image.open(path(name)), note)


os.makedirs(os.path.join(OUT, "images"), exist_ok=True)
os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
rgb = picture(W, H).convert("RGB")
rgba = picture(W, H, alpha=True)
save("tiff_rgb_none.tif", rgb, "8-bit RGB, uncompressed", compression="raw")
save("tiff_rgb_lzw.tif", rgb, "8-bit RGB, LZW", compression="tiff_lzw")
save("tiff_rgb_deflate.tif", rgb, "8-bit RGB, Deflate", compression="tiff_adobe_deflate")
save("tiff_rgb_packbits.tif", rgb, "8-bit RGB, PackBits", compression="packbits")
save("tiff_rgb_jpeg.tif", rgb, "8-bit RGB, JPEG (YCbCr 4:2:0) compression", "lossy", compression="jpeg", quality=90)
save("tiff_rgba_unassociated.tif", rgba, "RGBA, ExtraSamples 2 (unassociated alpha), LZW", compression="tiff_lzw")
straight = rgba.tobytes()
premultiplied = bytes(v if i % 4 == 3 else round(v * straight[i | 3] / 255) for i, v in enumerate(straight))
write("tiff_rgba_associated.tif", packed(W, H, 4, 8, premultiplied, extra=1, order="<"),
      "RGBA, ExtraSamples 1 (associated alpha), uncompressed")
save("tiff_gray8.tif", rgb.convert("L"), "8-bit grey, Deflate", compression="tiff_adobe_deflate")
save("tiff_gray_alpha.tif", rgba.convert("LA"), "8-bit grey and unassociated alpha, LZW", compression="tiff_lzw")
save("tiff_bilevel.tif", rgb.convert("L").point(lambda v: 255 if v > 128 else 0).convert("1"),
     "1-bit bilevel, CCITT Group 4", compression="group4")
save("tiff_palette.tif", rgb.quantize(16), "4-bit palette (16 colours), LZW", compression="tiff_lzw")
save("tiff_cmyk.tif", rgb.convert("CMYK"), "8-bit CMYK without a profile, LZW", compression="tiff_lzw")

gray16 = Image.new("I;16", (W, H))
gray16.putdata([(x * 1700 + y * 900 + 37) % 65536 for y in range(H) for x in range(W)])
gray16.save(path("tiff_gray16.tif"), format="TIFF", compression="tiff_adobe_deflate")
reference("tiff_gray16.tif", scaled16(Image.open(path("tiff_gray16.tif"))), "16-bit grey, Deflate")

# The picture spread over 16 bits, with a ramp in the low bytes.
wide = b"".join(struct.pack(">3H", *(c * 256 + (x * 7 + y * 3) % 256 for c in rgb.getpixel((x, y))))
                for y in range(H) for x in range(W))
write("tiff_rgb16_be.tif", packed(W, H, 3, 16, wide), "16-bit RGB, big-endian, uncompressed")

profile = Image.open(os.path.join(OUT, "images", "jpeg_cmyk_profile.jpg")).info["icc_profile"]
cmyk = rgb.convert("CMYK")
cmyk.save(path("tiff_cmyk_profile.tif"), format="TIFF", compression="tiff_lzw", icc_profile=profile)
srgb = ImageCms.profileToProfile(Image.open(path("tiff_cmyk_profile.tif")), ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                 ImageCms.createProfile("sRGB"), outputMode="RGB")
reference("tiff_cmyk_profile.tif", srgb, "8-bit CMYK with an embedded CMYK profile, LZW", "icc-cmyk")

rgb.save(path("tiff_orientation6.tif"), format="TIFF", compression="tiff_lzw", tiffinfo={274: 6})
reference("tiff_orientation6.tif", ImageOps.exif_transpose(Image.open(path("tiff_orientation6.tif"))),
          "8-bit RGB, LZW, Orientation 6 (shown turned 90 degrees clockwise)")

rgb.save(path("tiff_pages.tif"), format="TIFF", compression="tiff_lzw", save_all=True,
         append_images=[picture(11, 7, alpha=True)])
reference("tiff_pages.tif", Image.open(path("tiff_pages.tif")), "two pages (37x23 RGB, 11x7 RGBA), LZW; the first")

tiffcp("tiff_rgba_unassociated.tif", "tiff_rgba_be.tif", "RGBA, unassociated alpha, big-endian (tiffcp -B)",
       "-B", "-c", "lzw")
tiffcp("tiff_rgba_unassociated.tif", "tiff_tiled.tif", "RGBA in 16x16 tiles (partial at the edges), Deflate",
       "-t", "-w", "16", "-l", "16", "-c", "zip")
tiffcp("tiff_rgb_none.tif", "tiff_planar.tif", "8-bit RGB in separate planes (tiffcp -p separate), PackBits",
       "-p", "separate", "-c", "packbits")
print(json.dumps(entries, indent=1))
