/// Turns every frame to shades of grey (Rec. 601 luma, as Pillow's `convert("L")`), keeping alpha.
public struct Grayscale: PixelTransforming {
    /// Creates the transformer.
    public init() {}

    public var key: String { "grayscale" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        pixels.bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: pixels.width, height: pixels.height) { output in
                var index = 0
                while index < source.count {
                    let luma =
                        (Int(source[index]) * 299 + Int(source[index + 1]) * 587 + Int(source[index + 2]) * 114 + 500)
                        / 1000
                    output[index] = UInt8(luma)
                    output[index + 1] = UInt8(luma)
                    output[index + 2] = UInt8(luma)
                    output[index + 3] = source[index + 3]
                    index += 4
                }
            }
        }
    }
}
