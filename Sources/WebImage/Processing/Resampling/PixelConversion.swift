/// Conversions between RGBA8 rows and `SIMD4<Float>` rows, with premultiplication.
enum PixelConversion {
    /// Loads an RGBA8 row into floats, multiplying colour by alpha when `premultiply` is set.
    @inline(__always)
    static func load(
        _ row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<SIMD4<Float>>, premultiply: Bool
    ) {
        for x in 0..<output.count {
            let bytes = row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
            var pixel = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes))
            if premultiply {
                let alpha = pixel.w * (1 / 255)
                pixel *= SIMD4(alpha, alpha, alpha, 1)
            }
            output[x] = pixel
        }
    }

    /// Stores floats as an RGBA8 row, rounding and clamping, dividing colour by alpha when `unpremultiply` is set.
    @inline(__always)
    static func store(
        _ row: UnsafeBufferPointer<SIMD4<Float>>, into output: UnsafeMutableRawBufferPointer, unpremultiply: Bool
    ) {
        let low = SIMD4<Float>(repeating: 0)
        let high = SIMD4<Float>(repeating: 255)
        for x in 0..<row.count {
            var pixel = row[x].clamped(lowerBound: low, upperBound: high)
            if unpremultiply {
                let alpha = pixel.w
                let factor: Float = alpha > 0 ? 255 / alpha : 0
                pixel *= SIMD4(factor, factor, factor, 1)
                pixel = pixel.clamped(lowerBound: low, upperBound: high)
            }
            let rounded = SIMD4<Int32>((pixel + 0.5).rounded(.down))
            output.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: rounded), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }
}
