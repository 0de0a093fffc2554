import CLCMS2
import Foundation

/// 16-bit RGBA pixels converted from an ICC profile to sRGB through lcms2, so that a high-bit-depth image keeps its
/// 16 bits through ``Image/convertedToSRGB()`` and a decoder's colour conversion.
///
/// An RGB profile converts the colours (`TYPE_RGBA_16`, alpha copied); a grey profile converts the grey levels to
/// sGrey (sRGB's curve on grey, as libvips' `sGrey` profile, which imgproxy converts 16-bit grey to), through a table
/// of the 65536 levels, so grey pixels stay grey. The transform is made for each call: the 16-bit path is the rare
/// one, and its images are large enough that making a transform costs little beside running it.
enum DeepColorConversion {
    /// `pixels` in sRGB; `nil` when lcms2 cannot read `profile` or it does not describe `source` pixels (an RGB
    /// profile for `.rgba`, a grey one for `.grey`, whose pixels are read from red).
    static func converted(
        _ pixels: PixelBuffer16, from profile: Data, source: ColorSource = .rgba
    ) -> PixelBuffer16? {
        guard source == .rgba || source == .grey else { return nil }
        let input = profile.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(clamping: bytes.count))
        }
        guard let input else { return nil }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == source.colorSpace else { return nil }
        return source == .grey ? greyConverted(pixels, from: input) : rgbConverted(pixels, from: input)
    }

    private static func rgbConverted(_ pixels: PixelBuffer16, from input: cmsHPROFILE) -> PixelBuffer16? {
        guard let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let transform = cmsCreateTransform(
                input, WI_TYPE_RGBA_16, output, WI_TYPE_RGBA_16, cmsUInt32Number(INTENT_PERCEPTUAL),
                cmsUInt32Number(cmsFLAGS_NOCACHE) | cmsUInt32Number(cmsFLAGS_COPY_ALPHA))
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        var samples = pixels.samples
        samples.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count / 4
            let chunk = 1 << 16
            var start = 0
            while start < count {
                let length = min(chunk, count - start)
                cmsDoTransform(transform, base + start * 4, base + start * 4, cmsUInt32Number(length))
                start += length
            }
        }
        return PixelBuffer16(width: pixels.width, height: pixels.height, samples: samples)
    }

    private static func greyConverted(_ pixels: PixelBuffer16, from input: cmsHPROFILE) -> PixelBuffer16? {
        guard let table = greyTable(from: input) else { return nil }
        return pixels.samples.withUnsafeBufferPointer { source in
            table.withUnsafeBufferPointer { levels in
                PixelBuffer16(width: pixels.width, height: pixels.height) { output in
                    for index in stride(from: 0, to: source.count, by: 4) {
                        let level = levels[Int(source[index])]
                        (output[index], output[index + 1], output[index + 2]) = (level, level, level)
                        output[index + 3] = source[index + 3]
                    }
                }
            }
        }
    }

    /// The sGrey level of each of the 65536 levels of the grey profile `input`.
    private static func greyTable(from input: cmsHPROFILE) -> [UInt16]? {
        // sRGB's transfer function as lcms2's parametric curve of type 4.
        let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        guard let output = cmsCreateGrayProfile(cmsD50_xyY(), curve) else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let transform = cmsCreateTransform(
                input, WI_TYPE_GRAY_16, output, WI_TYPE_GRAY_16, cmsUInt32Number(INTENT_PERCEPTUAL),
                cmsUInt32Number(cmsFLAGS_NOCACHE))
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        let levels = (0...65535).map { UInt16($0) }
        var table = [UInt16](repeating: 0, count: 65536)
        table.withUnsafeMutableBytes { output in
            levels.withUnsafeBytes { cmsDoTransform(transform, $0.baseAddress, output.baseAddress, 65536) }
        }
        return table
    }
}
