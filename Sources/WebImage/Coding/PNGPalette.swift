/// One RGBA frame reduced to a palette of at most a given number of colours with libimagequant (``Quantizer``),
/// dithered, for an indexed PNG (``EncodingOptions/paletteColors``): alpha is kept per entry (`tRNS`).
struct PNGPalette {
    /// The palette: up to 256 RGBA entries, straight alpha.
    let entries: [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)]
    /// One palette index per pixel, rows top-down.
    let indices: [UInt8]

    /// Quantizes `pixels` to at most `colors` colours (clamped to 2...256), at libimagequant's best quality.
    init(_ pixels: PixelBuffer, colors: Int) throws(WebImageError) {
        let quantized = try Quantizer(maximumColors: colors)
            .quantize(pixels.bytes, width: pixels.width, height: pixels.height, remaps: true)
        entries = quantized.palette.map { ($0.red, $0.green, $0.blue, $0.alpha) }
        indices = quantized.indices
    }
}
