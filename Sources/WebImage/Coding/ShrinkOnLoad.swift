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
}
