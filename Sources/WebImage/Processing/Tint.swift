/// Blends a colour over every frame's pixels by the colour's alpha, keeping each pixel's own alpha.
public struct Tint: PixelTransforming {
    /// The colour laid over the image; its alpha is the strength.
    public let color: RGBA

    /// Tints with `color`; its alpha is the strength (255 replaces the colour entirely).
    public init(_ color: RGBA) { self.color = color }

    public var key: String { "tint(\(color.keyDescription))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        let strength = Int(color.alpha)
        let tint = [Int(color.red), Int(color.green), Int(color.blue)].map { $0 * strength }
        return pixels.bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: pixels.width, height: pixels.height) { output in
                var index = 0
                while index < source.count {
                    for channel in 0..<3 {
                        output[index + channel] = UInt8(
                            (Int(source[index + channel]) * (255 - strength) + tint[channel] + 127) / 255)
                    }
                    output[index + 3] = source[index + 3]
                    index += 4
                }
            }
        }
    }
}
