import CImageQuant

/// libimagequant (pngquant's engine) behind one call: a straight-alpha RGBA frame to a palette and, when asked, one
/// dithered palette index per pixel. ``PNGPalette``, ``GIFQuantizer`` and ``PixelBuffer/palette(maximumColors:)`` are
/// built on it.
struct Quantizer {
    /// The most colours of the palette, clamped to 2...256.
    var maximumColors = 256
    /// libimagequant's quality target, clamped to 0...100 (lower accepts more error).
    var quality = 100

    /// The palette of `bytes` (`width` × `height` RGBA pixels, rows top-down) in libimagequant's order, and, when
    /// `remaps`, the dithered palette index of each pixel (else no indices). The palette is read after the remap,
    /// which refines it.
    ///
    /// - Throws: ``WebImageError/Code/encodingFailed`` when libimagequant cannot make a palette.
    func quantize(
        _ bytes: [UInt8], width: Int, height: Int, remaps: Bool
    ) throws(WebImageError) -> (palette: [RGBA], indices: [UInt8]) {
        guard width > 0, height > 0, bytes.count >= width * height * 4, let attributes = liq_attr_create() else {
            throw WebImageError(.encodingFailed, "libimagequant failed")
        }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, Int32(min(max(maximumColors, 2), 256)))
        liq_set_quality(attributes, 0, Int32(min(max(quality, 0), 100)))
        liq_set_speed(attributes, 4)
        var indices = [UInt8](repeating: 0, count: remaps ? width * height : 0)
        var palette: [RGBA] = []
        let status: liq_error = bytes.withUnsafeBytes { source in
            guard let image = liq_image_create_rgba(attributes, source.baseAddress!, Int32(width), Int32(height), 0)
            else { return LIQ_OUT_OF_MEMORY }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            let quantized = liq_image_quantize(image, attributes, &result)
            guard quantized == LIQ_OK, let result else { return quantized }
            defer { liq_result_destroy(result) }
            if remaps {
                liq_set_dithering_level(result, 1.0)
                let written = indices.withUnsafeMutableBytes {
                    liq_write_remapped_image(result, image, $0.baseAddress!, $0.count)
                }
                guard written == LIQ_OK else { return written }
            }
            guard let colors = liq_get_palette(result) else { return LIQ_QUALITY_TOO_LOW }
            let entries = withUnsafeBytes(of: colors.pointee.entries) { Array($0.bindMemory(to: liq_color.self)) }
            palette = entries.prefix(Int(min(colors.pointee.count, 256))).map {
                RGBA(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a)
            }
            return LIQ_OK
        }
        guard status == LIQ_OK, !palette.isEmpty else {
            throw WebImageError(.encodingFailed, "libimagequant could not make a palette (error \(status.rawValue))")
        }
        return (palette, indices)
    }
}
