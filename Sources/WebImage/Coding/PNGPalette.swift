import CImageQuant

/// One RGBA frame reduced to a palette of at most a given number of colours with libimagequant (pngquant's engine),
/// dithered, for an indexed PNG (``EncodingOptions/paletteColors``): alpha is kept per entry (`tRNS`).
struct PNGPalette {
    /// The palette: up to 256 RGBA entries, straight alpha.
    let entries: [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)]
    /// One palette index per pixel, rows top-down.
    let indices: [UInt8]

    /// Quantizes `pixels` to at most `colors` colours (clamped to 2...256), at libimagequant's best quality.
    init(_ pixels: PixelBuffer, colors: Int) throws(WebImageError) {
        let (width, height) = (pixels.width, pixels.height)
        guard let attributes = liq_attr_create() else { throw WebImageError(.encodingFailed, "libimagequant failed") }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, Int32(min(max(colors, 2), 256)))
        liq_set_quality(attributes, 0, 100)
        liq_set_speed(attributes, 4)
        var output = [UInt8](repeating: 0, count: width * height)
        var palette: [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)] = []
        let status: liq_error = pixels.bytes.withUnsafeBytes { source in
            guard let image = liq_image_create_rgba(attributes, source.baseAddress!, Int32(width), Int32(height), 0)
            else { return LIQ_OUT_OF_MEMORY }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            let quantized = liq_image_quantize(image, attributes, &result)
            guard quantized == LIQ_OK, let result else { return quantized }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, 1.0)
            let written = output.withUnsafeMutableBytes {
                liq_write_remapped_image(result, image, $0.baseAddress!, $0.count)
            }
            guard written == LIQ_OK, let colors = liq_get_palette(result) else { return written }
            let entries = withUnsafeBytes(of: colors.pointee.entries) { Array($0.bindMemory(to: liq_color.self)) }
            palette = entries.prefix(Int(min(colors.pointee.count, 256))).map { ($0.r, $0.g, $0.b, $0.a) }
            return LIQ_OK
        }
        guard status == LIQ_OK, !palette.isEmpty else {
            throw WebImageError(.encodingFailed, "libimagequant could not make a palette (error \(status.rawValue))")
        }
        entries = palette
        indices = output
    }
}
