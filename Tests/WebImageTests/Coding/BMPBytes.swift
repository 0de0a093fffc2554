import Foundation

/// Hand-built BMP and ICO bytes for tests of single fields.
enum BMPBytes {
    /// `value` as `count` little-endian bytes.
    static func little(_ value: Int, _ count: Int = 4) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A `BITMAPINFOHEADER` (or, with `size`, the first fields of a longer one, padded with zeros).
    static func infoHeader(
        width: Int, height: Int, bits: Int, compression: Int = 0, colors: Int = 0, size: Int = 40
    ) -> [UInt8] {
        var header = little(size) + little(width) + little(height) + little(1, 2) + little(bits, 2)
        header += little(compression) + little(0) + little(2835) + little(2835) + little(colors) + little(0)
        return header + [UInt8](repeating: 0, count: max(0, size - 40))
    }

    /// A BMP file: the file header, `header`, `table` (palette or masks), then `pixels`; the pixel offset is the end
    /// of `table` unless `offset` says otherwise.
    static func file(header: [UInt8], table: [UInt8] = [], pixels: [UInt8], offset: Int? = nil) -> Data {
        let start = offset ?? 14 + header.count + table.count
        let size = 14 + header.count + table.count + pixels.count
        return Data(Array("BM".utf8) + little(size) + little(0) + little(start) + header + table + pixels)
    }

    /// A palette of `count` grey levels, 4 bytes an entry.
    static func greys(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { index -> [UInt8] in
            let level = UInt8(index * 255 / max(count - 1, 1))
            return [level, level, level, 0]
        }
    }

    /// An ICO (or, with `type` 2, CUR) directory of one entry with `image` after it, at `offset` unless given, and
    /// declaring `size` bytes unless given.
    static func icon(_ image: [UInt8], type: Int = 1, offset: Int = 22, size: Int? = nil) -> Data {
        var bytes = little(0, 2) + little(type, 2) + little(1, 2)
        bytes += [16, 16, 0, 0] + little(1, 2) + little(32, 2) + little(size ?? image.count) + little(offset)
        return Data(bytes + image)
    }
}
