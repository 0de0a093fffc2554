import Foundation

/// The EXIF fields of a TIFF-structured EXIF block (IFD0, the EXIF and GPS sub-IFDs), by canonical tag name
/// (`DateTimeOriginal`) or by title (`Date and Time (Original)`, libexif's titles as imgproxy shows them).
///
/// Values are written plainly: text as is, numbers in decimal, rationals as `n/d`, several values joined by `, `.
/// Tags outside the table, binary fields (maker notes, thumbnails) and malformed entries are skipped; every offset is
/// checked against the block's length, and each IFD is read once.
enum EXIFFields {
    /// Tag → (canonical name, title).
    static let tags: [Int: (String, String)] = [
        0x010E: ("ImageDescription", "Image Description"), 0x010F: ("Make", "Manufacturer"),
        0x0110: ("Model", "Model"), 0x0112: ("Orientation", "Orientation"),
        0x011A: ("XResolution", "X-Resolution"), 0x011B: ("YResolution", "Y-Resolution"),
        0x0128: ("ResolutionUnit", "Resolution Unit"), 0x0131: ("Software", "Software"),
        0x0132: ("DateTime", "Date and Time"), 0x013B: ("Artist", "Artist"),
        0x8298: ("Copyright", "Copyright"), 0x829A: ("ExposureTime", "Exposure Time"),
        0x829D: ("FNumber", "F-Number"), 0x8822: ("ExposureProgram", "Exposure Program"),
        0x8827: ("ISOSpeedRatings", "ISO Speed Ratings"), 0x9000: ("ExifVersion", "Exif Version"),
        0x9003: ("DateTimeOriginal", "Date and Time (Original)"),
        0x9004: ("DateTimeDigitized", "Date and Time (Digitized)"),
        0x9201: ("ShutterSpeedValue", "Shutter Speed"), 0x9202: ("ApertureValue", "Aperture"),
        0x9203: ("BrightnessValue", "Brightness"), 0x9204: ("ExposureBiasValue", "Exposure Bias"),
        0x9205: ("MaxApertureValue", "Maximum Aperture Value"), 0x9207: ("MeteringMode", "Metering Mode"),
        0x9208: ("LightSource", "Light Source"), 0x9209: ("Flash", "Flash"),
        0x920A: ("FocalLength", "Focal Length"), 0xA001: ("ColorSpace", "Color Space"),
        0xA002: ("PixelXDimension", "Pixel X Dimension"), 0xA003: ("PixelYDimension", "Pixel Y Dimension"),
        0xA402: ("ExposureMode", "Exposure Mode"), 0xA403: ("WhiteBalance", "White Balance"),
        0xA405: ("FocalLengthIn35mmFilm", "Focal Length in 35mm Film"),
        0xA406: ("SceneCaptureType", "Scene Capture Type"), 0xA408: ("Contrast", "Contrast"),
        0xA409: ("Saturation", "Saturation"), 0xA40A: ("Sharpness", "Sharpness"),
        0xA431: ("BodySerialNumber", "Serial Number"), 0xA434: ("LensModel", "Lens Model"),
        0x0001: ("GPSLatitudeRef", "Latitude Reference"), 0x0002: ("GPSLatitude", "Latitude"),
        0x0003: ("GPSLongitudeRef", "Longitude Reference"), 0x0004: ("GPSLongitude", "Longitude"),
        0x0006: ("GPSAltitude", "Altitude"),
    ]

    /// The fields of `exif` (without the `Exif\0\0` prefix), in the order they are found.
    static func fields(_ exif: Data, canonicalNames: Bool) -> [(String, String)] {
        let bytes = [UInt8](exif)
        guard bytes.count >= 8 else { return [] }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return []
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[offset + (little ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        var result: [(String, String)] = []
        var pending = [read(4, 4) ?? 0]
        var visited = Set<Int>()
        while let ifd = pending.popLast() {
            guard ifd > 0, visited.insert(ifd).inserted, let count = read(ifd, 2) else { continue }
            for index in 0..<count {
                let entry = ifd + 2 + index * 12
                guard let tag = read(entry, 2), let type = read(entry + 2, 2), let items = read(entry + 4, 4) else {
                    break
                }
                if tag == 0x8769 || tag == 0x8825 {
                    if let offset = read(entry + 8, 4) { pending.insert(offset, at: 0) }
                    continue
                }
                guard let names = tags[tag],
                    let value = value(type: type, count: items, entry: entry, read: read, bytes: bytes)
                else { continue }
                result.append((canonicalNames ? names.0 : names.1, value))
            }
        }
        return result
    }

    private static func value(
        type: Int, count: Int, entry: Int, read: (Int, Int) -> Int?, bytes: [UInt8]
    ) -> String? {
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 8: 2, 9: 4, 10: 8]
        guard let size = sizes[type], count > 0, count <= 1 << 16 else { return nil }
        let total = size * count
        let start = total <= 4 ? entry + 8 : (read(entry + 8, 4) ?? -1)
        guard start >= 0, start <= bytes.count - total else { return nil }
        switch type {
        case 2:
            let text = bytes[start..<start + total].prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        case 7:
            let printable = bytes[start..<start + total].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            return printable && count <= 64 ? String(decoding: bytes[start..<start + total], as: UTF8.self) : nil
        default:
            var values: [String] = []
            for index in 0..<min(count, 16) {
                let offset = start + index * size
                func signed(_ value: Int, _ bits: Int) -> Int { value >= 1 << (bits - 1) ? value - (1 << bits) : value }
                switch type {
                case 5, 10:
                    guard let n = read(offset, 4), let d = read(offset + 4, 4) else { return nil }
                    values.append(type == 10 ? "\(signed(n, 32))/\(signed(d, 32))" : "\(n)/\(d)")
                case 8: values.append(String(signed(read(offset, 2) ?? 0, 16)))
                case 9: values.append(String(signed(read(offset, 4) ?? 0, 32)))
                default: values.append(String(read(offset, size) ?? 0))
                }
            }
            return values.joined(separator: ", ")
        }
    }
}
