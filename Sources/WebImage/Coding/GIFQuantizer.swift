import CImageQuant

/// Reduces one RGBA frame to at most 256 colours with libimagequant (pngquant's engine), dithered.
///
/// GIF has one fully transparent palette entry at most, so alpha is first made binary (below 128 becomes clear);
/// libimagequant then keeps a single clear entry, which becomes the frame's transparent index.
struct GIFQuantizer {
    /// The palette: up to 256 RGB entries.
    let palette: [(red: UInt8, green: UInt8, blue: UInt8)]
    /// The palette index of the transparent entry, if any pixel is clear.
    let transparentIndex: Int?
    /// One palette index per pixel, rows top-down.
    let indices: [UInt8]

    /// Quantizes `pixels` at `quality` (0...100: libimagequant's target; lower accepts more error) with dithering.
    init(_ pixels: PixelBuffer, quality: Int) throws(WebImageError) {
        let (width, height) = (pixels.width, pixels.height)
        guard width <= 65535, height <= 65535 else {
            throw WebImageError(.encodingFailed, "GIF frames are at most 65535 pixels wide and high")
        }
        var binary = pixels.bytes
        for index in stride(from: 3, to: binary.count, by: 4) {
            if binary[index] < 128 {
                (binary[index - 3], binary[index - 2], binary[index - 1], binary[index]) = (0, 0, 0, 0)
            } else {
                binary[index] = 255
            }
        }
        guard let attributes = liq_attr_create() else { throw WebImageError(.encodingFailed, "libimagequant failed") }
        defer { liq_attr_destroy(attributes) }
        liq_set_quality(attributes, 0, Int32(min(max(quality, 0), 100)))
        liq_set_speed(attributes, 4)
        var output = [UInt8](repeating: 0, count: width * height)
        var colors: [(red: UInt8, green: UInt8, blue: UInt8)] = []
        var transparent: Int?
        let status: liq_error = binary.withUnsafeBytes { source in
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
            guard written == LIQ_OK, let palette = liq_get_palette(result) else { return written }
            let entries = withUnsafeBytes(of: palette.pointee.entries) { Array($0.bindMemory(to: liq_color.self)) }
            for (index, color) in entries.prefix(Int(min(palette.pointee.count, 256))).enumerated() {
                colors.append((color.r, color.g, color.b))
                if color.a < 128, transparent == nil { transparent = index }
            }
            return LIQ_OK
        }
        guard status == LIQ_OK, !colors.isEmpty else {
            throw WebImageError(.encodingFailed, "libimagequant could not make a palette (error \(status.rawValue))")
        }
        palette = colors
        transparentIndex = transparent
        indices = output
    }
}
