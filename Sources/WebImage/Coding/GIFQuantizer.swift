/// Reduces one RGBA frame to at most 256 colours with libimagequant (``Quantizer``), dithered.
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
        let quantized = try Quantizer(quality: quality).quantize(binary, width: width, height: height, remaps: true)
        palette = quantized.palette.map { ($0.red, $0.green, $0.blue) }
        transparentIndex = quantized.palette.firstIndex { $0.alpha < 128 }
        indices = quantized.indices
    }
}
