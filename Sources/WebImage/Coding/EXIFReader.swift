import Foundation

/// Reads the orientation tag (0x0112) from EXIF data (a TIFF structure, optionally after an `Exif\0\0` prefix), and
/// the JPEG marker segments the decoder needs before decoding.
enum EXIFReader {
    /// The orientation in `exif`, or ``ImageOrientation/up`` when absent or unreadable.
    static func orientation(in exif: UnsafeRawBufferPointer) -> ImageOrientation {
        let tiff = withoutPrefix(exif)
        guard let field = orientationField(inTIFF: tiff) else { return .up }
        let (a, b) = (Int(tiff[field.offset]), Int(tiff[field.offset + 1]))
        return ImageOrientation(rawValue: field.littleEndian ? a | b << 8 : a << 8 | b) ?? .up
    }

    /// `exif` without its `Exif\0\0` prefix, if it has one.
    static func withoutPrefix(_ exif: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard exif.count >= 6, exif.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) else { return exif }
        return UnsafeRawBufferPointer(rebasing: exif[6...])
    }

    /// Where the 16-bit value of the orientation tag (0x0112) of the first IFD of `tiff` is, and the byte order;
    /// `nil` when there is no such tag or the structure is unreadable.
    static func orientationField(inTIFF tiff: UnsafeRawBufferPointer) -> (offset: Int, littleEndian: Bool)? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let (a, b) = (Int(tiff[offset]), Int(tiff[offset + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ offset: Int) -> Int? {
            guard let low = read16(littleEndian ? offset : offset + 2),
                let high = read16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard let ifd = read32(4), let count = read16(ifd) else { return nil }
        for entry in 0..<count {
            let offset = ifd + 2 + entry * 12
            guard let tag = read16(offset) else { return nil }
            if tag == 0x0112 { return read16(offset + 8) == nil ? nil : (offset + 8, littleEndian) }
        }
        return nil
    }

    /// The orientation declared by the first `APP1` Exif segment of a JPEG, or ``ImageOrientation/up``.
    static func jpegOrientation(_ jpeg: UnsafeRawBufferPointer) -> ImageOrientation {
        jpegEXIF(jpeg).map(orientation(in:)) ?? .up
    }

    /// The payload of the first `APP1` Exif segment of a JPEG (with its `Exif\0\0` prefix), if any.
    static func jpegEXIF(_ jpeg: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        jpegSegment(jpeg, where: { $0 == 0xE1 && $1.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) })
    }

    /// Whether a JPEG carries an Adobe `APP14` segment (whose CMYK samples are stored inverted).
    static func jpegHasAdobeMarker(_ jpeg: UnsafeRawBufferPointer) -> Bool {
        jpegSegment(jpeg, where: { $0 == 0xEE && $1.starts(with: "Adobe".utf8) }) != nil
    }

    /// Whether a JPEG's frame is progressive (SOF2, SOF6, SOF10 or SOF14).
    static func jpegIsProgressive(_ jpeg: UnsafeRawBufferPointer) -> Bool {
        jpegSegment(jpeg, where: { marker, _ in [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }) != nil
    }

    /// The payload of the first marker segment before the image data for which `matches(marker, payload)` holds.
    static func jpegSegment(
        _ jpeg: UnsafeRawBufferPointer, where matches: (UInt8, UnsafeRawBufferPointer) -> Bool
    ) -> UnsafeRawBufferPointer? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            let end = min(offset + 2 + length, jpeg.count)
            if end > offset + 4 {
                let payload = UnsafeRawBufferPointer(rebasing: jpeg[(offset + 4)..<end])
                if matches(marker, payload) { return payload }
            }
            offset += 2 + length
        }
        return nil
    }
}
