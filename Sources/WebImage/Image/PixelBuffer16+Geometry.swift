extension PixelBuffer16 {
    /// The pixels inside `rect`, which must lie within the buffer; `self` when `rect` is the whole buffer.
    public func cropped(to rect: PixelRect) -> PixelBuffer16 {
        precondition(
            rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0 && rect.x + rect.width <= width
                && rect.y + rect.height <= height, "crop rectangle outside the image")
        if rect.size == size { return self }
        return samples.withUnsafeBufferPointer { source in
            PixelBuffer16(width: rect.width, height: rect.height) { output in
                let rowSamples = rect.width * 4
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    let to = row * rowSamples
                    for offset in 0..<rowSamples { output[to + offset] = source[from + offset] }
                }
            }
        }
    }

    /// The pixels turned upright from stored `orientation`, as ``PixelBuffer/oriented(from:)`` turns 8-bit ones.
    public func oriented(from orientation: ImageOrientation) -> PixelBuffer16 {
        guard orientation != .up else { return self }
        let (outWidth, outHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        return samples.withUnsafeBytes { source in
            PixelBuffer16(width: outWidth, height: outHeight) { output in
                UnsafeMutableRawBufferPointer(output).withMemoryRebound(to: UInt64.self) { pixels in
                    orientation.turn(source.bindMemory(to: UInt64.self), width: width, height: height, into: pixels)
                }
            }
        }
    }

    /// The pixels composited over an opaque `background`: every pixel comes out with alpha 65535.
    public func flattened(over background: RGBA) -> PixelBuffer16 {
        let back = RGBA16(background)
        let channels = [UInt64(back.red), UInt64(back.green), UInt64(back.blue)]
        return samples.withUnsafeBufferPointer { source in
            PixelBuffer16(width: width, height: height) { output in
                var index = 0
                while index < source.count {
                    let alpha = UInt64(source[index + 3])
                    for channel in 0..<3 {
                        let blended = UInt64(source[index + channel]) * alpha + channels[channel] * (65535 - alpha)
                        output[index + channel] = UInt16((blended + 32767) / 65535)
                    }
                    output[index + 3] = .max
                    index += 4
                }
            }
        }
    }

    /// The pixels placed on a canvas of `canvasSize` filled with `background`, their top-left corner at `x`, `y`
    /// (clamped so that they stay on the canvas), as ``Embed`` places 8-bit pixels.
    public func embedded(
        in canvasSize: PixelSize, x: Int, y: Int, background: RGBA
    ) throws(WebImageError)
        -> PixelBuffer16
    {
        let (canvasWidth, canvasHeight) = (canvasSize.width, canvasSize.height)
        guard canvasWidth > 0, canvasHeight > 0,
            !canvasWidth.multipliedReportingOverflow(by: canvasHeight).overflow,
            !(canvasWidth * canvasHeight).multipliedReportingOverflow(by: 4).overflow
        else {
            throw WebImageError(.invalidArgument, "canvas \(canvasWidth)x\(canvasHeight) is not a valid size")
        }
        let left = max(0, min(x, canvasWidth - width))
        let top = max(0, min(y, canvasHeight - height))
        let fill = RGBA16(background)
        return samples.withUnsafeBufferPointer { source in
            PixelBuffer16(width: canvasWidth, height: canvasHeight) { output in
                for index in stride(from: 0, to: output.count, by: 4) {
                    output[index] = fill.red
                    output[index + 1] = fill.green
                    output[index + 2] = fill.blue
                    output[index + 3] = fill.alpha
                }
                let rowSamples = min(width, canvasWidth - left) * 4
                for row in 0..<min(height, canvasHeight - top) {
                    let to = ((top + row) * canvasWidth + left) * 4
                    let from = row * width * 4
                    for offset in 0..<rowSamples { output[to + offset] = source[from + offset] }
                }
            }
        }
    }
}
