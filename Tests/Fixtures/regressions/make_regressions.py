#!/usr/bin/env python3
"""Makes the header-mutation regression files: corpus images whose header claims a zero or absurd size but which
otherwise parse (checksums fixed), as found by mutating corpus files. Run from Tests/Fixtures.

progressive_6000.jpg (a 6000x6000 grey progressive JPEG) was saved with Pillow instead:
Image.new("L", (6000, 6000), 128).save(path, progressive=True, quality=10)."""
import struct
import zlib

SRC = "corpus/images/"
OUT = "regressions/"


def jpeg(name, source, width, height):
    data = bytearray(open(SRC + source, "rb").read())
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            data[i + 5:i + 9] = struct.pack(">HH", height, width)
            break
        i += 2 + length
    open(OUT + name, "wb").write(data)


def png(name, source, width, height):
    data = bytearray(open(SRC + source, "rb").read())
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    open(OUT + name, "wb").write(data)


def gif(name, source, width, height):
    data = bytearray(open(SRC + source, "rb").read())
    data[6:10] = struct.pack("<HH", width, height)
    open(OUT + name, "wb").write(data)


def webp_vp8x(name, source, width, height):
    data = bytearray(open(SRC + source, "rb").read())
    assert data[12:16] == b"VP8X"
    data[24:27] = struct.pack("<I", width - 1)[:3]
    data[27:30] = struct.pack("<I", height - 1)[:3]
    open(OUT + name, "wb").write(data)


def webp_vp8(name, source, width, height):
    data = bytearray(open(SRC + source, "rb").read())
    assert data[12:16] == b"VP8 "
    data[26:28] = struct.pack("<H", width & 0x3FFF)
    data[28:30] = struct.pack("<H", height & 0x3FFF)
    open(OUT + name, "wb").write(data)


jpeg("jpeg_0x0.jpg", "gen_baseline_420.jpg", 0, 0)
jpeg("jpeg_80x0.jpg", "gen_baseline_420.jpg", 80, 0)
png("png_0x0.png", "gen_alpha.png", 0, 0)
png("png_80x0.png", "gen_alpha.png", 80, 0)
png("png_0x16777056.png", "gen_alpha.png", 0, 16777056)
png("png_huge.png", "gen_alpha.png", 0x7FFFFFFF, 0x7FFFFFFF)
gif("gif_0x0.gif", "gen_still.gif", 0, 0)
gif("gif_80x0.gif", "gen_anim.gif", 80, 0)
webp_vp8x("webp_vp8x_1x16777216.webp", "gen_anim.webp", 1, 16777216)
webp_vp8x("webp_vp8x_16777216x16777216.webp", "gen_anim.webp", 16777216, 16777216)
webp_vp8("webp_vp8_0x0.webp", "webp_small_31x13.webp", 0, 0)


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def tiny_png(name, width, height):
    pixel = lambda x, y: bytes((x * 60 % 256, y * 90 % 256, 200, 255))
    rows = b"".join(b"\x00" + b"".join(pixel(x, y) for x in range(width)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    open(OUT + name, "wb").write(data)


def tiny_gif(name):
    """A 2x1 GIF: a two-colour global palette, one image, LZW minimum code size 2."""
    header = b"GIF89a" + struct.pack("<HHBBB", 2, 1, 0x80, 0, 0) + b"\xff\x00\x00\x00\x00\xff"
    image = b"\x2c" + struct.pack("<HHHHB", 0, 0, 2, 1, 0)
    # LZW: clear (4), 0, 1, end (5), 3-bit codes packed LSB first.
    codes, bits, nbits = [4, 0, 1, 5], 0, 0
    out = bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += 3
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    data = header + image + b"\x02" + bytes([len(out)]) + bytes(out) + b"\x00" + b"\x3b"
    open(OUT + name, "wb").write(data)


tiny_png("one_pixel.png", 1, 1)
tiny_png("two_by_two.png", 2, 2)
tiny_gif("two_by_one.gif")
