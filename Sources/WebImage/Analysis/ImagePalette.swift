extension PixelBuffer {
    /// The largest side ``palette(maximumColors:)`` quantises; larger images are resampled to fit first.
    public static let paletteMaximumSide = 512

    /// An RGBA palette of at most `maximumColors` (2...256) colours that represents the pixels, as imgproxy's
    /// `palette` info option builds it: libimagequant's palette (pngquant's engine) (in its order).
    ///
    /// - Throws: ``WebImageError/Code/invalidArgument`` for a count outside 2...256; ``WebImageError/Code/encodingFailed``
    ///   when libimagequant cannot make a palette.
    public func palette(maximumColors: Int) throws(WebImageError) -> [RGBA] {
        guard (2...256).contains(maximumColors) else {
            throw WebImageError(.invalidArgument, "a palette has 2 to 256 colours")
        }
        let sample = fitting(in: Self.paletteMaximumSide)
        return try Quantizer(maximumColors: maximumColors)
            .quantize(sample.bytes, width: sample.width, height: sample.height, remaps: false).palette
    }
}
