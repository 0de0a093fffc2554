import WebImage

extension PixelBuffer16 {
    /// `layer` (8-bit) composited over these 16-bit pixels as ``PixelBuffer/composited(_:columns:rows:opacity:)``
    /// composites it over 8-bit ones: the same `over` blend, on a 0-65535 scale.
    func composited(_ layer: PixelBuffer, columns: [Int], rows: [Int], opacity: Double) -> PixelBuffer16 {
        var output = samples
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
        return PixelBuffer16(width: width, height: height, samples: output)
    }

    /// Blends the 8-bit pixel of `top` at `from`, its alpha multiplied by `opacity`, over the 16-bit pixel of `base`
    /// at `to`.
    private static func blend(
        _ top: UnsafeBufferPointer<UInt8>, _ from: Int, over base: UnsafeMutableBufferPointer<UInt16>, _ to: Int,
        opacity: Float
    ) {
        let alpha = Float(top[from + 3]) / 255 * opacity
        guard alpha > 0 else { return }
        let under = Float(base[to + 3]) / 65535 * (1 - alpha)
        let out = alpha + under
        for channel in 0..<3 {
            let color = (Float(top[from + channel]) * 257 * alpha + Float(base[to + channel]) * under) / out
            base[to + channel] = UInt16(min(65535, color.rounded()))
        }
        base[to + 3] = UInt16(min(65535, (out * 65535).rounded()))
    }
}
