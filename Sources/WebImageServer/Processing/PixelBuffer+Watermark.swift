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
                for top in rows {
                    let ys = max(0, top)..<min(height, top + layer.height)
                    guard !ys.isEmpty else { continue }
                    for left in columns {
                        let xs = max(0, left)..<min(width, left + layer.width)
                        guard !xs.isEmpty else { continue }
                        for y in ys {
                            var from = ((y - top) * layer.width + xs.lowerBound - left) * 4
                            var to = (y * width + xs.lowerBound) * 4
                            for _ in xs {
                                Self.blend(source, from, over: base, to, opacity: opacity)
                                from += 4
                                to += 4
                            }
                        }
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
