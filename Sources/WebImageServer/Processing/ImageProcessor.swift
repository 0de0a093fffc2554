import Foundation
import WebImage

/// An encoded result and what the response needs to know about it.
struct ProcessedImage: Sendable {
    /// The encoded bytes.
    var data: Data
    /// Their format.
    var format: ImageFormat
    /// The pixel size.
    var size: PixelSize
    /// Seconds spent decoding, transforming and encoding, for the metrics.
    var timings = StageTimings()
    /// The origin's `ETag` and `Last-Modified`, each when it sent one.
    var source = ImageValidators()
    /// The source's pixel size and bytes, for the debug headers.
    var sourceSize: PixelSize?
    var sourceBytes: Int?
    /// When the decode, each step and the encode ran, with ``ImageProcessor/recordsStages``; else `nil`.
    var stages: [StageTime]?
}

/// Seconds spent in each processing stage.
struct StageTimings: Sendable {
    var decode = 0.0
    var transform = 0.0
    var encode = 0.0
}

/// Source bytes to result bytes: the header's ``LoadPlan``, the decode, the result format, the steps of
/// ``ProcessingPipeline``, the encode.
struct ImageProcessor: Sendable {
    let coders: any ImageCoding
    let limits: ServerLimits
    /// How the format is chosen when the request names none.
    var formats = FormatChoice(preferred: FormatChoice.imgproxyDefault)
    /// The default qualities and the encoders' settings.
    var encoder = EncoderSettings()
    /// Whether PNGs described by `gAMA` and `cHRM` alone are converted to sRGB (`--png-gamma`); off as in imgproxy.
    var appliesPNGGamma = false
    /// Whether JPEG, WebP, HEIC and AVIF sources may be decoded smaller when the result is smaller (imgproxy's scale on
    /// load); off with `--disable-shrink-on-load`.
    var shrinksOnLoad = true
    /// Whether images are resized in linear light (`--use-linear-colorspace`); off as in imgproxy.
    var usesLinearColorspace = false
    /// How an SVG source is answered.
    var svg = SVGAnswer()
    /// Whether results say when each stage ran (``ProcessedImage/stages``), for tracing.
    var recordsStages = false

    /// The formats whose results keep a 16-bit source's high bit depth with `preserve_hdr` (imgproxy's `SupportsHDR`):
    /// 16-bit PNG, TIFF and JPEG XL, 12-bit AVIF.
    static let highBitDepth: Set<ImageFormat> = [.png, .tiff, .avif, .jxl]

    /// The writable formats with room for an ICC profile (`strip_color_profile:0`).
    static let profileCarrying: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .bmp, .tiff, .jxl, .heic]

    /// Processes `data` into `format`, or, when `format` is `nil`, into the format ``FormatChoice`` picks, with
    /// `watermark` laid over it when the options ask for one; under the server's limits as the options' security
    /// overrides change them. A source whose format `skip_processing` lists is answered as it is (imgproxy's skip
    /// processing: when the URL names no other format), after the resolution check of its first frame; an SVG then
    /// sanitised as ``SVGAnswer`` sanitises it. An SVG source is otherwise answered as ``SVGAnswer`` says: as SVG
    /// unless the URL's own format (`options.format`, not `Accept`'s) asks for another.
    func process(
        _ data: Data, options: ProcessingOptions, format: ImageFormat?, watermark: WatermarkImage? = nil
    ) throws(ImageServerError) -> ProcessedImage {
        try process(data, options: options, request: FormatRequest(format), watermark: watermark)
    }

    /// As ``process(_:options:format:watermark:)``, in the format `request` gives for the source: the one for an
    /// animated source when the source has more than one frame and more than one may be kept, as imgproxy's
    /// `determineOutputFormat` decides it.
    func process(
        _ data: Data, options: ProcessingOptions, request: FormatRequest, watermark: WatermarkImage? = nil
    ) throws(ImageServerError) -> ProcessedImage {
        let limits = options.security.applied(to: self.limits)
        var info: ImageInfo
        do { info = try coders.info(of: data) } catch { throw Self.unprocessable(error) }
        let sourceSize = PixelSize(width: info.width, height: info.height)
        let requested = request.format(animated: limits.maxAnimationFrames > 1 && info.frameCount > 1)
        if options.skipProcessingFormats.contains(info.format), options.format == nil || options.format == info.format {
            if info.format == .svg { return try svg.answer(data, info: info).from(sourceSize, bytes: data.count) }
            try LoadPlan.checkResolution(width: info.width, height: info.height, frames: 1, limits: limits)
            return ProcessedImage(
                data: data, format: info.format, size: sourceSize, sourceSize: sourceSize, sourceBytes: data.count)
        }
        var options = options
        if info.format == .svg {
            if svg.answersAsSVG(requested: options.format) {
                return try svg.answer(data, info: info).from(sourceSize, bytes: data.count)
            }
            info = SVGAnswer.guarded(info, limits: limits)
            options = options.forVectorSource
        }
        let plan = try LoadPlan(
            info: info, options: options, requested: requested, formats: formats, limits: limits,
            shrinksOnLoad: shrinksOnLoad)
        let decodeStart = ContinuousClock.now
        var image: Image
        var decoding = plan.decoding
        decoding.appliesPNGGamma = appliesPNGGamma
        decoding.keepsHighBitDepth = options.preserveHDR && plan.format.map(Self.highBitDepth.contains) != false
        do { image = try coders.decode(data, options: decoding) } catch { throw Self.unprocessable(error) }
        var timings = StageTimings(decode: decodeStart.secondsUntilNow)
        var stages: [StageTime]? = recordsStages ? [StageTime(name: "decode", start: decodeStart, end: .now)] : nil
        if image.frames.count > limits.maxAnimationFrames {
            image = image.withFrames(Array(image.frames.prefix(limits.maxAnimationFrames)))
        }
        let format =
            plan.format
            ?? formats.late(
                animated: image.frames.count > 1,
                expectsTransparency: options.background == nil
                    && (info.hasAlpha || options.padding.isEnabled || options.extend))
        guard coders.canEncode(format) else {
            throw ImageServerError(status: 422, "the \(format.name) format cannot be written")
        }
        let transformStart = ContinuousClock.now
        let quality = encoder.quality(for: format, options: options)
        var context = ProcessingContext(
            image: image, options: options, limits: limits, format: format, planned: plan.planned,
            shrunkOnLoad: plan.decoding.targetSize != nil || plan.decoding.shrinkFactor != nil,
            encoding: encoder.encoding(for: format, quality: quality),
            watermark: watermark)
        context.linearLight = usesLinearColorspace
        if !Self.highBitDepth.contains(format) { context.dropHighBitDepth() }
        try ProcessingPipeline.run(&context, times: &stages)
        timings.transform = transformStart.secondsUntilNow
        let encodeStart = ContinuousClock.now
        let result = context.image
        let encoding = context.encoding
        let encoded = try encode(result, as: format, options: encoding, maxBytes: options.maxBytes)
        timings.encode = encodeStart.secondsUntilNow
        stages?.append(StageTime(name: "encode", start: encodeStart, end: .now))
        return ProcessedImage(
            data: encoded, format: format, size: result.size, timings: timings, sourceSize: sourceSize,
            sourceBytes: data.count, stages: stages)
    }

    /// Runs library work, turning its error into a 422.
    static func library<T>(_ body: () throws(WebImageError) -> T) throws(ImageServerError) -> T {
        do { return try body() } catch { throw unprocessable(error) }
    }

    /// The 422 of a source the library cannot read; bytes of no format it reads are marked as the source's fault
    /// (``ImageServerError/isUnreadableSource``), as imgproxy's type detection fails them.
    static func unprocessable(_ error: WebImageError) -> ImageServerError {
        switch error.code {
        case .tooLarge: return ImageServerError(status: 422, "source image is too large")
        case .unsupportedFormat:
            var failure = ImageServerError(status: 422, "source image format is not supported")
            failure.isUnreadableSource = true
            return failure
        default:
            var failure = ImageServerError(status: 422, "source image cannot be processed")
            failure.isProcessingFailure = true
            return failure
        }
    }
}

extension ContinuousClock.Instant {
    /// Seconds from this instant to now.
    var secondsUntilNow: Double {
        let elapsed = (ContinuousClock.now - self).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
