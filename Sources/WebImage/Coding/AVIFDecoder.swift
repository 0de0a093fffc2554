import CAVIF
import Foundation

/// One libavif decoder over bytes that outlive it: parses the container, checks the limits, then decodes frames.
///
/// Every frame of an AVIF sequence is a whole picture, so no compositing is needed. Samples of any depth (8, 10,
/// 12 bits) are converted by libavif to 8-bit RGBA; images without alpha come out opaque.
struct AVIFDecoder: ~Copyable {
    private let raw: UnsafeMutablePointer<avifDecoder>

    /// Parses the container of `bytes` (which must stay valid while the decoder lives); its `Exif` and XMP items are
    /// read only when `readsMetadata`.
    init(_ bytes: UnsafeRawBufferPointer, readsMetadata: Bool = false) throws(WebImageError) {
        guard let raw = avifDecoderCreate() else { throw WebImageError(.tooLarge, "libavif could not start") }
        // As Chromium does: accept files that bend the rules (a missing `pixi` box, say) but decode fine.
        raw.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
        raw.pointee.ignoreXMP = readsMetadata ? 0 : 1
        raw.pointee.ignoreExif = readsMetadata ? 0 : 1
        raw.pointee.maxThreads = Int32(clamping: max(ProcessInfo.processInfo.activeProcessorCount, 1))
        var status = avifDecoderSetIOMemory(raw, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        if status == AVIF_RESULT_OK { status = avifDecoderParse(raw) }
        guard status == AVIF_RESULT_OK else {
            avifDecoderDestroy(raw)
            try Self.check(status)
            throw WebImageError(.corruptData, "invalid AVIF data")
        }
        self.raw = raw
    }

    deinit { avifDecoderDestroy(raw) }

    /// The size of the stored pixels, as the container declares it (before `irot`/`imir`).
    var size: PixelSize {
        PixelSize(width: Int(raw.pointee.image.pointee.width), height: Int(raw.pointee.image.pointee.height))
    }

    /// Frames in the file: 1 for a still, more for a sequence.
    var frameCount: Int { max(Int(raw.pointee.imageCount), 1) }

    /// Whether the image has an alpha plane.
    var hasAlpha: Bool { raw.pointee.alphaPresent != 0 }

    /// The orientation of the container's `irot` and `imir` properties.
    var orientation: ImageOrientation {
        let image = raw.pointee.image.pointee
        let flags = image.transformFlags
        let turns = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle) : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode) : nil
        return HEIFOrientation.orientation(quarterTurns: turns, mirrorMode: mirror)
    }

    /// The ICC profile of the `colr` box, if there is one.
    var iccProfile: Data? {
        let icc = raw.pointee.image.pointee.icc
        guard icc.size > 0, let data = icc.data else { return nil }
        return Data(bytes: data, count: icc.size)
    }

    /// Header information.
    var info: ImageInfo {
        ImageInfo(
            format: .avif, width: size.width, height: size.height, frameCount: frameCount,
            orientation: orientation, hasAlpha: hasAlpha)
    }

    /// Decodes every frame (or the first), checking the limits before the first pixel is decoded.
    func decode(options: DecodingOptions) throws(WebImageError) -> Image {
        let size = self.size
        let wanted = options.firstFrameOnly ? 1 : frameCount
        try options.limits.checkAnimation(width: size.width, height: size.height, frames: wanted)
        // The AV1 decoder gets the frame limit too, against frames larger than the container declares.
        let pixelLimit = UInt32(clamping: max(options.limits.maxPixelsPerFrame, 1))
        if pixelLimit < raw.pointee.imageSizeLimit {
            raw.pointee.imageSizeLimit = pixelLimit
            try Self.check(avifDecoderReset(raw))
        }
        let orientation = options.appliesOrientation ? self.orientation : .up
        let color = ColorHandling(profile: iccProfile, options: options)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        while frames.count < wanted {
            let status = avifDecoderNextImage(raw)
            if status == AVIF_RESULT_NO_IMAGES_REMAINING, !frames.isEmpty { break }
            try Self.check(status)
            if wanted == 1, options.keepsHighBitDepth,
                let deep = try nextDeepPixels(size: size, color: color, limits: options.limits)
            {
                frames.append(ImageFrame(deepPixels: deep.oriented(from: orientation)))
                continue
            }
            let pixels = try nextPixels(size: size, color: color)
            let duration = raw.pointee.imageTiming.duration
            frames.append(
                ImageFrame(
                    pixels: pixels.oriented(from: orientation),
                    duration: frameCount > 1 && duration.isFinite && duration > 0 ? duration : 0))
        }
        let (exif, xmp) = (raw.pointee.image.pointee.exif, raw.pointee.image.pointee.xmp)
        return Image(
            frames: frames, format: .avif, sourceOrientation: orientation, isOpaque: hasAlpha ? nil : true,
            colorProfile: color.keptProfile,
            exif: exif.size > 0 && exif.data != nil
                ? EXIFMetadata.kept(UnsafeRawBufferPointer(start: exif.data, count: exif.size), options: options)
                : nil,
            xmp: xmp.size > 0 && xmp.data != nil
                ? XMPMetadata.kept(UnsafeRawBufferPointer(start: xmp.data, count: xmp.size), options: options) : nil)
    }

    private func nextPixels(size: PixelSize, color: ColorHandling) throws(WebImageError) -> PixelBuffer {
        guard let image = raw.pointee.image, Int(image.pointee.width) == size.width,
            Int(image.pointee.height) == size.height
        else {
            throw WebImageError(.corruptData, "an AVIF frame's size differs from the container's")
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        var status = AVIF_RESULT_OK
        let pixels = PixelBuffer(width: size.width, height: size.height) { output in
            rgb.pixels = output.baseAddress
            rgb.rowBytes = UInt32(size.width * 4)
            status = avifImageYUVToRGB(image, &rgb)
            if status == AVIF_RESULT_OK { color.apply(output) }
        }
        try Self.check(status)
        return pixels
    }

    /// The current frame at 16 bits (``DecodingOptions/keepsHighBitDepth``) when it has more than 8 bits a sample;
    /// `nil` otherwise, or when its profile is not one ``DeepColorConversion`` applies.
    private func nextDeepPixels(
        size: PixelSize, color: ColorHandling, limits: DecodingLimits
    ) throws(WebImageError) -> PixelBuffer16? {
        guard let image = raw.pointee.image, image.pointee.depth > 8, Int(image.pointee.width) == size.width,
            Int(image.pointee.height) == size.height
        else { return nil }
        try limits.checkDeepFrame(width: size.width, height: size.height)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 16
        rgb.format = AVIF_RGB_FORMAT_RGBA
        var status = AVIF_RESULT_OK
        let pixels = PixelBuffer16(width: size.width, height: size.height) { output in
            // libavif writes 16-bit samples in the host's byte order.
            rgb.pixels = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: UInt8.self)
            rgb.rowBytes = UInt32(size.width * 8)
            status = avifImageYUVToRGB(image, &rgb)
        }
        try Self.check(status)
        guard color.transform != nil else { return pixels }
        return iccProfile.flatMap { DeepColorConversion.converted(pixels, from: $0) }
    }

    static func check(_ status: avifResult) throws(WebImageError) {
        guard status != AVIF_RESULT_OK else { return }
        let reason = String(cString: avifResultToString(status))
        switch status {
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO:
            throw WebImageError(.truncatedData, "AVIF data ends early (\(reason))")
        case AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_UNSUPPORTED_DEPTH:
            throw WebImageError(.unsupportedFormat, "unsupported AVIF feature (\(reason))")
        case AVIF_RESULT_OUT_OF_MEMORY:
            throw WebImageError(.tooLarge, "libavif ran out of memory")
        default:
            throw WebImageError(.corruptData, "invalid AVIF data (\(reason))")
        }
    }
}
