import CHEIF
import Foundation

/// Encodes stills as HEIC with libheif and its HEVC encoder plugin (x265 on Debian): 8-bit, RGB or RGBA (alpha only
/// when some pixel is transparent), sRGB `nclx` colour unless a profile is embedded; an animation's first frame.
enum HEICEncoder {
    /// Whether libheif has an HEVC encoder here (Debian ships it as the `libheif-plugin-x265` package or built in).
    static let isAvailable = heif_have_encoder_for_format(heif_compression_HEVC) != 0

    /// x265's presets, slowest first: ``EncodingOptions/speed`` 0 picks the first, 10 the last.
    private static let presets = [
        "placebo", "veryslow", "slower", "slow", "medium", "fast", "faster", "veryfast", "superfast", "ultrafast",
    ]

    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        guard isAvailable else {
            throw WebImageError(.unsupportedFormat, "libheif has no HEVC encoder here (install libheif's x265 plugin)")
        }
        var still = options
        still.firstFrameOnly = true
        let color = EncodingColor(image, options: still)
        let pixels = color.frames[0].pixels
        guard let context = heif_context_alloc() else {
            throw WebImageError(.encodingFailed, "libheif could not start")
        }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        guard let encoder else { throw WebImageError(.encodingFailed, "libheif gave no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(min(max(options.quality, 0), 100))))
        if options.lossless { try check(heif_encoder_set_lossless(encoder, 1)) }
        let speed = min(max(options.speed ?? HEICCoder.defaultSpeed, 0), 10)
        _ = heif_encoder_set_parameter_string(encoder, "preset", presets[min(speed, presets.count - 1)])
        let heifImage = try makeImage(pixels, alpha: !image.isOpaque, profile: color.profile)
        defer { heif_image_release(heifImage) }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, heifImage, encoder, nil, &handle))
        defer { if let handle { heif_image_handle_release(handle) } }
        if let handle {
            // libheif writes the EXIF item's offset to the TIFF header itself, and XMP as a `mime` item.
            if let exif = color.exif {
                try check(
                    exif.withUnsafeBytes {
                        heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
                    })
            }
            if let xmp = color.xmp {
                try check(
                    xmp.withUnsafeBytes {
                        heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count))
                    })
            }
        }
        return try write(context)
    }

    /// A libheif image holding `pixels` as interleaved RGB(A), with its colour description.
    private static func makeImage(
        _ pixels: PixelBuffer, alpha: Bool, profile: Data?
    ) throws(WebImageError) -> OpaquePointer {
        guard pixels.width <= 16384, pixels.height <= 16384 else {
            throw WebImageError(.encodingFailed, "HEVC frames are at most 16384 pixels wide and high here")
        }
        var made: OpaquePointer?
        let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try check(heif_image_create(Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB, chroma, &made))
        guard let image = made else { throw WebImageError(.encodingFailed, "libheif could not make an image") }
        do throws(WebImageError) {
            try check(
                heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height), 8))
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw WebImageError(.encodingFailed, "libheif gave no plane")
            }
            let channels = alpha ? 4 : 3
            pixels.bytes.withUnsafeBufferPointer { source in
                for y in 0..<pixels.height {
                    let row = plane + y * Int(stride)
                    for x in 0..<pixels.width {
                        for channel in 0..<channels {
                            row[x * channels + channel] = source[(y * pixels.width + x) * 4 + channel]
                        }
                    }
                }
            }
            if let profile {
                let error = profile.withUnsafeBytes {
                    heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count)
                }
                try check(error)
            } else if let nclx = heif_nclx_color_profile_alloc() {
                defer { heif_nclx_color_profile_free(nclx) }
                nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
                nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
                nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
                nclx.pointee.full_range_flag = 1
                try check(heif_image_set_nclx_color_profile(image, nclx))
            }
        } catch {
            heif_image_release(image)
            throw error
        }
        return image
    }

    /// The encoded file, through libheif's writer callback.
    private static func write(_ context: OpaquePointer) throws(WebImageError) -> Data {
        final class Sink {
            var data = Data()
        }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, size, userdata in
            if let bytes, let userdata {
                Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue().data.append(
                    bytes.assumingMemoryBound(to: UInt8.self), count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        let error = withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        try check(error)
        guard !sink.data.isEmpty else { throw WebImageError(.encodingFailed, "libheif wrote nothing") }
        return sink.data
    }

    private static func check(_ error: heif_error) throws(WebImageError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        throw WebImageError(.encodingFailed, "HEIC encoding failed (\(message))")
    }
}
