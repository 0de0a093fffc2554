import Testing

@testable import WebImage

/// The resampler's float-to-byte store never traps: NaN and infinite channels (a colour divided by a denormal
/// alpha, found by the property tests) become valid bytes.
@Suite struct PixelConversionTests {
    @Test func storeClampsNaNAndInfinities() {
        var row: [SIMD4<Float>] = [
            SIMD4(.nan, .infinity, -.infinity, 255), SIMD4(0, 10, 20, .leastNonzeroMagnitude),
            SIMD4(3e38, -3e38, .nan, .nan), SIMD4(100, 100, 100, 200),
        ]
        var bytes = [UInt8](repeating: 7, count: row.count * 4)
        for unpremultiply in [false, true] {
            row.withUnsafeMutableBufferPointer { row in
                bytes.withUnsafeMutableBytes { PixelConversion.store(row, into: $0, unpremultiply: unpremultiply) }
            }
            #expect(bytes[3] == 255 && bytes[15] == 200)
        }
        #expect(bytes[12...14].allSatisfy { $0 == 128 })
    }
}
