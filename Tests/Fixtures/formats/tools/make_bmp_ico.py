"""Writes the BMP, ICO and CUR fixtures and their reference decodes.

Usage: python3 make_bmp_ico.py [OUT]   (OUT defaults to the formats fixture folder; needs Pillow)

Pillow writes what it can (24-bit and 8-bit BMP, ICO with PNG entries and with a 32-bit bitmap entry); the variants it
cannot write (1- and 4-bit palettes, RLE8, RLE4, bit fields, V5 headers, top-down rows, OS/2 headers, AND masks,
cursors) are packed here by hand with `struct`. Every reference is Pillow's decode of the written file, saved as an
RGBA PNG, with two documented corrections:
- run-length files: palette index 0 is used only for the pixels the runs skip (deltas, early ends of line), which
  browsers leave transparent and Pillow paints with index 0; those pixels are made transparent in the reference;
- the V5 file with a Display P3 profile: Pillow ignores BMP profiles, so its pixels are converted to sRGB with
  Pillow's ImageCms (lcms2);
- the cursor: Pillow's CUR reader ignores the AND mask, so the reference is its ICO reader's decode of the same bytes
  with the directory type set to 1 (icon).
Prints the manifest entries to add to ../manifest.json.
"""
import io
import json
import math
import os
import struct
import sys

from PIL import Image, ImageCms

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


def indexed(width, height, colours):
    """Palette indices 1..colours-1 in bands and a checkered block (index 0 is left for skipped pixels)."""
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            index = 1 + (x // 5 + y // 4) % (colours - 1)
            if 10 <= x < 18 and 5 <= y < 12:
                index = 1 + (x + y) % (colours - 1)
            row.append(index)
        rows.append(row)
    return rows


def palette(colours):
    return [(int(127 + 127 * math.sin(i * 1.7)), int(127 + 127 * math.sin(i * 2.3 + 1)), (i * 53) % 256)
            for i in range(colours)]


def bmp(info_header, pixel_data, table=b"", extra=b""):
    """A BMP file: file header, info header, colour table (or masks), pixels, then `extra` (an ICC profile)."""
    offset = 14 + len(info_header) + len(table)
    size = offset + len(pixel_data) + len(extra)
    return b"BM" + struct.pack("<IHHI", size, 0, 0, offset) + info_header + table + pixel_data + extra


def info_header(width, height, bits, compression=0, image_size=0, colours=0, size=40):
    return struct.pack("<IiiHHIIiiII", size, width, height, 1, bits, compression, image_size, 2835, 2835, colours, 0)


def v5_header(width, height, bits, compression, masks, image_size, cs_type=0x73524742, profile=(0, 0)):
    header = info_header(width, height, bits, compression, image_size, size=124)
    header += struct.pack("<IIII", *masks) + struct.pack("<I", cs_type) + b"\0" * 48
    return header + struct.pack("<IIII", 4, profile[0], profile[1], 0)


def pack_rows(rows, bits, bottom_up=True):
    """Packs rows of numbers of `bits` bits (1, 4, 8, 16, 24, 32; little-endian for wide ones), padded to 4 bytes."""
    out = bytearray()
    for row in (reversed(rows) if bottom_up else rows):
        line = bytearray()
        if bits < 8:
            for start in range(0, len(row), 8 // bits):
                byte = 0
                for i, value in enumerate(row[start:start + 8 // bits]):
                    byte |= value << (8 - bits * (i + 1))
                line.append(byte)
        else:
            for value in row:
                line += value.to_bytes(bits // 8, "little")
        out += line + b"\0" * (-len(line) % 4)
    return bytes(out)


def table(colours, entry=4):
    return b"".join(bytes((b, g, r) + (0,) * (entry - 3)) for r, g, b in colours)


def rle(rows, nibbles):
    """RLE8 or RLE4 runs, bottom-up; index 0 marks skipped pixels, written as deltas and early ends of line.
    The last row ends with the end-of-bitmap escape, without an end of line before it."""
    out = bytearray()
    rows = list(reversed(rows))
    y = 0
    while y < len(rows):
        row = rows[y]
        if all(v == 0 for v in row):
            skip = 1
            while y + skip < len(rows) and all(v == 0 for v in rows[y + skip]):
                skip += 1
            y += skip
            out += bytes((0, 2, 0, skip)) if y < len(rows) else bytes((0, 1))
            continue
        x = 0
        while x < len(row):
            if row[x] == 0:
                end = x
                while end < len(row) and row[end] == 0:
                    end += 1
                if end == len(row):
                    break
                out += bytes((0, 2, end - x, 0))
                x = end
                continue
            run = 1
            while x + run < len(row) and row[x + run] == row[x] and run < 255:
                run += 1
            if run >= 3:
                out += bytes((run, row[x] * 17 if nibbles else row[x]))
                x += run
                continue
            literal = x
            while literal < len(row) and row[literal] != 0 and literal - x < 254:
                if literal + 2 < len(row) and row[literal] == row[literal + 1] == row[literal + 2]:
                    break
                literal += 1
            count = literal - x
            if count < 3:
                out += bytes((1, row[x] * 17 if nibbles else row[x]))
                x += 1
                continue
            values = row[x:literal]
            if nibbles:
                data = bytes((values[i] << 4 | (values[i + 1] if i + 1 < count else 0)) for i in range(0, count, 2))
            else:
                data = bytes(values)
            out += bytes((0, count)) + data + b"\0" * (len(data) % 2)
            x = literal
        out += bytes((0, 1)) if y == len(rows) - 1 else bytes((0, 0))
        y += 1
    return bytes(out)


def reference(name, decoded, note, fmt, tolerance="lossless"):
    """Saves Pillow's decode as the reference and records the manifest entry."""
    decoded.convert("RGBA").save(os.path.join(OUT, "expected", name + ".png"), icc_profile=None)
    entries.append({"file": f"images/{name}", "format": fmt, "expect": "decode", "tolerance": tolerance, "frames": 1,
                    "width": decoded.width, "height": decoded.height, "reference": f"expected/{name}.png",
                    "note": note})


def write(name, data):
    path = os.path.join(OUT, "images", name)
    with open(path, "wb") as out:
        out.write(data)
    assert len(data) < 20_000, (name, len(data))
    return path


def skipped_transparent(path):
    """Pillow's decode of a run-length file, with index 0 (skipped pixels) transparent."""
    image = Image.open(path)
    assert image.mode == "P", image.mode
    rgba = image.convert("RGBA")
    indices = image.load()
    pixels = rgba.load()
    for y in range(image.height):
        for x in range(image.width):
            if indices[x, y] == 0:
                pixels[x, y] = (0, 0, 0, 0)
    return rgba


def bmp_fixtures():
    source = picture(W, H)
    rgba = picture(W, H, alpha=True)

    path = os.path.join(OUT, "images", "bmp_rgb24.bmp")
    source.convert("RGB").save(path)
    reference("bmp_rgb24.bmp", Image.open(path), "24-bit, odd size (row padding); written by Pillow", "bmp")

    path = os.path.join(OUT, "images", "bmp_pal8.bmp")
    source.convert("RGB").quantize(200).save(path)
    reference("bmp_pal8.bmp", Image.open(path), "8-bit palette; written by Pillow", "bmp")

    for bits, colours in ((1, 2), (4, 12)):
        rows = [[(v - 1) % colours for v in row] for row in indexed(W, H, colours + 1)]
        name = f"bmp_pal{bits}.bmp"
        declared = 0 if colours == 1 << bits else colours
        path = write(name, bmp(info_header(W, H, bits, colours=declared), pack_rows(rows, bits),
                               table(palette(colours))))
        reference(name, Image.open(path), f"{bits}-bit palette of {colours} colours", "bmp")

    # Run-length: index 0 skipped, in a rectangle (deltas), at the ends of some rows (early end of line) and in two
    # whole rows (a vertical delta).
    for bits, compression, colours in ((8, 1, 40), (4, 2, 16)):
        rows = indexed(W, H, colours)
        for y in range(H):
            for x in range(W):
                if (20 <= x < 26 and 14 <= y < 18) or (x >= 30 and y % 5 == 1) or y in (8, 9):
                    rows[y][x] = 0
        data = rle(rows, nibbles=bits == 4)
        name = f"bmp_rle{bits}.bmp"
        path = write(name, bmp(info_header(W, H, bits, compression, len(data), colours), data,
                               table(palette(colours))))
        reference(name, skipped_transparent(path),
                  f"RLE{bits}: runs, literals, deltas, early end of line; skipped pixels transparent", "bmp")

    pixels = [[(r >> 3) << 11 | (g >> 2) << 5 | b >> 3 for r, g, b, _ in
               (source.getpixel((x, y)) for x in range(W))] for y in range(H)]
    masks = struct.pack("<III", 0xF800, 0x07E0, 0x001F)
    path = write("bmp_565.bmp", bmp(info_header(W, H, 16, 3), pack_rows(pixels, 16), masks))
    reference("bmp_565.bmp", Image.open(path), "16-bit 5-6-5 BI_BITFIELDS", "bmp")

    pixels = [[(r >> 3) << 10 | (g >> 3) << 5 | b >> 3 for r, g, b, _ in
               (source.getpixel((x, y)) for x in range(W))] for y in range(H)]
    path = write("bmp_555.bmp", bmp(info_header(W, H, 16), pack_rows(pixels, 16)))
    reference("bmp_555.bmp", Image.open(path), "16-bit BI_RGB: the default 5-5-5", "bmp")

    argb = [[a << 24 | r << 16 | g << 8 | b for r, g, b, a in (rgba.getpixel((x, y)) for x in range(W))]
            for y in range(H)]
    data = pack_rows(argb, 32)
    header = v5_header(W, H, 32, 3, (0xFF0000, 0xFF00, 0xFF, 0xFF000000), len(data))
    path = write("bmp_v5_alpha.bmp", bmp(header, data))
    reference("bmp_v5_alpha.bmp", Image.open(path), "32-bit BGRA with a V5 header's alpha mask", "bmp")

    xrgb = [[r << 16 | g << 8 | b for r, g, b, _ in (source.getpixel((x, y)) for x in range(W))] for y in range(H)]
    path = write("bmp_rgb32_zero_alpha.bmp", bmp(info_header(W, H, 32), pack_rows(xrgb, 32)))
    reference("bmp_rgb32_zero_alpha.bmp", Image.open(path), "32-bit BI_RGB whose alpha bytes are 0: opaque", "bmp")

    bgr = [[r << 16 | g << 8 | b for r, g, b, _ in (source.getpixel((x, y)) for x in range(W))] for y in range(H)]
    path = write("bmp_topdown.bmp", bmp(info_header(W, -H, 24), pack_rows(bgr, 24, bottom_up=False)))
    reference("bmp_topdown.bmp", Image.open(path), "24-bit, top-down (negative height)", "bmp")

    rows = indexed(W, H, 64)
    core = struct.pack("<IHHHH", 12, W, H, 1, 8)
    path = write("bmp_os2v1.bmp", bmp(core, pack_rows(rows, 8), table(palette(256), entry=3)))
    reference("bmp_os2v1.bmp", Image.open(path), "OS/2 1.x BITMAPCOREHEADER, 8-bit, 3-byte palette entries", "bmp")

    rows = indexed(W, H, 16)
    os2 = info_header(W, H, 4, size=64) + b"\0" * 24
    path = write("bmp_os2v2.bmp", bmp(os2, pack_rows(rows, 4), table(palette(16))))
    reference("bmp_os2v2.bmp", Image.open(path), "OS/2 2.x 64-byte header, 4-bit", "bmp")

    # Display P3 pixels with the profile embedded after them (PROFILE_EMBEDDED); the reference is converted by lcms2.
    p3_profile = open(os.path.join(OUT, "DisplayP3.icc"), "rb").read()
    srgb = ImageCms.createProfile("sRGB")
    p3 = ImageCms.ImageCmsProfile(io.BytesIO(p3_profile))
    p3_source = ImageCms.profileToProfile(source.convert("RGB"), srgb, p3)
    bgr = [[r << 16 | g << 8 | b for r, g, b in (p3_source.getpixel((x, y)) for x in range(W))] for y in range(H)]
    data = pack_rows(bgr, 24)
    header = v5_header(W, H, 24, 0, (0, 0, 0, 0), len(data), cs_type=0x4D424544,
                       profile=(124 + len(data), len(p3_profile)))
    path = write("bmp_v5_p3.bmp", bmp(header, data, extra=p3_profile))
    decoded = ImageCms.profileToProfile(Image.open(path).convert("RGB"), p3, srgb)
    reference("bmp_v5_p3.bmp", decoded, "24-bit with a V5 header's embedded Display P3 profile", "bmp", "icc")


def icon_bitmap(image, bits, mask, colours=None):
    """An icon entry's bitmap: info header with doubled height, palette, XOR pixels, then the 1-bit AND mask."""
    width, height = image.size
    if bits == 8:
        quantized = image.convert("RGB").quantize(colours)
        pal = (quantized.getpalette() + [0] * colours * 3)[:colours * 3]
        rows = [[quantized.getpixel((x, y)) for x in range(width)] for y in range(height)]
        pal_bytes = table([tuple(pal[i:i + 3]) for i in range(0, colours * 3, 3)])
    else:
        rows = [[r << 16 | g << 8 | b for r, g, b, _ in (image.getpixel((x, y)) for x in range(width))]
                for y in range(height)]
        pal_bytes = b""
    header = info_header(width, height * 2, bits, colours=colours or 0)
    mask_rows = [[1 if mask(x, y) else 0 for x in range(width)] for y in range(height)]
    return header + pal_bytes + pack_rows(rows, bits) + pack_rows(mask_rows, 1)


def icon_file(kind, images):
    """An ICO (kind 1) or CUR (kind 2) directory of (width, height, field4, field6, bytes) entries."""
    out = struct.pack("<HHH", 0, kind, len(images))
    offset = 6 + 16 * len(images)
    for width, height, field4, field6, data in images:
        out += struct.pack("<BBBBHHII", width % 256, height % 256, 0, 0, field4, field6, len(data), offset)
        offset += len(data)
    return out + b"".join(image[4] for image in images)


def ico_fixtures():
    path = os.path.join(OUT, "images", "ico_png.ico")
    picture(32, 32, alpha=True).save(path, sizes=[(16, 16), (32, 32)])
    reference("ico_png.ico", Image.open(path), "two PNG entries (16, 32): the larger; written by Pillow", "ico")

    path = os.path.join(OUT, "images", "ico_bmp32.ico")
    picture(24, 24, alpha=True).save(path, sizes=[(24, 24)], bitmap_format="bmp")
    reference("ico_bmp32.ico", Image.open(path), "32-bit BGRA bitmap entry; written by Pillow", "ico")

    small = icon_bitmap(picture(16, 16), 8, lambda x, y: x < 4, colours=32)
    large = icon_bitmap(picture(W, H), 24, lambda x, y: (x - 18) ** 2 + (y - 11) ** 2 > 100)
    path = write("ico_bmp_mask.ico", icon_file(1, [(16, 16, 1, 8, small), (W, H, 1, 24, large)]))
    reference("ico_bmp_mask.ico", Image.open(path), "bitmap entries (16x16 8-bit, 37x23 24-bit) with AND masks",
              "ico")

    cursor = icon_bitmap(picture(32, 32), 8, lambda x, y: x + y > 40, colours=64)
    path = write("cur_bmp.cur", icon_file(2, [(32, 32, 5, 7, cursor)]))
    # Pillow's CUR reader ignores the AND mask; its ICO reader, given the same bytes as an icon, applies it.
    as_icon = open(path, "rb").read()
    image = Image.open(io.BytesIO(as_icon[:2] + b"\1" + as_icon[3:]))
    reference("cur_bmp.cur", image, "cursor (hotspot 5, 7): 8-bit bitmap with AND mask", "ico")


os.makedirs(os.path.join(OUT, "images"), exist_ok=True)
os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
bmp_fixtures()
ico_fixtures()
print(json.dumps(entries, indent=1))
