import Foundation

/// A 64-bit perceptual hash (the DCT pHash, as Python's `imagehash.phash` and imgproxy's `perceptual_hash` compute
/// it): similar images have hashes a small Hamming distance apart.
///
/// The image is resampled to 32x32 grey pixels (ITU-R 601 luma, as Pillow's `L` mode weighs it; alpha is not read),
/// transformed by a two-dimensional DCT-II, and each of the 8x8 lowest frequencies becomes one bit: set when it is
/// above their median. Bits are read row by row, the first the most significant.
///
/// ```swift
/// let hash = PerceptualHash(image.pixels)
/// print(hash.hex)                       // "9797306d694b4e94"
/// hash.distance(to: other) <= 10        // probably the same picture
/// ```
public struct PerceptualHash: Hashable, Sendable, CustomStringConvertible {
    /// The 64 bits, the first frequency (the top-left of the 8x8 block) the most significant.
    public let value: UInt64

    /// Wraps 64 hash bits.
    public init(value: UInt64) { self.value = value }

    /// The hash of `pixels`.
    public init(_ pixels: PixelBuffer) {
        let side = 32
        let sample =
            pixels.size == PixelSize(width: side, height: side)
            ? pixels : Resampler(filter: .lanczos3).resample(pixels, to: PixelSize(width: side, height: side))
        var grey = [Double](repeating: 0, count: side * side)
        for index in grey.indices {
            let (r, g, b) = (
                Int(sample.bytes[index * 4]), Int(sample.bytes[index * 4 + 1]), Int(sample.bytes[index * 4 + 2])
            )
            grey[index] = Double((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
        }
        let kept = 8
        // The unnormalised DCT-II (scipy's default) of every column, then of every row, for the kept frequencies.
        let basis = (0..<kept).map { k in
            (0..<side).map { n in 2 * cos(Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * side)) }
        }
        var columns = [Double](repeating: 0, count: kept * side)
        for k in 0..<kept {
            for x in 0..<side {
                var sum = 0.0
                for y in 0..<side { sum += grey[y * side + x] * basis[k][y] }
                columns[k * side + x] = sum
            }
        }
        var low = [Double](repeating: 0, count: kept * kept)
        for row in 0..<kept {
            for k in 0..<kept {
                var sum = 0.0
                for x in 0..<side { sum += columns[row * side + x] * basis[k][x] }
                low[row * kept + k] = sum
            }
        }
        let sorted = low.sorted()
        let median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        value = low.reduce(UInt64(0)) { ($0 << 1) | ($1 > median ? 1 : 0) }
    }

    /// 16 lowercase hexadecimal digits, as imgproxy writes the hash.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public var description: String { hex }

    /// The number of bits that differ: 0 for the same picture, around 32 for unrelated ones.
    public func distance(to other: PerceptualHash) -> Int { (value ^ other.value).nonzeroBitCount }
}
