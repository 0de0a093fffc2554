import CLCMS2
import Foundation

/// A fast RGB-to-sRGB conversion for matrix/TRC ICC profiles (Display P3, Adobe RGB, ProPhoto and most camera and
/// screen profiles): per channel a tone curve to linear light, one 3x3 matrix into linear sRGB, then the sRGB curve.
///
/// It computes what lcms2 computes for such profiles (both colorimetric intents are the same transform for them,
/// and out-of-gamut colours clip), with tables built once from lcms2's own curves and colorants, in a few
/// nanoseconds a pixel instead of lcms2's general pipeline.
struct MatrixShaper: Sendable {
    /// Linear value of each 8-bit input sample, per channel.
    private let curves: [[Float]]
    /// Row-major 3x3 matrix from the profile's linear RGB to linear sRGB.
    private let matrix: [Float]
    /// 8-bit sRGB sample for linear light quantized to `encodingSteps` steps.
    private let encoding: [UInt8]
    private static let encodingSteps = 16384

    /// The shaper of `profile`, or `nil` when it is not an RGB matrix/TRC profile.
    init?(profile: cmsHPROFILE) {
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsIsMatrixShaper(profile) != 0,
            let source = Self.colorants(profile), let srgbProfile = cmsCreate_sRGBProfile()
        else { return nil }
        defer { cmsCloseProfile(srgbProfile) }
        guard let srgb = Self.colorants(srgbProfile), let inverse = Self.inverse(srgb) else { return nil }
        var curves: [[Float]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let curve = OpaquePointer(raw)
            let values = (0..<256).map { cmsEvalToneCurveFloat(curve, Float($0) / 255) }
            guard values.allSatisfy(\.isFinite) else { return nil }
            curves.append(values)
        }
        let matrix = Self.multiply(inverse, source)
        guard matrix.allSatisfy(\.isFinite) else { return nil }
        self.curves = curves
        self.matrix = matrix
        encoding = (0..<Self.encodingSteps).map { step in
            let linear = Double(step) / Double(Self.encodingSteps - 1)
            let encoded = linear <= 0.003_130_8 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8((min(max(encoded, 0), 1) * 255).rounded())
        }
    }

    /// Converts RGBA pixels in place; alpha is left as it is.
    func apply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        let scale = Float(Self.encodingSteps - 1)
        curves[0].withUnsafeBufferPointer { red in
            curves[1].withUnsafeBufferPointer { green in
                curves[2].withUnsafeBufferPointer { blue in
                    encoding.withUnsafeBufferPointer { encode in
                        let m = (
                            matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5], matrix[6], matrix[7],
                            matrix[8]
                        )
                        func quantize(_ value: Float) -> Int {
                            Int(min(max(value, 0), 1) * scale + 0.5)
                        }
                        var index = 0
                        while index + 3 < pixels.count {
                            let r = red[Int(pixels[index])]
                            let g = green[Int(pixels[index + 1])]
                            let b = blue[Int(pixels[index + 2])]
                            pixels[index] = encode[quantize(m.0 * r + m.1 * g + m.2 * b)]
                            pixels[index + 1] = encode[quantize(m.3 * r + m.4 * g + m.5 * b)]
                            pixels[index + 2] = encode[quantize(m.6 * r + m.7 * g + m.8 * b)]
                            index += 4
                        }
                    }
                }
            }
        }
    }

    /// The profile's colorants as the columns of a row-major matrix from linear RGB to XYZ (D50).
    private static func colorants(_ profile: cmsHPROFILE) -> [Float]? {
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
        return values.map { Float($0) }
    }

    private static func multiply(_ a: [Float], _ b: [Float]) -> [Float] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(Float(0)) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    private static func inverse(_ m: [Float]) -> [Float]? {
        let cofactors: [Float] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard determinant.isFinite, abs(determinant) > 1e-9 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
