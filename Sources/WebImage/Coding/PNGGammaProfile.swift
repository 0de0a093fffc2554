import CLCMS2
import CSPNG
import Foundation

/// An ICC profile made from a PNG's `gAMA` and `cHRM` chunks, for files that describe their colours with them
/// instead of `iCCP` or `sRGB`.
///
/// As Chromium and Firefox do: `gAMA` gives each channel's tone curve (samples are raised to 1 / gamma to get
/// linear light), `cHRM` the primaries and white point, and a missing `cHRM` means sRGB's primaries. A `gAMA` of
/// 1/2.2 without `cHRM` (or with sRGB's) is taken for sRGB and converts nothing.
enum PNGGammaProfile {
    /// The profile for `gamma` (`gAMA`'s value, 100000 times the file gamma) and `chromaticities` (`cHRM`, in units
    /// of 1/100000), or `nil` when they describe sRGB or values no display could have.
    static func profile(gamma: UInt32, chromaticities: spng_chrm_int?) -> Data? {
        let srgbLike = chromaticities.map(isSRGB) ?? true
        guard gamma > 0, !(srgbLike && (45_000...46_000).contains(gamma)) else { return nil }
        let exponent = 100_000 / Double(gamma)
        guard exponent >= 0.1, exponent <= 10 else { return nil }
        let c = chromaticities ?? srgb
        let values = [c.white_point_x, c.white_point_y, c.red_x, c.red_y, c.green_x, c.green_y, c.blue_x, c.blue_y]
        guard values.allSatisfy({ $0 > 0 && $0 <= 100_000 }) else { return nil }
        func xyY(_ x: UInt32, _ y: UInt32) -> cmsCIExyY { cmsCIExyY(x: Double(x) / 1e5, y: Double(y) / 1e5, Y: 1) }
        var white = xyY(c.white_point_x, c.white_point_y)
        var primaries = cmsCIExyYTRIPLE(
            Red: xyY(c.red_x, c.red_y), Green: xyY(c.green_x, c.green_y), Blue: xyY(c.blue_x, c.blue_y))
        guard let curve = cmsBuildGamma(nil, exponent) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard
            let profile = curves.withUnsafeMutableBufferPointer({
                cmsCreateRGBProfile(&white, &primaries, $0.baseAddress)
            })
        else { return nil }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0, Int(size) <= ICCProfileReader.maxSize else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return Data(bytes.prefix(Int(size)))
    }

    /// sRGB's primaries and D65 white point, as `cHRM` writes them.
    private static let srgb = spng_chrm_int(
        white_point_x: 31_270, white_point_y: 32_900, red_x: 64_000, red_y: 33_000, green_x: 30_000,
        green_y: 60_000, blue_x: 15_000, blue_y: 6_000)

    /// Whether `c` is sRGB's, within 0.001 on each coordinate.
    private static func isSRGB(_ c: spng_chrm_int) -> Bool {
        let pairs = [
            (c.white_point_x, srgb.white_point_x), (c.white_point_y, srgb.white_point_y), (c.red_x, srgb.red_x),
            (c.red_y, srgb.red_y), (c.green_x, srgb.green_x), (c.green_y, srgb.green_y), (c.blue_x, srgb.blue_x),
            (c.blue_y, srgb.blue_y),
        ]
        return pairs.allSatisfy { abs(Int($0) - Int($1)) <= 100 }
    }
}
