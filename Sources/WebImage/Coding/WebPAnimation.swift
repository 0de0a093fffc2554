import CWebP
import Foundation

/// Decodes animated WebP with `WebPAnimDecoder`, which composites each frame onto the full canvas.
enum WebPAnimationDecoder {
    /// Every frame (or the first), with `color` applied to each composited canvas.
    static func decode(
        _ webp: WebPData, options: DecodingOptions, color: ColorHandling
    ) throws(WebImageError) -> Image {
        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw WebImageError(.corruptData, "libwebp did not start")
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        // WebPAnimDecoderNew allocates the whole canvas at once: check its size first (found by fuzz-thumbnail: a
        // 96x16776000 canvas asked for 6 GiB before the limits were consulted).
        let features = try WebPCoder.features(webp)
        try options.limits.checkFrame(width: Int(features.width), height: Int(features.height))
        var data = webp
        guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
            throw WebImageError(.corruptData, "invalid animated WebP")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            throw WebImageError(.corruptData, "invalid animated WebP header")
        }
        let (width, height) = (Int(info.canvas_width), Int(info.canvas_height))
        let wanted = options.firstFrameOnly ? 1 : Int(info.frame_count)
        try options.limits.checkAnimation(width: width, height: height, frames: wanted)
        var frames: [ImageFrame] = []
        var previous: Int32 = 0
        while frames.count < wanted, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                if frames.isEmpty { throw WebImageError(.corruptData, "cannot decode the first WebP frame") }
                throw WebImageError(.corruptData, "cannot decode WebP frame \(frames.count)")
            }
            let pixels = PixelBuffer(width: width, height: height) { output in
                output.baseAddress!.update(from: canvas, count: output.count)
                color.apply(output)
            }
            frames.append(ImageFrame(pixels: pixels, duration: Double(timestamp - previous) / 1000))
            previous = timestamp
        }
        guard !frames.isEmpty else { throw WebImageError(.corruptData, "the animated WebP has no frames") }
        return Image(
            frames: frames, loopCount: Int(info.loop_count), format: .webp, colorProfile: color.keptProfile)
    }
}

/// Encodes animations with `WebPAnimEncoder`.
enum WebPAnimationEncoder {
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp did not start")
        }
        var config = try WebPPreset.configuration(options, quality: Float(min(max(options.quality, 0), 100)))
        encoderOptions.anim_params.loop_count = Int32(image.loopCount)
        config.lossless = options.lossless || options.nearLossless ? 1 : 0
        if options.nearLossless { config.near_lossless = Int32(min(max(options.quality, 0), 100)) }
        guard let encoder = WebPAnimEncoderNew(Int32(image.width), Int32(image.height), &encoderOptions) else {
            throw WebImageError(.encodingFailed, "cannot start the WebP animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp: Int32 = 0
        for frame in image.frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw WebImageError(.encodingFailed, "libwebp did not start") }
            picture.width = Int32(image.width)
            picture.height = Int32(image.height)
            picture.use_argb = 1
            let added = frame.pixels.bytes.withUnsafeBufferPointer { source in
                WebPPictureImportRGBA(&picture, source.baseAddress, Int32(frame.pixels.bytesPerRow)) != 0
                    && WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0
            }
            WebPPictureFree(&picture)
            guard added else { throw failure(encoder) }
            timestamp += Int32((frame.duration * 1000).rounded())
        }
        var output = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0, WebPAnimEncoderAssemble(encoder, &output) != 0
        else { throw failure(encoder) }
        defer { WebPDataClear(&output) }
        return Data(bytes: output.bytes, count: output.size)
    }

    private static func failure(_ encoder: OpaquePointer) -> WebImageError {
        WebImageError(
            .encodingFailed, "WebP animation encoding failed: \(String(cString: WebPAnimEncoderGetError(encoder)))")
    }
}
