import Foundation
import WebImage

/// Reads the corpus's reference decodes: netpbm PAM files (any depth, 8 or 16 bits) and PNG files, as RGBA8.
enum ReferenceImage {
    static func load(_ url: URL) throws -> PixelBuffer {
        let data = try Data(contentsOf: url)
        if url.pathExtension == "pam" { return try pam(data) }
        return try PNGCoder().decode(data, options: .default).pixels
    }

    /// The reference decode of `image`, corrected where the corpus's reference tool is known to be wrong.
    ///
    /// The corpus's PNG references were made by netpbm's `pngtopam -alphapam`, which ignores a `tRNS` chunk on
    /// grayscale and truecolour images (colour types 0 and 2). The PNG specification, libpng, Pillow and browsers
    /// make pixels of the `tRNS` colour fully transparent, and so does ``PNGCoder``; the reference is corrected to
    /// match the specification for those files only.
    static func expected(for image: URL, reference: URL) throws -> PixelBuffer {
        let pixels = try load(reference)
        guard image.pathExtension == "png", let key = try transparentColor(inPNG: Data(contentsOf: image)) else {
            return pixels
        }
        var bytes = pixels.bytes
        for index in stride(from: 0, to: bytes.count, by: 4)
        where bytes[index] == key.red && bytes[index + 1] == key.green && bytes[index + 2] == key.blue {
            bytes[index + 3] = 0
        }
        return PixelBuffer(width: pixels.width, height: pixels.height, bytes: bytes)
    }

    /// The `tRNS` key colour of a grayscale or truecolour PNG, scaled to 8 bits; `nil` for other PNGs.
    private static func transparentColor(inPNG data: Data) throws -> RGBA? {
        let colorType = data[25]
        let bitDepth = Int(data[24])
        guard colorType == 0 || colorType == 2, let tag = data.range(of: Data("tRNS".utf8)) else { return nil }
        func sample(_ index: Int) -> UInt8 {
            let value = Int(data[tag.upperBound + index * 2]) << 8 | Int(data[tag.upperBound + index * 2 + 1])
            return UInt8((Double(value) * 255 / Double((1 << bitDepth) - 1)).rounded())
        }
        return colorType == 0
            ? RGBA(red: sample(0), green: sample(0), blue: sample(0))
            : RGBA(red: sample(0), green: sample(1), blue: sample(2))
    }

    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    static func pam(_ data: Data) throws -> PixelBuffer {
        guard let end = data.range(of: Data("ENDHDR\n".utf8)) else { throw FormatError(description: "no ENDHDR") }
        var fields: [String: Int] = [:]
        for line in String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], let depth = fields["DEPTH"],
            let maxValue = fields["MAXVAL"]
        else { throw FormatError(description: "incomplete PAM header") }
        let samples = Array(data[end.upperBound...])
        let wide = maxValue > 255
        func sample(_ index: Int) -> UInt8 {
            let value = wide ? Int(samples[index * 2]) << 8 | Int(samples[index * 2 + 1]) : Int(samples[index])
            return UInt8((Double(value) * 255 / Double(maxValue)).rounded())
        }
        return PixelBuffer(width: width, height: height) { output in
            for pixel in 0..<(width * height) {
                let base = pixel * depth
                let gray = depth <= 2
                output[pixel * 4] = sample(base)
                output[pixel * 4 + 1] = sample(gray ? base : base + 1)
                output[pixel * 4 + 2] = sample(gray ? base : base + 2)
                output[pixel * 4 + 3] = depth == 2 ? sample(base + 1) : depth == 4 ? sample(base + 3) : 255
            }
        }
    }

    /// Mean and maximum absolute difference per channel, compared premultiplied (as the corpus's check.py does).
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, max: Int) {
        func premultiplied(_ bytes: [UInt8], _ index: Int) -> Int {
            let channel = Double(bytes[index])
            if index % 4 == 3 { return Int(channel) }
            return Int((channel * Double(bytes[index - index % 4 + 3]) / 255).rounded(.toNearestOrEven))
        }
        var total = 0
        var largest = 0
        for index in a.bytes.indices {
            let delta = abs(premultiplied(a.bytes, index) - premultiplied(b.bytes, index))
            total += delta
            largest = max(largest, delta)
        }
        return (Double(total) / Double(a.bytes.count), largest)
    }
}
