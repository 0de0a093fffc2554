import CImageQuant

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
        guard let attributes = liq_attr_create() else { throw WebImageError(.encodingFailed, "libimagequant failed") }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, Int32(maximumColors))
        liq_set_speed(attributes, 4)
        var colors: [RGBA] = []
        let status: liq_error = sample.bytes.withUnsafeBytes { source in
            guard
                let image = liq_image_create_rgba(
                    attributes, source.baseAddress!, Int32(sample.width), Int32(sample.height), 0)
            else { return LIQ_OUT_OF_MEMORY }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            let quantized = liq_image_quantize(image, attributes, &result)
            guard quantized == LIQ_OK, let result, let palette = liq_get_palette(result) else { return quantized }
            defer { liq_result_destroy(result) }
            let entries = withUnsafeBytes(of: palette.pointee.entries) { Array($0.bindMemory(to: liq_color.self)) }
            colors = entries.prefix(Int(min(palette.pointee.count, 256))).map {
                RGBA(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a)
            }
            return LIQ_OK
        }
        guard status == LIQ_OK, !colors.isEmpty else {
            throw WebImageError(.encodingFailed, "libimagequant could not make a palette (error \(status.rawValue))")
        }
        return colors
    }
}
