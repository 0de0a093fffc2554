/// Conversions between RGBA8 rows and `SIMD4<Float>` rows, with premultiplication.
///
/// Written as plain loops over scalars so that the compiler vectorises them.
enum PixelConversion {
    /// Loads an RGBA8 row into floats, colour turned to linear light when `linear` is set (``LinearLight``), then
    /// multiplied by alpha when `premultiply` is set.
    static func load(
        _ row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<SIMD4<Float>>, premultiply: Bool,
        linear: Bool = false
    ) {
        let count = output.count * 4
        let bytes = row.baseAddress!.assumingMemoryBound(to: UInt8.self)
        UnsafeMutableRawPointer(output.baseAddress!).withMemoryRebound(to: Float.self, capacity: count) { floats in
            for index in 0..<count { floats[index] = Float(bytes[index]) }
            if linear { LinearLight.decode(floats, count: count) }
            guard premultiply else { return }
            var index = 0
            while index < count {
                let alpha = floats[index + 3] * (1 / 255)
                floats[index] *= alpha
                floats[index + 1] *= alpha
                floats[index + 2] *= alpha
                index += 4
            }
        }
    }

    /// Stores floats as an RGBA8 row, rounding and clamping, dividing colour by alpha when `unpremultiply` is set,
    /// then turning linear colour back to sRGB's curve when `linear` is set.
    static func store(
        _ row: UnsafeMutableBufferPointer<SIMD4<Float>>, into output: UnsafeMutableRawBufferPointer,
        unpremultiply: Bool,
        linear: Bool = false
    ) {
        let count = row.count * 4
        let bytes = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        UnsafeMutableRawPointer(row.baseAddress!).withMemoryRebound(to: Float.self, capacity: count) { floats in
            if unpremultiply {
                var index = 0
                while index < count {
                    let alpha = min(max(floats[index + 3], 0), 255)
                    let factor: Float = alpha > 0 ? 255 / alpha : 0
                    floats[index] *= factor
                    floats[index + 1] *= factor
                    floats[index + 2] *= factor
                    index += 4
                }
            }
            if linear { LinearLight.encode(floats, count: count) }
            // `max(0, x)` is 0 when x is NaN (a colour divided by a denormal alpha). Adding 1.5 * 2^23 to a value in
            // 0...255 leaves it, rounded to the nearest integer (halves to even, as the FPU rounds), in the low bits
            // of the sum's significand: a conversion without the trap check of `Int32(_:)`, so the loop vectorises.
            for index in 0..<count {
                let shifted = min(max(0, floats[index]), 255) + 12_582_912
                bytes[index] = UInt8(truncatingIfNeeded: shifted.bitPattern)
            }
        }
    }
}
