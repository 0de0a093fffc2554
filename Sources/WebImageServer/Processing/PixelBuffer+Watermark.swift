import WebImage

extension PixelBuffer {
    /// `layer` composited over these pixels with its top-left corner at every pair of `columns` and `rows` (the
    /// parts outside are cut), its alpha multiplied by `opacity`: libvips's `over` blend on straight alpha in sRGB,
    /// as imgproxy's `vips_apply_watermark` composites the watermark. Opaque pixels stay opaque.
    func composited(_ layer: PixelBuffer, columns: [Int], rows: [Int], opacity: Double) -> PixelBuffer {
        var output = bytes
        let opacity = Float(max(0, min(1, opacity)))
        layer.bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { base in
                WatermarkPlacement.forEachRow(of: layer.size, on: size, columns: columns, rows: rows) {
                    from, to, count in
                    for pixel in 0..<count {
                        Self.blend(source, (from + pixel) * 4, over: base, (to + pixel) * 4, opacity: opacity)
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, bytes: output)
    }

    /// Blends the pixel of `top` at `from`, its alpha multiplied by `opacity`, over the pixel of `base` at `to`:
    /// out α = α₁ + α₂(1 − α₁), out colour = (c₁α₁ + c₂α₂(1 − α₁)) / out α.
    private static func blend(
        _ top: UnsafeBufferPointer<UInt8>, _ from: Int, over base: UnsafeMutableBufferPointer<UInt8>, _ to: Int,
        opacity: Float
    ) {
        let alpha = Float(top[from + 3]) / 255 * opacity
        guard alpha > 0 else { return }
        let under = Float(base[to + 3]) / 255 * (1 - alpha)
        let out = alpha + under
        for channel in 0..<3 {
            let color = (Float(top[from + channel]) * alpha + Float(base[to + channel]) * under) / out
            base[to + channel] = UInt8(min(255, color.rounded()))
        }
        base[to + 3] = UInt8(min(255, (out * 255).rounded()))
    }
}
