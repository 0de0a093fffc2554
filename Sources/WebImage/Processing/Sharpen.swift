/// An unsharp mask: the pixels plus their difference from a Gaussian blur of ``sigma`` (imgproxy's `sharpen`).
///
/// Alpha is kept as it is. The sigma is at most ``Blur/maximumRadius``, as for ``Blur``.
public struct Sharpen: PixelTransforming {
    /// The standard deviation of the blur the mask subtracts, in pixels; 0 leaves the image as it is.
    public let sigma: Double

    /// Sharpens with a mask of standard deviation `sigma` pixels.
    public init(sigma: Double) { self.sigma = sigma }

    public var key: String { "sharpen(\(sigma.keyDescription))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        guard sigma > 0 else { return pixels }
        let blurred = try Blur(radius: sigma).transform(pixels)
        return pixels.bytes.withUnsafeBufferPointer { original in
            blurred.bytes.withUnsafeBufferPointer { soft in
                PixelBuffer(width: pixels.width, height: pixels.height) { output in
                    for index in 0..<original.count {
                        if index % 4 == 3 {
                            output[index] = original[index]
                        } else {
                            let value = 2 * Int(original[index]) - Int(soft[index])
                            output[index] = UInt8(clamping: value)
                        }
                    }
                }
            }
        }
    }
}
