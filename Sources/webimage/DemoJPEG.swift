import CJPEG
import CLCMS2
import Foundation
import WebImage

/// What the demo's JPEG samples need beyond the library's encoder (which writes baseline 4:2:0 RGB): progressive,
/// greyscale and CMYK JPEGs from TurboJPEG directly, an EXIF block, and a Display P3 profile from lcms2.
enum DemoJPEG {
    /// A JPEG the library's encoder does not write.
    enum Variant {
        /// Progressive scans, 4:2:0.
        case progressive
        /// One grey component.
        case gray
        /// Adobe YCCK: four components, stored inverted (0 means full ink) as Adobe applications write them.
        case cmyk
    }

    /// A sample could not be made; `description` says why.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Encodes `pixels` (opaque) at quality 85 as `variant`.
    static func encode(_ pixels: PixelBuffer, as variant: Variant) throws -> Data {
        guard let handle = tjInitCompress() else { throw Failure(description: "TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        let (samples, format, subsampling, flags): ([UInt8], TJPF, TJSAMP, Int32) =
            switch variant {
            case .progressive: (pixels.bytes, TJPF_RGBA, TJSAMP_420, TJFLAG_PROGRESSIVE)
            case .gray: (pixels.bytes, TJPF_RGBA, TJSAMP_GRAY, 0)
            case .cmyk: (invertedCMYK(pixels), TJPF_CMYK, TJSAMP_420, 0)
            }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let status = samples.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(pixels.width), 0, Int32(pixels.height), Int32(format.rawValue),
                &output, &size, Int32(subsampling.rawValue), 85, flags)
        }
        guard status == 0, let output else {
            throw Failure(description: "TurboJPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Data(bytes: output, count: Int(size))
    }

    /// Inverted CMYK samples that convert back to `pixels`' RGB: black is what the brightest channel lacks, and
    /// each colour is its channel relative to that brightness.
    private static func invertedCMYK(_ pixels: PixelBuffer) -> [UInt8] {
        var samples = pixels.bytes
        for index in stride(from: 0, to: samples.count, by: 4) {
            let (red, green, blue) = (Int(samples[index]), Int(samples[index + 1]), Int(samples[index + 2]))
            let brightest = max(red, green, blue)
            let scale = { (channel: Int) in UInt8(brightest == 0 ? 0 : channel * 255 / brightest) }
            (samples[index], samples[index + 1], samples[index + 2]) = (scale(red), scale(green), scale(blue))
            samples[index + 3] = UInt8(brightest)
        }
        return samples
    }

    /// An EXIF block (a big-endian TIFF structure, without the `Exif\0\0` prefix) holding only `orientation`.
    static func exif(orientation: ImageOrientation) -> Data {
        let header: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        let entryCount: [UInt8] = [0x00, 0x01]
        // Tag 0x0112 (Orientation), type 3 (SHORT), count 1, the value left-aligned in the 4-byte field.
        let entry: [UInt8] = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation.rawValue), 0, 0]
        let nextDirectory: [UInt8] = [0x00, 0x00, 0x00, 0x00]
        return Data(header + entryCount + entry + nextDirectory)
    }

    /// A Display P3 ICC profile: P3's primaries, the D65 white point and the sRGB transfer curve.
    static func displayP3Profile() throws -> Data {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        let srgbCurve: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, srgbCurve) else {
            throw Failure(description: "lcms2 could not build the sRGB curve")
        }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard
            let profile = curves.withUnsafeMutableBufferPointer({
                cmsCreateRGBProfile(&white, &primaries, $0.baseAddress)
            })
        else { throw Failure(description: "lcms2 could not build a Display P3 profile") }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        var bytes: [UInt8] = []
        if cmsSaveProfileToMem(profile, nil, &size) != 0 {
            bytes = [UInt8](repeating: 0, count: Int(size))
        }
        guard !bytes.isEmpty, cmsSaveProfileToMem(profile, &bytes, &size) != 0 else {
            throw Failure(description: "lcms2 could not write the Display P3 profile")
        }
        return Data(bytes.prefix(Int(size)))
    }
}
