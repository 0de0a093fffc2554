/// A content-aware crop (imgproxy's gravity `sm`): the ``size`` window with the most edge energy, measured on a
/// downscale of at most ``analysisSide`` pixels a side; ties go to the most central window. The window is chosen
/// on the first frame and applied to every frame.
public struct SmartCrop: ImageTransforming {
    /// The longest side of the downscale the energy is measured on.
    public static let analysisSide = 128

    /// The size of the window kept (clamped to the image).
    public let size: PixelSize

    /// Crops to the `size` window with the most detail.
    public init(size: PixelSize) { self.size = size }

    public var key: String { "smartcrop(\(size.width)x\(size.height))" }

    public func transform(_ image: Image) throws(WebImageError) -> Image {
        guard let first = image.frames.first else { return image }
        let rect = Self.rect(of: size, in: first.pixels)
        return try Crop(to: rect).transform(image)
    }

    /// Where a `size` window with the most detail sits in `pixels`; ties go to the most central window.
    public static func rect(of size: PixelSize, in pixels: PixelBuffer) -> PixelRect {
        let full = pixels.size
        let kept = PixelSize(width: min(size.width, full.width), height: min(size.height, full.height))
        let factor = min(1, Double(analysisSide) / Double(max(full.width, full.height)))
        let small = PixelSize(
            width: max(1, rounded(Double(full.width) * factor)),
            height: max(1, rounded(Double(full.height) * factor)))
        let sample = Resampler(filter: .box).resample(pixels, to: small)
        let energy = integralEnergy(sample)
        let windowW = max(1, min(small.width, rounded(Double(kept.width) * factor)))
        let windowH = max(1, min(small.height, rounded(Double(kept.height) * factor)))
        let (centerX, centerY) = (small.width - windowW, small.height - windowH)
        var best = (score: -1.0, distance: Int.max, x: 0, y: 0)
        for y in 0...(small.height - windowH) {
            for x in 0...(small.width - windowW) {
                let score = windowSum(energy, stride: small.width + 1, x: x, y: y, w: windowW, h: windowH)
                let distance = abs(2 * x - centerX) + abs(2 * y - centerY)
                if score > best.score || (score == best.score && distance < best.distance) {
                    best = (score, distance, x, y)
                }
            }
        }
        let x = min(full.width - kept.width, max(0, rounded(Double(best.x) / factor)))
        let y = min(full.height - kept.height, max(0, rounded(Double(best.y) / factor)))
        return PixelRect(x: x, y: y, width: kept.width, height: kept.height)
    }

    /// A summed-area table ((w+1) × (h+1)) of the gradient magnitude of the luminance, weighted by opacity.
    private static func integralEnergy(_ pixels: PixelBuffer) -> [Double] {
        let (w, h) = (pixels.width, pixels.height)
        var luma = [Double](repeating: 0, count: w * h)
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<(w * h) {
                let base = index * 4
                let value =
                    0.299 * Double(bytes[base]) + 0.587 * Double(bytes[base + 1]) + 0.114 * Double(bytes[base + 2])
                luma[index] = value * Double(bytes[base + 3]) / 255
            }
        }
        var table = [Double](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var rowSum = 0.0
            for x in 0..<w {
                let dx = abs(luma[y * w + min(x + 1, w - 1)] - luma[y * w + max(x - 1, 0)])
                let dy = abs(luma[min(y + 1, h - 1) * w + x] - luma[max(y - 1, 0) * w + x])
                rowSum += dx + dy
                table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + rowSum
            }
        }
        return table
    }

    /// `value` rounded half away from zero; every value here is at most a side of the image.
    private static func rounded(_ value: Double) -> Int { Int(value.rounded(.toNearestOrAwayFromZero)) }

    private static func windowSum(_ table: [Double], stride: Int, x: Int, y: Int, w: Int, h: Int) -> Double {
        table[(y + h) * stride + x + w] - table[y * stride + x + w] - table[(y + h) * stride + x]
            + table[y * stride + x]
    }
}
