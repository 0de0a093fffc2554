import CLCMS2
import Foundation

/// A fast RGB-to-sRGB conversion for matrix/TRC ICC profiles (Display P3, Adobe RGB, ProPhoto and most camera and
/// screen profiles): per channel a tone curve to linear light, one 3x3 matrix into linear sRGB, then the sRGB curve.
///
/// It computes what lcms2 computes for such profiles (both colorimetric intents are the same transform for them,
/// and out-of-gamut colours clip), with tables built once from lcms2's own curves and colorants, in a few
/// nanoseconds a pixel instead of lcms2's general pipeline.
struct MatrixShaper: Sendable {
    /// Linear value of each 8-bit input sample, per channel, in 16-bit fixed point (65536 is 1).
    private let curves: [[Int]]
    /// Row-major 3x3 matrix from the profile's linear RGB to linear sRGB, in 16-bit fixed point (65536 is 1).
    private let matrix: [Int]
    /// 8-bit sRGB sample for linear light in 14-bit fixed point: index `i` is `i / 16384`.
    private let encoding: [UInt8]
    private static let encodingSteps = 16384

    /// The shaper of `profile`, or `nil` when it is not an RGB matrix/TRC profile (or one with absurd values).
    init?(profile: cmsHPROFILE) {
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsIsMatrixShaper(profile) != 0,
            let source = Self.colorants(profile), let srgbProfile = cmsCreate_sRGBProfile()
        else { return nil }
        defer { cmsCloseProfile(srgbProfile) }
        guard let srgb = Self.colorants(srgbProfile), let inverse = Self.inverse(srgb) else { return nil }
        var curves: [[Int]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let curve = OpaquePointer(raw)
            let values = (0..<256).map { cmsEvalToneCurveFloat(curve, Float($0) / 255) }
            guard values.allSatisfy(\.isFinite) else { return nil }
            curves.append(values.map { Int((min(max($0, 0), 1) * 65536).rounded()) })
        }
        let matrix = Self.multiply(inverse, source)
        guard matrix.allSatisfy({ $0.isFinite && abs($0) <= 64 }) else { return nil }
        self.curves = curves
        self.matrix = matrix.map { Int(($0 * 65536).rounded()) }
        encoding = (0...Self.encodingSteps).map { step in
            let linear = Double(step) / Double(Self.encodingSteps)
            let encoded = linear <= 0.003_130_8 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8((min(max(encoded, 0), 1) * 255).rounded())
        }
    }

    /// Converts RGBA pixels in place; alpha is left as it is.
    func apply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = pixels.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(base)
        let count = pixels.count / 4
        let limit = Self.encodingSteps
        curves[0].withUnsafeBufferPointer { red in
            curves[1].withUnsafeBufferPointer { green in
                curves[2].withUnsafeBufferPointer { blue in
                    encoding.withUnsafeBufferPointer { encode in
                        let m = (
                            matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5], matrix[6], matrix[7],
                            matrix[8]
                        )
                        // 16-bit curves times 16-bit matrix: 32 fractional bits, rounded to the table's 14, clamped
                        // without branches (a negative value's sign mask zeroes it).
                        @inline(__always) func sample(_ value: Int) -> UInt32 {
                            let scaled = (value &+ (1 << 17)) >> 18
                            return UInt32(encode[min(scaled & ~(scaled >> 63), limit)])
                        }
                        for pixel in 0..<count {
                            let offset = pixel &* 4
                            let packed = UInt32(
                                littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                            let r = red[Int(packed & 0xFF)]
                            let g = green[Int((packed >> 8) & 0xFF)]
                            let b = blue[Int((packed >> 16) & 0xFF)]
                            let converted =
                                sample(m.0 &* r &+ m.1 &* g &+ m.2 &* b)
                                | sample(m.3 &* r &+ m.4 &* g &+ m.5 &* b) << 8
                                | sample(m.6 &* r &+ m.7 &* g &+ m.8 &* b) << 16 | (packed & 0xFF00_0000)
                            raw.storeBytes(of: converted.littleEndian, toByteOffset: offset, as: UInt32.self)
                        }
                    }
                }
            }
        }
    }

    /// The profile's colorants as the columns of a row-major matrix from linear RGB to XYZ (D50).
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        let values = [
            columns[0].X, columns[1].X, columns[2].X, columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
        guard values.allSatisfy(\.isFinite) else { return nil }
        return values
    }

    private static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0.0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let cofactors: [Double] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard determinant.isFinite, abs(determinant) > 1e-9 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
