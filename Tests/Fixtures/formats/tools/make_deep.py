"""Writes the sources of make_deep.sh: 16-bit PNG ramps (to WORK) for the HEIF encoders, and (to IMAGES) TIFFs of
32-bit float and unsigned samples and 16-bit grey PNG and TIFF files tagged with a grey profile, packed by hand with
the standard library. Usage: make_deep.py WORK IMAGES GREY_PROFILE"""
import struct
import sys
import zlib

work, images, profile_path = sys.argv[1:4]
profile = open(profile_path, "rb").read()


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(path, width, height, channels, pixel, icc=None):
    """A 16-bit PNG: channels 1 (grey), 3 (RGB) or 4 (RGBA); pixel(x, y) gives the samples."""
    color_type = {1: 0, 3: 2, 4: 6}[channels]
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows += struct.pack(">%dH" % channels, *pixel(x, y)[:channels])
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, color_type, 0, 0, 0))
    if icc is not None:
        data += chunk(b"iCCP", b"grey\x00\x00" + zlib.compress(icc))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)


def tiff(path, width, height, photometric, bits, sample_format, fmt, pixel, channels, extra=None, icc=None):
    """A little-endian, Deflate-compressed, one-strip TIFF; pixel(x, y) gives `channels` samples packed with `fmt`."""
    strip = bytearray()
    for y in range(height):
        for x in range(width):
            strip += struct.pack("<%d%s" % (channels, fmt), *pixel(x, y))
    strip = zlib.compress(bytes(strip), 9)
    tags = []  # (tag, type, count, value bytes)

    def add(tag, kind, values):
        code = {"H": 3, "I": 4}[kind] if kind != "B" else 7
        tags.append((tag, code, len(values) if kind != "B" else len(values),
                     struct.pack("<%d%s" % (len(values), kind), *values) if kind != "B" else bytes(values)))

    add(256, "I", [width])
    add(257, "I", [height])
    add(258, "H", [bits] * channels)
    add(259, "H", [8])
    add(262, "H", [photometric])
    add(273, "I", [0])  # patched below
    add(277, "H", [channels])
    add(278, "I", [height])
    add(279, "I", [len(strip)])
    add(284, "H", [1])
    if extra is not None:
        add(338, "H", [extra])
    add(339, "H", [sample_format] * channels)
    if icc is not None:
        add(34675, "B", list(icc))
    tags.sort()
    ifd_size = 2 + 12 * len(tags) + 4
    data_offset = 8 + ifd_size
    blobs = bytearray()
    entries = bytearray()
    strip_offset_entry = None
    for tag, code, count, value in tags:
        if len(value) <= 4:
            field = value.ljust(4, b"\x00")
        else:
            field = struct.pack("<I", data_offset + len(blobs))
            blobs += value
            if len(blobs) % 2:
                blobs.append(0)
        if tag == 273:
            strip_offset_entry = len(entries) + 8
        entries += struct.pack("<HHI", tag, code, count) + field
    strip_offset = data_offset + len(blobs)
    out = bytearray(b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(tags)) + entries + b"\x00" * 4)
    out[8 + 2 + strip_offset_entry:8 + 2 + strip_offset_entry + 4] = struct.pack("<I", strip_offset)
    out += blobs + strip
    open(path, "wb").write(bytes(out))


def ramp(x, y):
    return (x * 1000 + 77, y * 1300 + 5, 30011, 20000 + x * 700)


png16(work + "/ramp16.png", 64, 48, 3, ramp)
png16(work + "/ramp16_alpha.png", 64, 48, 4, ramp)


def linear(x, y):
    # Some values below 0 and above 1, which are clamped.
    return (x / 28 - 0.05, y / 21, 0.25 + x * y / 2000, 0.1 + x / 40)


tiff(images + "/tiff_float_rgb.tif", 32, 24, 2, 32, 3, "f", lambda x, y: linear(x, y)[:3], 3)
tiff(images + "/tiff_float_rgba.tif", 32, 24, 2, 32, 3, "f", linear, 4, extra=2)
tiff(images + "/tiff_float_grey.tif", 32, 24, 1, 32, 3, "f", lambda x, y: linear(x, y)[:1], 1)
tiff(images + "/tiff_uint32_rgb.tif", 32, 24, 2, 32, 1, "I",
     lambda x, y: (x * 130_000_000 + y * 1000 + 7, y * 170_000_000 + 65_535, 4_294_967_295 - x * y * 99_999), 3)
grey = lambda x, y: ((x * 1000 + y * 700 + 3) % 65536,)
png16(images + "/png_grey16_linear.png", 64, 48, 1, grey, icc=profile)
tiff(images + "/tiff_grey16_linear.tif", 64, 48, 1, 16, 1, "H", grey, 1, icc=profile)
