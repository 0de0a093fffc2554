import CLCMS2
import Foundation

/// 16-bit RGBA pixels converted from an RGB ICC profile to sRGB through lcms2 (`TYPE_RGBA_16`, alpha copied), so that
/// a high-bit-depth image keeps its 16 bits through ``Image/convertedToSRGB()``.
///
/// The transform is made for each call: the 16-bit path is the rare one, and its images are large enough that making
/// a transform costs little beside running it.
enum DeepColorConversion {
    /// `pixels` in sRGB; `nil` when lcms2 cannot read `profile` or it is not an RGB profile.
    static func converted(_ pixels: PixelBuffer16, from profile: Data) -> PixelBuffer16? {
        let input = profile.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(clamping: bytes.count))
        }
        guard let input else { return nil }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == ColorSource.rgba.colorSpace, let output = cmsCreate_sRGBProfile() else {
            return nil
        }
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
}
