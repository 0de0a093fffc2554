import Foundation

/// Reads the orientation tag (0x0112) from EXIF data (a TIFF structure, optionally after an `Exif\0\0` prefix), and
/// the JPEG marker segments the decoder needs before decoding.
enum EXIFReader {
    /// The orientation in `exif`, or ``ImageOrientation/up`` when absent or unreadable.
    static func orientation(in exif: UnsafeRawBufferPointer) -> ImageOrientation {
        var tiff = exif
        if tiff.count >= 6, tiff.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {
            tiff = UnsafeRawBufferPointer(rebasing: tiff[6...])
        }
        guard tiff.count >= 8 else { return .up }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .up
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
        guard let ifd = read32(4), let count = read16(ifd) else { return .up }
        for entry in 0..<count {
            let offset = ifd + 2 + entry * 12
            guard let tag = read16(offset) else { return .up }
            if tag == 0x0112, let value = read16(offset + 8) {
                return ImageOrientation(rawValue: value) ?? .up
            }
        }
        return .up
    }

    /// The orientation declared by the first `APP1` Exif segment of a JPEG, or ``ImageOrientation/up``.
    static func jpegOrientation(_ jpeg: UnsafeRawBufferPointer) -> ImageOrientation {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        guard let segment = jpegSegment(jpeg, where: { $0 == 0xE1 && $1.starts(with: exifHeader) }) else { return .up }
        return orientation(in: segment)
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
    private static func jpegSegment(
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
