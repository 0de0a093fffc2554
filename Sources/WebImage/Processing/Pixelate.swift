/// Pixelates every frame (imgproxy's `pixelate`): blocks of ``blockSize``×``blockSize`` pixels from the top-left
/// corner, each filled with its mean colour (libvips shrinks by the size and zooms back).
///
/// As libvips does, the size is at most the longer side, and the image is extended by mirroring to whole blocks, so a
/// block cut by the right or bottom edge averages its mirror image too. With ``premultiplied`` (imgproxy
/// premultiplies when it also blurs or sharpens), colours are weighted by their alpha. A size of 0 or 1 leaves the
/// image as it is.
public struct Pixelate: PixelTransforming {
    /// The side of a block, in pixels.
    public let blockSize: Int
    /// Whether colours are weighted by their alpha.
    public let premultiplied: Bool

    /// Pixelates into blocks of `blockSize` pixels a side.
    public init(blockSize: Int, premultiplied: Bool = false) {
        self.blockSize = blockSize
        self.premultiplied = premultiplied
    }

    public var key: String { "pixelate(\(blockSize)\(premultiplied ? ",premultiplied" : ""))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        pixels.pixelated(blockSize: blockSize, premultiplied: premultiplied)
    }
}

extension PixelBuffer {
    /// Blocks of `size`×`size` pixels each filled with its mean colour, as ``Pixelate`` describes.
    func pixelated(blockSize size: Int, premultiplied: Bool) -> PixelBuffer {
        let side = Swift.min(size, Swift.max(width, height))
        guard side > 1 else { return self }
        let columns = (width + side - 1) / side
        let rows = (height + side - 1) / side
        let xs = (0..<columns * side).map { Self.mirrored($0, width) }
        let ys = (0..<rows * side).map { Self.mirrored($0, height) }
        let area = side * side
        return bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height) { output in
                for row in 0..<rows {
                    for column in 0..<columns {
                        var sums = SIMD4<Int>()
                        for y in ys[(row * side)..<((row + 1) * side)] {
                            for x in xs[(column * side)..<((column + 1) * side)] {
                                let offset = (y * width + x) * 4
                                let alpha = Int(source[offset + 3])
                                let weight = premultiplied ? alpha : 1
                                sums &+= SIMD4(
                                    Int(source[offset]) * weight, Int(source[offset + 1]) * weight,
                                    Int(source[offset + 2]) * weight, alpha)
                            }
                        }
                        let divisor = premultiplied ? sums[3] : area
                        var color = SIMD4<UInt8>(repeating: 0)
                        if divisor > 0 {
                            for channel in 0..<3 { color[channel] = UInt8((sums[channel] + divisor / 2) / divisor) }
                        }
                        color[3] = UInt8((sums[3] + area / 2) / area)
                        for y in (row * side)..<Swift.min((row + 1) * side, height) {
                            for x in (column * side)..<Swift.min((column + 1) * side, width) {
                                let offset = (y * width + x) * 4
                                for channel in 0..<4 { output[offset + channel] = color[channel] }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The pixel libvips's mirror extension shows at `index` of a line of `count` pixels: the line, then its mirror
    /// image, repeated.
    private static func mirrored(_ index: Int, _ count: Int) -> Int {
        let position = index % (2 * count)
        return position < count ? position : 2 * count - 1 - position
    }
}
