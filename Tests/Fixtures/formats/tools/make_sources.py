"""Writes the uncompressed source pictures of the formats fixtures as PNG (standard library only)."""
import math
import struct
import sys
import zlib


def write_png(path, width, height, pixels, alpha):
    """pixels: function (x, y) -> (r, g, b, a)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            r, g, b, a = pixels(x, y)
            rows += bytes((r, g, b, a) if alpha else (r, g, b))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
                  + chunk(b"IEND", b""))


def scene(width, height, shift=0):
    """A smooth photo-like picture: a sky gradient, a sun, a saturated red and green block, hills."""
    def pixel(x, y):
        u, v = x / (width - 1), y / (height - 1)
        r, g, b = int(70 + 120 * v), int(130 + 80 * v), int(230 - 60 * v)
        if (x - width * 0.7 - shift) ** 2 + (y - height * 0.3) ** 2 < (height * 0.15) ** 2:
            r, g, b = 250, 220, 60
        if v > 0.6 + 0.1 * math.sin(u * 6 + shift / 8):
            r, g, b = int(40 + 60 * u), int(150 - 40 * v), 50
        if 0.1 < u < 0.3 and 0.1 < v < 0.35:
            r, g, b = 230, 20, 30
        if 0.35 < u < 0.5 and 0.1 < v < 0.35:
            r, g, b = 20, 210, 40
        return r, g, b, 255
    return pixel


def with_alpha(pixel, width, height):
    def wrapped(x, y):
        r, g, b, _ = pixel(x, y)
        a = max(0, min(255, int(255 * (1 - x / (width - 1))) if y > height // 3 else 255))
        return r, g, b, a
    return wrapped


out = sys.argv[1]
write_png(f"{out}/src_rgb.png", 128, 96, scene(128, 96), False)
write_png(f"{out}/src_alpha.png", 128, 96, with_alpha(scene(128, 96), 128, 96), True)
write_png(f"{out}/src_odd.png", 37, 23, scene(37, 23), False)
for frame in range(4):
    write_png(f"{out}/src_frame{frame}.png", 64, 48, scene(64, 48, shift=frame * 8 - 12), False)
