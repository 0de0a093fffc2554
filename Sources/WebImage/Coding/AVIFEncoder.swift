import CAVIF
import Foundation

/// Encodes stills and sequences with libavif (AV1 through libaom): 8-bit 4:2:0, or 12-bit for a still with 16-bit
/// pixels (``ImageFrame/deepPixels``, as libvips' `heifsave` writes 16-bit images), full range, sRGB `nclx` colour
/// unless a profile is embedded, alpha only when some pixel is transparent.
enum AVIFEncoder {
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        guard let encoder = avifEncoderCreate() else { throw WebImageError(.encodingFailed, "libavif could not start") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.maxThreads = Int32(clamping: max(ProcessInfo.processInfo.activeProcessorCount, 1))
        encoder.pointee.speed = Int32(min(max(options.speed ?? AVIFCoder.defaultSpeed, 0), 10))
        let quantizer = Int32(quantizer(forQuality: options.quality))
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.timescale = 1000
        let color = EncodingColor(image, options: options)
        let single = color.frames.count == 1
        let flags = single ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : 0
        for frame in color.frames {
            let deep = single ? frame.deepPixels : nil
            let opaque = deep?.isOpaque ?? image.isOpaque
            let status = try withAVIFImage(frame.pixels, deep: deep, opaque: opaque, profile: color.profile) { avif in
                if let exif = color.exif {
                    exif.withUnsafeBytes {
                        avifImageSetMetadataExif(avif, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                    }
                }
                if let xmp = color.xmp {
                    xmp.withUnsafeBytes {
                        avifImageSetMetadataXMP(avif, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                    }
                }
                return avifEncoderAddImage(encoder, avif, milliseconds(frame.duration), flags)
            }
            try check(status)
        }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try check(avifEncoderFinish(encoder, &output))
        guard let bytes = output.data, output.size > 0 else { throw WebImageError(.encodingFailed, "empty AVIF") }
        return Data(bytes: bytes, count: output.size)
    }

    /// libavif's quantizer (0 best to 63 worst) for a 0...100 quality, as newer libavif maps its `quality`.
    static func quantizer(forQuality quality: Int) -> Int {
        ((100 - min(max(quality, 0), 100)) * 63 + 50) / 100
    }

    /// A frame's duration in the encoder's millisecond timescale, at least 1.
    private static func milliseconds(_ duration: Double) -> UInt64 {
        guard duration.isFinite, duration > 0 else { return 1 }
        return UInt64(min(max((duration * 1000).rounded(), 1), 86_400_000))
    }

    private static func withAVIFImage(
        _ pixels: PixelBuffer, deep: PixelBuffer16?, opaque: Bool, profile: Data?,
        _ body: (UnsafeMutablePointer<avifImage>) -> avifResult
    ) throws(WebImageError) -> avifResult {
        guard pixels.width <= 65536, pixels.height <= 65536 else {
            throw WebImageError(.encodingFailed, "AV1 frames are at most 65536 pixels wide and high")
        }
        guard
            let avif = avifImageCreate(
                UInt32(pixels.width), UInt32(pixels.height), deep == nil ? 8 : 12, AVIF_PIXEL_FORMAT_YUV420)
        else { throw WebImageError(.encodingFailed, "libavif could not allocate an image") }
        defer { avifImageDestroy(avif) }
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        if let profile {
            profile.withUnsafeBytes {
                avifImageSetProfileICC(avif, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
            }
        } else {
            avif.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
            avif.pointee.transferCharacteristics = avifTransferCharacteristics(
                AVIF_TRANSFER_CHARACTERISTICS_SRGB)
            avif.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_BT601)
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif)
        rgb.depth = deep == nil ? 8 : 16
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.ignoreAlpha = opaque ? 1 : 0
        let status: avifResult
        if let deep {
            status = deep.samples.withUnsafeBytes { source in
                // libavif reads the row bytes as 16-bit samples in the host's order when `depth` is 16.
                rgb.pixels = source.baseAddress.map {
                    UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
                }
                rgb.rowBytes = UInt32(deep.samplesPerRow * 2)
                return avifImageRGBToYUV(avif, &rgb)
            }
        } else {
            status = pixels.bytes.withUnsafeBufferPointer { source in
                rgb.pixels = UnsafeMutablePointer(mutating: source.baseAddress)
                rgb.rowBytes = UInt32(pixels.bytesPerRow)
                return avifImageRGBToYUV(avif, &rgb)
            }
        }
        try check(status)
        return body(avif)
    }

    private static func check(_ status: avifResult) throws(WebImageError) {
        guard status != AVIF_RESULT_OK else { return }
        throw WebImageError(.encodingFailed, "AVIF encoding failed: \(String(cString: avifResultToString(status)))")
    }
}
