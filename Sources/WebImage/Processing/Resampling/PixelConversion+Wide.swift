extension PixelConversion {
    /// Loads a row of 16-bit RGBA samples (``PixelBuffer16``) into floats on a 0-65535 scale, colour turned to linear
    /// light when `linear` is set, then multiplied by alpha when `premultiply` is set.
    static func load16(
        _ row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<SIMD4<Float>>, premultiply: Bool,
        linear: Bool
    ) {
        let count = output.count * 4
        let samples = row.baseAddress!.assumingMemoryBound(to: UInt16.self)
        UnsafeMutableRawPointer(output.baseAddress!).withMemoryRebound(to: Float.self, capacity: count) { floats in
            for index in 0..<count { floats[index] = Float(samples[index]) }
            if linear { LinearLight.decode16(floats, count: count) }
            guard premultiply else { return }
            var index = 0
            while index < count {
                let alpha = floats[index + 3] * (1 / 65535)
                floats[index] *= alpha
                floats[index + 1] *= alpha
                floats[index + 2] *= alpha
                index += 4
            }
        }
    }

    /// Stores floats on a 0-65535 scale as a row of 16-bit RGBA samples, rounding and clamping, dividing colour by
    /// alpha when `unpremultiply` is set, then turning linear colour back to sRGB's curve when `linear` is set.
    static func store16(
        _ row: UnsafeMutableBufferPointer<SIMD4<Float>>, into output: UnsafeMutableRawBufferPointer,
        unpremultiply: Bool, linear: Bool
    ) {
        let count = row.count * 4
        let samples = output.baseAddress!.assumingMemoryBound(to: UInt16.self)
        UnsafeMutableRawPointer(row.baseAddress!).withMemoryRebound(to: Float.self, capacity: count) { floats in
            if unpremultiply {
                var index = 0
                while index < count {
                    let alpha = min(max(floats[index + 3], 0), 65535)
                    let factor: Float = alpha > 0 ? 65535 / alpha : 0
                    floats[index] *= factor
                    floats[index + 1] *= factor
                    floats[index + 2] *= factor
                    index += 4
                }
            }
            if linear { LinearLight.encode16(floats, count: count) }
            // As ``store(_:into:unpremultiply:linear:)``: 1.5 * 2^23 added to a value in 0...65535 leaves it, rounded,
            // in the low bits of the significand; `max(0, x)` turns NaN into 0.
            for index in 0..<count {
                let shifted = min(max(0, floats[index]), 65535) + 12_582_912
                samples[index] = UInt16(truncatingIfNeeded: shifted.bitPattern)
            }
        }
    }
}
