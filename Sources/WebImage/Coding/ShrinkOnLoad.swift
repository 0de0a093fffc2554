/// Picks the scale at which a decoder that can shrink while decoding should decode.
enum ShrinkOnLoad {
    /// The smallest of `factors` (each at most 1) whose scaled size still covers `target` in both dimensions, and
    /// that scaled size; the full size when there is no target or no factor shrinks enough.
    ///
    /// `scaled` computes the decoder's own rounding of a dimension for a factor.
    static func choose<Factor>(
        width: Int, height: Int, target: PixelSize?, factors: [Factor],
        scaled: (Int, Factor) -> Int
    ) -> (factor: Factor?, size: PixelSize) {
        let full = PixelSize(width: width, height: height)
        guard let target, target.width > 0, target.height > 0, width > 0, height > 0 else { return (nil, full) }
        var best: (factor: Factor?, size: PixelSize) = (nil, full)
        for factor in factors {
            let size = PixelSize(width: scaled(width, factor), height: scaled(height, factor))
            if size.width >= target.width, size.height >= target.height, size.area < best.size.area {
                best = (factor, size)
            }
        }
        return best
    }

    /// The target expressed in stored (pre-orientation) dimensions.
    static func storedTarget(_ target: PixelSize?, orientation: ImageOrientation) -> PixelSize? {
        guard let target, orientation.swapsDimensions else { return target }
        return PixelSize(width: target.height, height: target.width)
    }

    /// The JPEG DCT denominator for `factor` (``DecodingOptions/shrinkFactor``), as libvips' `jpegload` `shrink`:
    /// 8, 4 or 2, the largest not above it; `nil` below 2, or for a factor that is not a finite number.
    static func jpegDenominator(_ factor: Double?) -> Int? {
        guard let factor, factor.isFinite, factor >= 2 else { return nil }
        return factor >= 8 ? 8 : factor >= 4 ? 4 : 2
    }

    /// A WebP still's size shrunk by `factor` (``DecodingOptions/shrinkFactor``), as libvips' `webpload` `scale`
    /// (each side times `1 / factor`, rounded half to even, at least 1); `nil` when `factor` is not above 1 or not
    /// a finite number.
    static func webpSize(width: Int, height: Int, factor: Double?) -> PixelSize? {
        guard let factor, factor.isFinite, factor > 1 else { return nil }
        let scale = 1 / factor
        func side(_ value: Int) -> Int { max(1, Int((Double(value) * scale).rounded(.toNearestOrEven))) }
        return PixelSize(width: side(width), height: side(height))
    }
}
