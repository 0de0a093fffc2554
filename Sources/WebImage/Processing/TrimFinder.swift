/// Finds the picture inside a border of one colour, as libvips's `vips_find_trim` does for imgproxy's `trim`: each
/// channel is median-filtered over 3×3 pixels (the edge pixels repeated), and a pixel is part of the picture when a
/// channel of its filtered colour differs from the background's by more than the threshold. The box is the smallest
/// rectangle holding every such pixel.
///
/// The median of nine values is above a level exactly when five of them are, so each pixel is first marked with
/// the channels above and below the background's band, and the filter counts marks.
struct TrimFinder {
    /// How far a channel may be from the background's and still count as background.
    let threshold: Double
    /// The background colour (its alpha is not used: the pixels searched are opaque).
    let background: RGBA

    /// The box of the picture in the opaque `pixels`; `nil` when every pixel is background.
    func box(in pixels: PixelBuffer) -> PixelRect? {
        let marks = marks(of: pixels)
        let (width, height) = (pixels.width, pixels.height)
        func isPicture(_ x: Int, _ y: Int) -> Bool {
            var counts = SIMD8<UInt8>()
            for row in max(0, y - 1)...min(height - 1, y + 1) {
                // A neighbour past the edge repeats the edge pixel.
                let weight: UInt8 = (y == 0 && row == 0) || (y == height - 1 && row == height - 1) ? 2 : 1
                for column in max(0, x - 1)...min(width - 1, x + 1) {
                    let times = weight * ((x == 0 && column == 0) || (x == width - 1 && column == width - 1) ? 2 : 1)
                    counts &+= Self.bits[Int(marks[row * width + column])] &* times
                }
            }
            return any(counts .>= 5)
        }
        guard let top = (0..<height).first(where: { y in (0..<width).contains { isPicture($0, y) } }) else {
            return nil
        }
        let bottom = (top..<height).last { y in (0..<width).contains { isPicture($0, y) } } ?? top
        let left = (0..<width).first { x in (top...bottom).contains { isPicture(x, $0) } } ?? 0
        let right = (left..<width).last { x in (top...bottom).contains { isPicture(x, $0) } } ?? left
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// One byte a pixel: bit `c` when channel `c` is above the background's band, bit `c + 3` when below it.
    private func marks(of pixels: PixelBuffer) -> [UInt8] {
        let levels = [background.red, background.green, background.blue].map(Double.init)
        let tables = (0..<3).map { channel in
            (0...255).map { value -> UInt8 in
                let difference = Double(value) - levels[channel]
                return (difference > threshold ? 1 << channel : 0) | (-difference > threshold ? 8 << channel : 0)
            }
        }
        let count = pixels.width * pixels.height
        return pixels.bytes.withUnsafeBufferPointer { bytes in
            [UInt8](unsafeUninitializedCapacity: count) { marks, initialized in
                for index in 0..<count {
                    let offset = index * 4
                    marks[index] =
                        tables[0][Int(bytes[offset])] | tables[1][Int(bytes[offset + 1])]
                        | tables[2][Int(bytes[offset + 2])]
                }
                initialized = count
            }
        }
    }

    /// The six mark bits of a byte as counts of one, lanes 0 to 5.
    private static let bits: [SIMD8<UInt8>] = (0..<64).map { mark in
        SIMD8((0..<8).map { lane in lane < 6 ? UInt8((mark >> lane) & 1) : 0 })
    }
}
