import WebImage

/// An unsharp mask: the pixels plus their difference from a Gaussian blur of `sigma` (imgproxy's `sharpen`).
struct Sharpen: PixelTransforming {
    let sigma: Double

    var key: String { "sharpen(\(sigma))" }

    func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
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
