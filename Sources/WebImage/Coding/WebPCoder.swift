import CWebP
import Foundation

/// WebP decoding and encoding with libwebp: lossy, lossless, alpha, and animation (via libwebpdemux/libwebpmux).
///
/// Stills shrink on load with libwebp's decoder scaling when ``DecodingOptions/targetSize`` or
/// ``DecodingOptions/shrinkFactor`` allows. Animations are
/// composited by `WebPAnimDecoder` (blending and disposal applied) into full-canvas frames. An `EXIF` chunk's
/// orientation is applied to stills, and an `ICCP` profile converted to sRGB unless
/// ``DecodingOptions/keepsColorProfile`` is set, for stills and every frame of an animation.
public struct WebPCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .webp }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .webp }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try Self.withWebPData(data) { webp throws(WebImageError) in
            let features = try Self.features(webp)
            let container = WebPContainer(webp)
            return ImageInfo(
                format: .webp, width: Int(features.width), height: Int(features.height),
                frameCount: max(container.frameCount, 1), orientation: container.orientation,
                hasAlpha: features.has_alpha != 0)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try Self.withWebPData(data) { webp throws(WebImageError) in
            let features = try Self.features(webp)
            let container = WebPContainer(webp)
            let color = ColorHandling(profile: container.iccProfile, options: options)
            if features.has_animation != 0 {
                return try WebPAnimationDecoder.decode(webp, options: options, color: color)
            }
            let orientation = options.appliesOrientation ? container.orientation : .up
            let pixels = try Self.decodeStill(
                webp, features: features, orientation: orientation, options: options, color: color)
            return Image(
                frames: [ImageFrame(pixels: pixels.oriented(from: orientation))], format: .webp,
                sourceOrientation: orientation, isOpaque: features.has_alpha == 0 ? true : nil,
                colorProfile: color.keptProfile,
                exif: container.exif.flatMap { exif in
                    exif.withUnsafeBytes { EXIFMetadata.kept($0, options: options) }
                },
                xmp: container.xmp.flatMap { xmp in xmp.withUnsafeBytes { XMPMetadata.kept($0, options: options) } })
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        let color = EncodingColor(image, options: options)
        let data = try encode(color.image(like: image), options: options)
        let chunks = [("ICCP", color.profile), ("EXIF", color.exif), ("XMP ", color.xmp)].compactMap {
            fourCC, payload in
            payload.map { (fourCC: fourCC, payload: $0) }
        }
        return chunks.isEmpty ? data : try ICCProfileWriter.webp(data, chunks: chunks)
    }

    private func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        if image.isAnimated {
            return try WebPAnimationEncoder.encode(image, options: options)
        }
        let pixels = image.pixels
        // As libwebp's simple API encodes: lossy from YUV at the quality, lossless from ARGB at its quality 70, and
        // near-lossless (lossless after preprocessing at the quality as its level) at the default 75.
        let lossless = options.lossless || options.nearLossless
        let lossy = Float(min(max(options.quality, 0), 100))
        let quality: Float = options.nearLossless ? 75 : options.lossless ? 70 : lossy
        var config = try WebPPreset.configuration(options, quality: quality)
        config.lossless = lossless ? 1 : 0
        if options.nearLossless { config.near_lossless = Int32(min(max(options.quality, 0), 100)) }
        return try Self.encode(pixels, config: config, argb: lossless)
    }

    /// `pixels` encoded with `config`, imported as ARGB (lossless) or YUV.
    private static func encode(_ pixels: PixelBuffer, config: WebPConfig, argb: Bool) throws(WebImageError) -> Data {
        var config = config
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw WebImageError(.encodingFailed, "libwebp did not start") }
        picture.use_argb = argb ? 1 : 0
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let imported = pixels.bytes.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(pixels.bytesPerRow))
        }
        let encoded = withUnsafeMutablePointer(to: &writer) { pointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return imported != 0 ? WebPEncode(&config, &picture) : 0
        }
        guard encoded != 0, let memory = writer.mem else {
            throw WebImageError(.encodingFailed, "WebP encoding failed")
        }
        return Data(bytes: memory, count: writer.size)
    }

    private static func decodeStill(
        _ webp: WebPData, features: WebPBitstreamFeatures, orientation: ImageOrientation, options: DecodingOptions,
        color: ColorHandling
    ) throws(WebImageError) -> PixelBuffer {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw WebImageError(.corruptData, "libwebp did not start") }
        let (width, height) = (Int(features.width), Int(features.height))
        let target = ShrinkOnLoad.storedTarget(options.targetSize, orientation: orientation)
        let scales = (target.map { [max(Double($0.width) / Double(width), Double($0.height) / Double(height))] } ?? [])
            .filter { $0 > 0 && $0 < 1 }
        var (scale, size) = ShrinkOnLoad.choose(width: width, height: height, target: target, factors: scales) {
            dimension, scale in Int((Double(dimension) * scale).rounded(.up))
        }
        if let shrunk = ShrinkOnLoad.webpSize(width: width, height: height, factor: options.shrinkFactor) {
            (scale, size) = (options.shrinkFactor, shrunk)
        }
        try options.limits.checkFrame(width: size.width, height: size.height)
        if scale != nil {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        var status = VP8_STATUS_OK
        let pixels = PixelBuffer(width: size.width, height: size.height) { output in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = output.baseAddress
            config.output.u.RGBA.stride = Int32(size.width * 4)
            config.output.u.RGBA.size = output.count
            status = WebPDecode(webp.bytes, webp.size, &config)
            if status == VP8_STATUS_OK { color.apply(output) }
        }
        WebPFreeDecBuffer(&config.output)
        try check(status)
        return pixels
    }

    static func features(_ webp: WebPData) throws(WebImageError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        try check(WebPGetFeatures(webp.bytes, webp.size, &features))
        return features
    }

    static func check(_ status: VP8StatusCode) throws(WebImageError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw WebImageError(.truncatedData, "WebP data ends early")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw WebImageError(.unsupportedFormat, "unsupported WebP feature")
        case VP8_STATUS_OUT_OF_MEMORY: throw WebImageError(.tooLarge, "libwebp ran out of memory")
        default: throw WebImageError(.corruptData, "invalid WebP data (status \(status.rawValue))")
        }
    }

    static func withWebPData<T>(
        _ data: Data, _ body: (WebPData) throws(WebImageError) -> T
    ) throws(WebImageError) -> T {
        try data.withImageBytes { bytes throws(WebImageError) in
            try body(WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count))
        }
    }
}

/// What the RIFF container says beside the bitstream: frame count, EXIF orientation and ICC profile.
struct WebPContainer {
    var frameCount = 1
    var orientation = ImageOrientation.up
    var iccProfile: Data?
    /// The `EXIF` chunk's bytes, when at most ``EXIFMetadata/maxSize``.
    var exif: Data?
    /// The `XMP ` chunk's bytes, when at most ``XMPMetadata/maxSize``.
    var xmp: Data?

    init(_ webp: WebPData) {
        var data = webp
        guard let demuxer = WebPDemux(&data) else { return }
        defer { WebPDemuxDelete(demuxer) }
        frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        var chunk = WebPChunkIterator()
        if WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 {
            let bytes = UnsafeRawBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size)
            orientation = EXIFReader.orientation(in: bytes)
            if bytes.count <= EXIFMetadata.maxSize + EXIFMetadata.prefix.count { exif = Data(bytes) }
        }
        WebPDemuxReleaseChunkIterator(&chunk)
        var icc = WebPChunkIterator()
        if WebPDemuxGetChunk(demuxer, "ICCP", 1, &icc) != 0, icc.chunk.size <= ICCProfileReader.maxSize {
            iccProfile = Data(bytes: icc.chunk.bytes, count: icc.chunk.size)
        }
        WebPDemuxReleaseChunkIterator(&icc)
        var xmpChunk = WebPChunkIterator()
        if WebPDemuxGetChunk(demuxer, "XMP ", 1, &xmpChunk) != 0, xmpChunk.chunk.size <= XMPMetadata.maxSize {
            xmp = Data(bytes: xmpChunk.chunk.bytes, count: xmpChunk.chunk.size)
        }
        WebPDemuxReleaseChunkIterator(&xmpChunk)
    }
}
